/**
 * The compat modes' reproductions, each loaded when a job first asks for its mode: the strategies' split files call
 * these rather than importing the modules, so a native job (the chunk worker's first, the default) loads none.
 */
export const loadLangchain = () => import('./langchain');
export const loadChonkie = () => import('./chonkie');
export const loadLlamaindex = () => import('./llamaindex');

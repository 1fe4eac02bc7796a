import { loadOnce } from '../loadOnce';

/**
 * The compat modes' reproductions, each loaded when a job first asks for its mode and kept: the strategies' split
 * files call these rather than importing the modules, so a native job (the chunk worker's first, the default)
 * loads none.
 */
export const loadLangchain = loadOnce(() => import('./langchain'));
export const loadChonkie = loadOnce(() => import('./chonkie'));
export const loadLlamaindex = loadOnce(() => import('./llamaindex'));

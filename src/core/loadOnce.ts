/**
 * A module the engine loads on first use (a compat mode, the retrieval patterns, contextual headers), kept once
 * loaded: `import()` of a module already loaded still costs 0.05–0.4 ms a call (measured in Node), too much on a
 * slider move's path. A load that failed (offline before the service worker cached the chunk) is tried again on the
 * next call. Callers name each loader (`loadLangchain`, `loadRetrievalPatterns`); the words and token units' load()
 * is one too (chunk() asks getUnit on every run).
 */
export function loadOnce<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

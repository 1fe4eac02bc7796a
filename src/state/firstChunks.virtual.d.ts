/** The first sample's chunks, built by vite.config.ts (`firstChunks()`): see src/state/firstChunks.ts. */
declare module 'virtual:chunkscope-first-chunks' {
  const ahead: import('./firstChunks').AheadChunks;
  export default ahead;
}

/**
 * The embedding-model catalogue and its size formatter, for the UI: src/ui reaches the bridge only through
 * src/state (see scripts/lint-layers.mjs).
 */
export { embedderCatalogue, formatBytes, type EmbedderModel } from '../bridge/embedClient';

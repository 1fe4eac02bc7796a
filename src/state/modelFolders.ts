import type { StoreApi } from 'zustand';
import { findEmbedderModel, formatBytes, type EmbedClient, type LocalModelFiles } from '../bridge/embedClient';
import type { AppState } from './store';

/** Embedding models: a picked model folder handed to the embedding worker, and the one-line download hint. */

/** "Load model folder…": hand the folder's files to the worker and select the model. */
export async function loadModelFolderWith(store: StoreApi<AppState>, embed: EmbedClient, model: LocalModelFiles, rerun: () => void): Promise<void> {
  try {
    const { id, message } = await embed.addLocalModel(model);
    const s = store.getState();
    s.addLocalModel(id);
    s.setNotice(message);
    // Same id as before: the worker forgot the old files' model, so run again.
    if (s.config.embedder === id) rerun();
    else s.setConfig({ embedder: id, strategy: 'semantic' });
  } catch (error) {
    store.getState().setNotice(error instanceof Error ? error.message : String(error));
  }
}

/** One line about a hub model before it downloads. */
export function embedderDownloadHint(id: string): string | null {
  const model = findEmbedderModel(id);
  if (!model || model.sizeBytes === 0) return null;
  return `Downloads about ${formatBytes(model.sizeBytes)} from the Hugging Face hub once; the browser keeps it.`;
}

import type { StoreApi } from 'zustand';
import { findEmbedderModel, formatBytes } from '../bridge/embedClient';
import { offlineInventory } from '../pwa/offlineModels';
import type { Config } from './configSlice';
import type { AppState } from './store';

/** A model id that is fetched from the Hugging Face hub (not `builtin`, not a picked folder `local/...`). */
export function isHubModel(id: string): boolean {
  return id !== 'builtin' && !id.startsWith('local/') && id.includes('/');
}

/** Whether loading `id` needs no download: self-hosted under this origin's /models, or cached by an earlier visit. */
export async function availableWithoutDownload(
  id: string,
  cached: () => Promise<readonly string[]> = async () => (await offlineInventory()).models,
  selfHosted: (id: string) => Promise<boolean> = hostedHere,
): Promise<boolean> {
  try {
    if ((await cached()).includes(id)) return true;
  } catch {
    /* no Cache Storage: ask */
  }
  return selfHosted(id).catch(() => false);
}

async function hostedHere(id: string): Promise<boolean> {
  // The id passed the option table's owner/name pattern (no "..", no other separators): a path under /models.
  const response = await fetch(`/models/${id.split('/').map(encodeURIComponent).join('/')}/config.json`, { method: 'HEAD' });
  return response.ok;
}

/**
 * The configuration a link opens with, less a hub model it names that this browser would have to download:
 * that one waits for the person (embedderToConfirm) while the previous model stays.
 */
export async function holdLinkedEmbedder(
  store: StoreApi<AppState>,
  fromLink: Config,
  before: Config,
  available: (id: string) => Promise<boolean> = (id) => availableWithoutDownload(id),
): Promise<Config> {
  const id = fromLink.embedder;
  if (id === before.embedder || !isHubModel(id) || (await available(id))) return fromLink;
  store.getState().setEmbedderToConfirm(id);
  return { ...fromLink, embedder: before.embedder };
}

/** The prompt's words: which model, from where, about how much. */
export function embedderConsentText(id: string): string {
  const model = findEmbedderModel(id);
  const size = model && model.sizeBytes > 0 ? `about ${formatBytes(model.sizeBytes)}` : 'its weights';
  return `This link uses the embedding model ${id}. Using it downloads ${size} from the Hugging Face hub (huggingface.co); nothing is downloaded until you agree.`;
}

/** The prompt's answer: download and use the model, or keep the one in use. */
export function answerEmbedderConsent(store: StoreApi<AppState>, use: boolean): void {
  const id = store.getState().embedderToConfirm;
  store.getState().setEmbedderToConfirm(null);
  if (use && id) store.getState().setConfig({ embedder: id });
}

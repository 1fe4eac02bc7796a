import type { StoreApi } from 'zustand';
import { LLM_SETTINGS_STORAGE, storedLlmSettings } from './llmSettings';
import type { AppState } from './store';
import { watch } from './watch';

/**
 * What the page does about LLM state from the start, without loading the LLM layer (it loads with the panel): the
 * settings (never the key) kept between visits, and the last run's result dropped when the document changes.
 */
export function startLlmSync(store: StoreApi<AppState>, storage: Pick<Storage, 'setItem'> | null = safeStorage()): () => void {
  const stops = [
    watch(store, (s) => s.llmSettings, (settings) => {
      try {
        storage?.setItem(LLM_SETTINGS_STORAGE, storedLlmSettings(settings));
      } catch {
        /* quota: the settings stay for this session */
      }
    }),
    watch(store, (s) => s.documentSerial, () => store.getState().setLlmResult(null)),
  ];
  return () => stops.forEach((stop) => stop());
}

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage refused (privacy mode)
  }
}

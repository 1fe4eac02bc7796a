import type { StoreApi } from 'zustand';
import { initialLlmSettings, LLM_URL_KEY } from './llmSettings';
import type { ShareFile } from './shareLink';
import type { AppState } from './store';
import { configFromUrl, pinnedFromUrl } from './urlSync';

/**
 * Opening a share file (the file reader, src/ui/editor/readFile.ts, loads this with it): its configuration through
 * the URL codec, as its link would apply it. Apart from shareLinkSync.ts, which the first screen imports.
 */

/** Open a share file: its configuration (and pinned comparison) and its document, as its link would. */
export function applyShareFile(store: StoreApi<AppState>, file: ShareFile): void {
  const state = store.getState();
  const query = `?${file.query}`;
  state.setConfig(configFromUrl(query, state.config));
  const pinned = pinnedFromUrl(query);
  if (pinned) state.restorePinned(pinned);
  if (new URLSearchParams(query).has(LLM_URL_KEY)) state.setLlmSettings(initialLlmSettings(query, null));
  state.setDocument(file.document.text, { name: file.document.name, pageStarts: null });
}

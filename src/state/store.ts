import { create } from 'zustand';
import { createConfigSlice, type ConfigSlice } from './configSlice';
import { createDocumentSlice, type DocumentSlice } from './documentSlice';
import { createDocumentSetSlice, type DocumentSetSlice } from './documentSetSlice';
import { createEmbedderConsentSlice, type EmbedderConsentSlice } from './embedderConsentSlice';
import { createLabSlice, type LabSlice } from './labSlice';
import { createLlmSlice, type LlmSlice } from './llmSlice';
import { createPersistenceSlice, type PersistenceSlice } from './persistenceSlice';
import { createResultsSlice, type ResultsSlice } from './resultsSlice';
import { createSemanticSlice, type SemanticSlice } from './semanticSlice';
import { createUiSlice, type UiSlice } from './uiSlice';

export type AppState = DocumentSlice & DocumentSetSlice & ConfigSlice & ResultsSlice & UiSlice & SemanticSlice & LabSlice & LlmSlice & PersistenceSlice & EmbedderConsentSlice;

/** The one store, composed of slices (zustand slices pattern). Persistence is wired in ./persistence. */
export const useStore = create<AppState>()((...a) => ({
  ...createDocumentSlice(...a),
  ...createDocumentSetSlice(...a),
  ...createConfigSlice(...a),
  ...createResultsSlice(...a),
  ...createUiSlice(...a),
  ...createSemanticSlice(...a),
  ...createLabSlice(...a),
  ...createLlmSlice(...a),
  ...createPersistenceSlice(...a),
  ...createEmbedderConsentSlice(...a),
}));

// A notice about a document goes when another document arrives (a banner about the previous file never stays).
useStore.subscribe((s, prev) => {
  if (s.documentSerial !== prev.documentSerial && s.notice !== null && s.noticeFor !== null && s.noticeFor !== s.documentSerial) {
    useStore.setState({ notice: null, noticeFor: null });
  }
});

/** Reset every slice (tests). */
export function resetStore(): void {
  const s = useStore.getState();
  s.resetDocument();
  s.resetDocumentSet();
  s.resetConfig();
  s.resetResults();
  s.resetUi();
  s.resetSemantic();
  s.resetLab();
  s.resetLlm();
  s.resetPersistence();
  s.resetEmbedderConsent();
}

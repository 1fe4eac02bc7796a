import { useEffect, type RefObject } from 'react';
import { selectViewOnly } from '../../state/selectors';
import { useStore } from '../../state/store';
import { editorType, type EditorSession } from './editorSession';
import { editorSteps, LARGE_DOCUMENT } from './editorModel';

/**
 * Store changes into the editor: what to do is decided by editorSteps (pure); here it is only done, by the other
 * hooks' parts. Also the first paint (or, for a large document, the first load). Runs after every other hook of the
 * editor: its subscription comes after the lab's, as the two were ordered in one subscription before.
 */
export function useStoreSteps(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, chunks, loader } = s;
    const unsubscribe = useStore.subscribe((next, prev) => {
      // Projector mode: larger type, fewer marks (breadcrumbs where the section changes, injected text collapsed).
      if (next.config.projector !== prev.config.projector) editor.updateOptions(editorType(next.config.projector));
      if (next.config.projector !== prev.config.projector || next.injectedShown !== prev.injectedShown) chunks.paint();
      // "Edit in the editor": the document shown read-only goes into Monaco.
      const viewOnly = selectViewOnly(next);
      if (!viewOnly && selectViewOnly(prev) && next.text === prev.text) {
        loader.load(next.text, next.docName);
        editor.focus();
      }
      for (const step of editorSteps(next, prev)) {
        if (step.kind === 'load') loader.load(step.text, step.name);
        else if (viewOnly) continue; // Monaco is hidden and holds none of this document: the view draws it
        else if (step.kind === 'paint') {
          chunks.paint();
          chunks.showSelection(false);
        } else if (step.kind === 'selection') chunks.showSelection(step.reveal);
        else if (step.kind === 'pair') chunks.showPair(step.gap, step.reveal);
        else if (step.kind === 'truncated') {
          if (!s.loading) chunks.paintTruncated(next.result!); // `loading` as it is now: a load step just before may have started one
        } else chunks.clearPair();
      }
    });
    const s0 = useStore.getState();
    if (s0.text.length > LARGE_DOCUMENT) loader.load(s0.text, s0.docName);
    else {
      chunks.paint();
      chunks.showSelection(false); // a chunk chosen before Monaco loaded (in the first view or the list)
    }
    return unsubscribe;
  }, [session]);
}

import { useEffect, type RefObject } from 'react';
import { useStore } from '../../state/store';
import type { EditorSession } from './editorSession';

/**
 * With several documents open, each keeps its scroll position: when the shown document changes (a tab, a question
 * of another document), the editor's position is kept under the document left, and the one coming back is put where
 * it was once its text is in. Mounted after useStoreSteps, so the text is loaded when this runs.
 */
export function useDocumentScroll(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const kept = new Map<string, number>();
    let pending: string | null = null;
    return useStore.subscribe((next, prev) => {
      const shownName = (x: typeof next) => x.openDocuments[x.activeDocument]?.name ?? null;
      const switched = prev.openDocuments.length > 0 && next.openDocuments.length > 0 && shownName(next) !== shownName(prev);
      if (switched && prev.docName !== null) {
        kept.set(prev.docName, s.editor.getScrollTop());
        pending = shownName(next);
      }
      // The document arrives with the next change of the text (a switch loads it at once, as one external change).
      if (pending !== null && next.docVersion !== prev.docVersion) {
        if (next.docName !== pending || next.docOrigin !== 'external') {
          pending = null;
          return;
        }
        const top = kept.get(pending);
        pending = null;
        if (top !== undefined) s.editor.setScrollTop(top);
      }
    });
  }, [session]);
}

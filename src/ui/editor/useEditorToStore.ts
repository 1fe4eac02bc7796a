import { useEffect, type RefObject } from 'react';
import { selectViewOnly } from '../../state/selectors';
import { useStore } from '../../state/store';
import type { EditorSession } from './editorSession';
import { chunkAtOffset, editIsNewDocument, fromEditorText, startsWithBom } from './editorModel';
import { monaco } from './monaco';

/** What the person does in Monaco, into the store: typing (the document), the selection (the lab's "Mark as
 * answer"), a click in a chunk (the selected chunk). */
export function useEditorToStore(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, model } = s;
    const contentSub = model.onDidChangeContent(() => {
      // A key that reached the hidden editor before the read-only view took the focus must not replace the document.
      if (s.applyingExternal || selectViewOnly(useStore.getState())) return;
      const state = useStore.getState();
      const text = fromEditorText(model.getValue(), startsWithBom(state.text));
      const newDocument = editIsNewDocument(text, s.pasteIsNewDocument, state.docName);
      s.pasteIsNewDocument = false;
      s.prepareFor(text.length, newDocument ? null : state.docName);
      if (!newDocument) {
        state.setDocument(text, { origin: 'editor' });
        return;
      }
      state.setDocument(text, { origin: 'editor', name: null, newDocument: true });
      state.followDocumentKind(null);
    });
    // The selection, for the lab's "Mark as answer" (offsets into the text the store holds).
    const selectionSub = editor.onDidChangeCursorSelection((e) => {
      const a = model.getOffsetAt(e.selection.getStartPosition());
      const b = model.getOffsetAt(e.selection.getEndPosition());
      const next = b > a ? { start: a, end: b } : null;
      const current = useStore.getState().editorSelection;
      if (next?.start !== current?.start || next?.end !== current?.end) useStore.getState().setEditorSelection(next);
    });
    const cursorSub = editor.onDidChangeCursorPosition((e) => {
      if (e.source === 'api' || e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
      const { result, select, selectedIndex } = useStore.getState();
      if (!result) return;
      const index = chunkAtOffset(result.starts, result.ends, model.getOffsetAt(e.position));
      if (index !== selectedIndex) select(index, 'editor');
    });
    return () => {
      for (const sub of [contentSub, selectionSub, cursorSub]) sub.dispose();
    };
  }, [session]);
}

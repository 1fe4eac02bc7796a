import { useEffect, type RefObject } from 'react';
import { useStore } from '../../state/store';
import type { EditorSession } from './editorSession';
import { pasteRefusal } from '../../import/sizeLimit';
import { documentAfterPaste, isLargePaste, replacesWholeDocument } from './editorModel';

/**
 * Pastes, caught before Monaco's handler (capture phase). A big paste switches to the cheap view before Monaco
 * inserts the text: Monaco's own paste of megabytes is an undoable edit that costs seconds, so a big paste instead
 * replaces the selection by building the new text once and setting it as the document, in a task after the paste's.
 * A paste over the whole text (or into an empty editor) is a document of its own: no name (not the sample's),
 * plain-text colouring, the person's own strategy, the previous document's notices gone.
 */
export function usePasteCapture(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, model, host } = s;
    const onPasteCapture = (event: ClipboardEvent) => {
      const pasted = event.clipboardData?.getData('text/plain') ?? '';
      const refusal = pasteRefusal(pasted.length);
      if (refusal) {
        event.preventDefault();
        event.stopPropagation();
        useStore.getState().setNotice(refusal);
        return;
      }
      const range = editor.getSelection();
      const before = range ? model.getOffsetAt(range.getStartPosition()) : 0;
      const after = range ? model.getOffsetAt(range.getEndPosition()) : model.getValueLength();
      const whole = replacesWholeDocument(model.getValue(), before, after);
      if (!isLargePaste(pasted)) {
        s.pasteIsNewDocument = whole;
        // Monaco applies the paste in this same event; the flag must not outlive it.
        setTimeout(() => (s.pasteIsNewDocument = false), 0);
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      // The new document in a task after the paste's: there, reading the clipboard, handing the text to the worker
      // and React's render (flushed before a discrete event's task ends) together made one long task now and then.
      const textPastedInto = useStore.getState().text; // the text `before` and `after` are offsets into
      setTimeout(() => {
        const state = useStore.getState();
        state.setDocument(documentAfterPaste(textPastedInto, pasted, before, after), whole ? { name: null } : {});
        if (whole) state.followDocumentKind(null);
      }, 0);
    };
    host.addEventListener('paste', onPasteCapture, true);
    return () => host.removeEventListener('paste', onPasteCapture, true);
  }, [session]);
}

import { useEffect, useRef, type RefObject } from 'react';
import { useStore } from '../../state/store';
import './summaryBand.css';
import { monaco } from './monaco';
import { takeEarlyInput, type EarlyInput } from './earlyInput';
import { useEditorSession, type EditorSession } from './editorSession';
import { useChunkDecorations } from './useChunkDecorations';
import { useLabMarks } from './useLabMarks';
import { useLlmMarks } from './useLlmMarks';
import { usePasteCapture } from './usePasteCapture';
import { useChunkedLoad } from './useChunkedLoad';
import { useEditorToStore } from './useEditorToStore';
import { useStoreSteps } from './useStoreSteps';
import { useDocumentScroll } from './useDocumentScroll';

monaco.editor.defineTheme('chunkscope', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editorLineNumber.foreground': '#a3a9b6',
    'editorLineNumber.activeForeground': '#4b5263',
    'editor.lineHighlightBackground': '#00000000',
    'editor.lineHighlightBorder': '#00000000',
    'editor.selectionBackground': '#b3d4fc',
    'editorHoverWidget.background': '#ffffff',
    'editorHoverWidget.border': '#d9dde5',
  },
});

/**
 * The document in Monaco with its chunks drawn over it, loaded after the first paint (ChunkEditor shows the
 * read-only first-paint view until `onReady`). Each hook has one job (see its file); they share the editor session
 * that useEditorSession creates and run in this order in one commit (the order matters: each adds the part the
 * later ones call, and useStoreSteps starts the first paint). useTakeOver comes last: it waits for the document to
 * be in, then takes over the first-paint view's scroll, caret and keys, and says so.
 */
export default function MonacoEditor({ hidden, onReady }: { hidden: boolean; onReady: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const session = useEditorSession(host);
  useChunkDecorations(session);
  useLabMarks(session);
  useLlmMarks(session);
  usePasteCapture(session);
  useChunkedLoad(session);
  useEditorToStore(session);
  useStoreSteps(session);
  useDocumentScroll(session);
  useTakeOver(session, hidden, onReady);
  return <div ref={host} className={hidden ? 'editor-monaco is-hidden' : 'editor-monaco'} />;
}

/** Once the document is in Monaco (a large one loads in pieces): the first-paint view's state, then `onReady`. */
function useTakeOver(session: RefObject<EditorSession | null>, hidden: boolean, onReady: () => void): void {
  const ready = useRef(onReady);
  ready.current = onReady;
  /** The focus goes to Monaco once it is shown (a hidden element cannot take it). */
  const focusWhenShown = useRef(false);
  useEffect(() => {
    if (!hidden && focusWhenShown.current) {
      focusWhenShown.current = false;
      session.current?.editor.focus();
    }
  }, [session, hidden]);
  useEffect(() => {
    const s = session.current!;
    let frame = 0;
    const wait = () => {
      if (s.loading) {
        frame = requestAnimationFrame(wait);
        return;
      }
      const viewHadFocus = document.activeElement?.closest('[data-testid="first-view"]') != null;
      focusWhenShown.current = takeOver(s, takeEarlyInput()) || viewHadFocus;
      // Monaco draws the scroll position and the marks in its next frame; the view goes after that one.
      frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => ready.current())));
    };
    wait();
    return () => cancelAnimationFrame(frame);
  }, [session]);
}

/**
 * The view's scroll position, selection and typed keys, in Monaco (keys through its own commands, as typed).
 * Returns whether the person was using the view (Monaco takes the focus when shown).
 */
function takeOver(s: EditorSession, early: EarlyInput): boolean {
  const { editor, model } = s;
  if (useStore.getState().text.length !== model.getValueLength()) return false; // the document changed meanwhile
  if (early.scroll) editor.setScrollTop(editor.getTopForLineNumber(early.scroll.line + 1) + early.scroll.within, monaco.editor.ScrollType.Immediate);
  if (early.selection) {
    const anchor = model.getPositionAt(early.selection.anchor);
    const end = model.getPositionAt(early.selection.focus);
    editor.setSelection(new monaco.Selection(anchor.lineNumber, anchor.column, end.lineNumber, end.column));
  }
  for (const key of early.keys) editor.trigger('keyboard', key.kind, key.kind === 'type' ? { text: key.text } : null);
  return early.keys.length > 0;
}

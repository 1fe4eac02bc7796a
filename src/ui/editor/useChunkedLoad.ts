import { useEffect, type RefObject } from 'react';
import { selectViewOnly } from '../../state/selectors';
import { useStore } from '../../state/store';
import type { EditorSession } from './editorSession';
import { fromEditorText, LARGE_DOCUMENT, loadMayStart, loadWaitMs, PieceLoad, startsWithBom, toEditorText } from './editorModel';
import { monaco } from './monaco';

/** How often the header's loading percentage moves while a large document enters Monaco. */
const LOAD_PROGRESS_MS = 150;

/**
 * Puts a document into Monaco. Up to LARGE_DOCUMENT characters in one go; above that a first piece replaces the
 * text and the rest is appended one piece per task (Monaco's cost grows with the number of lines, and a 10 MiB text
 * in one call blocks the page for seconds), each piece sized to take about LOAD_SLICE_MS (PieceLoad). The editor is
 * read-only meanwhile; a newer document cancels the load. A document the read-only view shows is not loaded at all.
 */
export function useChunkedLoad(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const state = { token: 0 };
    s.loader = {
      load: (text, name) => loadText(s, state, text, name),
      cancel: () => void state.token++,
    };
  }, [session]);
}

interface LoadState {
  /** Bumped by every load: a step of an older one stops. */
  token: number;
}

/** Sets the store's text into Monaco without it counting as an edit. */
function setText(s: EditorSession, text: string): void {
  s.applyingExternal = true;
  s.model.setValue(toEditorText(text));
  s.applyingExternal = false;
}

function clearMarks(s: EditorSession): void {
  s.chunks.clear();
  s.lab.clear();
}

/** Called once Monaco holds the whole text. Monaco normalizes mixed line endings: then the store follows it. */
function afterLoad(s: EditorSession, text: string): void {
  if (s.model.getValueLength() !== text.length) {
    useStore.getState().setDocument(fromEditorText(s.model.getValue(), startsWithBom(text)), { origin: 'editor' });
    useStore.getState().setNotice('Mixed line endings were normalized; chunks refer to the text as the editor shows it.');
    return;
  }
  s.chunks.paint();
  s.chunks.showSelection(false);
}

function stopLoading(s: EditorSession): void {
  if (s.loading) useStore.getState().setLoadProgress(null);
  s.loading = false;
}

function loadText(s: EditorSession, state: LoadState, text: string, name: string | null): void {
  const store = useStore.getState();
  if (selectViewOnly(store) && store.text === text) return showViewOnly(s, state);
  const token = ++state.token;
  if (text.length > LARGE_DOCUMENT) return loadInPieces(s, state, token, text, name);
  clearMarks(s);
  s.prepareFor(text.length, name);
  stopLoading(s);
  s.editor.updateOptions({ readOnly: false });
  const t0 = performance.now();
  s.applyingExternal = true;
  s.model.setValue(toEditorText(text));
  performance.measure('chunkscope:set-text', { start: t0, detail: { chars: text.length } });
  s.applyingExternal = false;
  afterLoad(s, text);
}

/**
 * A document over VIEW_ONLY_DOCUMENT: the read-only view shows it, and nothing goes into Monaco unless the person
 * asks to edit. Monaco is hidden (it cannot take focus; its changes are ignored meanwhile, see useEditorToStore) and
 * keeps its options: turning it read-only was a 55 ms task beside the worker. It lets go of the previous text, in a
 * task of its own, only when that was a large one (a small one costs nothing to keep).
 */
function showViewOnly(s: EditorSession, state: LoadState): void {
  const token = ++state.token;
  stopLoading(s);
  if (s.model.getValueLength() <= LARGE_DOCUMENT) return;
  setTimeout(() => {
    if (token !== state.token || s.model.isDisposed()) return;
    setText(s, '');
    clearMarks(s);
  }, 0);
}

/**
 * Monaco's work starts in a task of its own, after the one that changed the document (a paste also reads the
 * clipboard and starts handing the text to the worker): until then the previous text stays as it was drawn
 * (`loading` keeps results off it). Then one task empties the editor (marks and selection too), the next changes its
 * options; once the worker has chunked the text (or after loadWaitMs) the next sets the first piece, and each later
 * one appends a piece.
 */
function loadInPieces(s: EditorSession, state: LoadState, token: number, text: string, name: string | null): void {
  const { editor, model } = s;
  s.loading = true;
  useStore.getState().setLoadProgress(0);
  const t0 = performance.now();
  const load = new PieceLoad(text);
  let progressAt = 0;
  let paintedEarly = false;
  const stale = () => token !== state.token || model.isDisposed();
  const step = () => {
    if (stale()) return;
    const action = load.next();
    if (action.kind === 'empty') {
      // The previous text and its marks and selection go (a selection over it, select all then paste, would have had
      // Monaco measure every selected line). Read-only from here (alone this option is cheap): a key pressed before
      // the next task must not type. The options change in the next task (new options make Monaco measure the page
      // and lay its text out again: for the previous text that was a 40-50 ms frame); the two took 30-60 ms together
      // beside the worker. The editor is blank until the first piece.
      setText(s, '');
      clearMarks(s);
      editor.setSelection(new monaco.Selection(1, 1, 1, 1));
      editor.updateOptions({ readOnly: true });
      setTimeout(step, 0);
    } else if (action.kind === 'prepare') {
      s.prepareFor(text.length, name);
      // The pieces wait for the worker to chunk the text (loadWaitMs at most): side by side, both lost.
      waitForChunks(state, text, t0, () => setTimeout(step, 0));
    } else if (action.kind === 'piece') {
      const started = performance.now();
      appendPiece(s, text, action.from, action.to);
      const chars = action.to - action.from;
      // The chunks on the lines already in, once (the pieces usually start with the result here). Not where Monaco
      // normalized mixed line endings: the editor's offsets would no longer be the document's.
      const { result } = useStore.getState();
      if (!paintedEarly && result?.text === text && s.model.getValueLength() === action.to) paintedEarly = s.chunks.paintLoaded(result);
      // Each piece's time, for the browser bench (a piece over 50 ms is a long task).
      performance.measure('chunkscope:load-piece', { start: started, detail: { chars } });
      if (action.to < text.length) {
        // The header's percentage a few times a second: each update re-renders it.
        if (started - progressAt > LOAD_PROGRESS_MS) {
          progressAt = started;
          useStore.getState().setLoadProgress(load.fraction);
        }
        load.pieceTook(chars, performance.now() - started);
      }
      // The next piece, or the paint in a task of its own (after the last piece, the two together were a long task).
      setTimeout(step, 0);
    } else {
      stopLoading(s);
      editor.updateOptions({ readOnly: false });
      performance.measure('chunkscope:set-text', { start: t0, detail: { chars: text.length } });
      afterLoad(s, text);
    }
  };
  setTimeout(step, 0);
}

/** The first piece replaces the (emptied) text; every later one is appended at the end. */
function appendPiece(s: EditorSession, text: string, from: number, to: number): void {
  s.applyingExternal = true;
  if (from === 0) {
    s.model.setValue(toEditorText(text.slice(0, to)));
  } else {
    const end = s.model.getFullModelRange().getEndPosition();
    s.model.applyEdits([{ range: monaco.Range.fromPositions(end, end), text: text.slice(from, to) }]);
  }
  s.applyingExternal = false;
}

/** Calls `then` once `loadMayStart` (a store change or the wait's end); a newer load only ends the wait (its step
 * returns at once). */
function waitForChunks(state: LoadState, text: string, since: number, then: () => void): void {
  const token = state.token;
  const errorBefore = useStore.getState().error;
  const ready = () => loadMayStart(useStore.getState(), text, errorBefore, performance.now() - since);
  if (ready()) return then();
  const finish = () => {
    unsubscribeWait();
    clearTimeout(timer);
    then();
  };
  const unsubscribeWait = useStore.subscribe(() => {
    if (ready() || token !== state.token) finish();
  });
  const timer = setTimeout(finish, Math.max(0, loadWaitMs(text.length) - (performance.now() - since)));
}

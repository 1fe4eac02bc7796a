/**
 * Monaco's text-model append path, run once on a throwaway model in idle time after the page starts, so that V8
 * has compiled its line-counting loops (end-of-line counts, line starts, piece-tree inserts) with type feedback
 * for every branch before a large paste needs them. Without it the first pieces of a 10 MiB paste each paid two or
 * three deoptimizations of 6–16 ms (the loops were compiled in the middle of their first huge text, then thrown
 * away at a line-ending case or a return they had not yet seen), which made them long tasks.
 */
import { monaco } from './monaco';
import { MIN_APPEND_PIECE } from './editorModel';

/** Appends of a piece long enough for a buffer of its own, as a large load makes; then one short one. */
const APPENDS = 6;

/** A piece of text with every line ending Monaco counts (\n, \r\n, a lone \r) and a surrogate pair. */
function warmUpPiece(): string {
  const line = 'Warm-up line for the editor, with a pair 😀 and no meaning.\n';
  return line.repeat(Math.ceil(MIN_APPEND_PIECE / line.length)) + 'crlf\r\nlone cr\rend';
}

/**
 * Starts the warm-up: one append per idle period (each takes a few ms), then the model is disposed. Returns a
 * function that stops it (the editor unmounted). Runs to its end at most once per page.
 */
let started = false;
export function warmUpTextModelWhenIdle(): () => void {
  if (started) return () => undefined;
  started = true;
  const whenIdle = (run: () => void): (() => void) => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(run, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(run, 200);
    return () => clearTimeout(id);
  };
  const piece = warmUpPiece();
  let model: monaco.editor.ITextModel | null = null;
  let done = 0;
  let finished = false;
  let cancel = () => undefined as void;
  const step = () => {
    model ??= monaco.editor.createModel('', 'plaintext');
    const end = model.getFullModelRange().getEndPosition();
    const text = done < APPENDS ? piece : piece.slice(0, 1000);
    model.applyEdits([{ range: monaco.Range.fromPositions(end, end), text }]);
    done++;
    if (done <= APPENDS) {
      cancel = whenIdle(step);
      return;
    }
    model.setValue(piece);
    model.dispose();
    model = null;
    finished = true;
  };
  cancel = whenIdle(step);
  return () => {
    cancel();
    model?.dispose();
    model = null;
    // Stopped before the end (an editor unmounted early): the next editor runs it.
    if (!finished) started = false;
  };
}

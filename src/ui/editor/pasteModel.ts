import { chunksAt } from '../../state/selectors';

/**
 * What the first view (LargeDocumentView.tsx) shares with the editor: the chunk under a click, what a paste turns the
 * document into. A module of its own so that the first screen does not import editorModel.ts (the editor's hover,
 * paint plan and load pacing, with decorations.ts), which then loads with Monaco, off the first paint's path.
 */

/** Whether replacing [before, after) of `text` leaves none of its non-whitespace: the paste is a new document. */
export function replacesWholeDocument(text: string, before: number, after: number): boolean {
  return text.slice(0, before).trim() === '' && text.slice(after).trim() === '';
}

/** The document after pasting `pasted` over [before, after) of `current` (a paste over everything is the paste). */
export function documentAfterPaste(current: string, pasted: string, before: number, after: number): string {
  return before === 0 && after >= current.length ? pasted : current.slice(0, before) + pasted + current.slice(after);
}

/** The innermost (last starting) chunk at an offset, or null outside every chunk. */
export function chunkAtOffset(starts: Int32Array, ends: Int32Array, offset: number): number | null {
  const found = chunksAt(starts, ends, offset);
  return found.length ? found[found.length - 1]! : null;
}

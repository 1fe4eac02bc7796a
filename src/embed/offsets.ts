import type { Range } from '../core/types';

/**
 * transformers.js tokenizers return token strings, not offsets. We recover UTF-16 offsets by finding each token,
 * in order, in the source text, comparing both sides "folded" the way the uncased tokenizers normalize: lowercase,
 * accents removed (NFD without combining marks). Token markers are stripped first: WordPiece's `##` continuation
 * prefix, SentencePiece's `▁` and byte-level BPE's `Ġ` word-start markers.
 *
 * A token that cannot be found (an `[UNK]` token standing for a whole word, a byte-level piece of a non-ASCII
 * character) takes the text between the previous token's end (after whitespace) and the next found token's start;
 * several unfound tokens in a row share that gap (trimmed): the first gets it all, the rest are empty ranges at its end. The
 * ranges are therefore in order, never overlap, and lie inside the text.
 */
export function tokenOffsets(text: string, tokens: readonly string[]): Range[] {
  const folded = foldWithMap(text);
  const out: Range[] = [];
  let cursor = 0; // in folded units
  let pending = 0; // tokens not found since the last found one
  const flushPending = (gapEnd: number) => {
    if (pending === 0) return;
    let start = folded.toSource[cursor] ?? text.length;
    while (start < gapEnd && /\s/.test(text[start]!)) start++;
    let end = Math.max(start, gapEnd);
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    for (let k = 0; k < pending; k++) out.push(k === 0 ? { start, end } : { start: end, end });
    pending = 0;
  };
  for (const token of tokens) {
    const needle = fold(stripMarkers(token));
    const at = needle === '' ? -1 : folded.text.indexOf(needle, cursor);
    // Accept a match only if it does not skip over a long stretch of non-space text: else the token is probably
    // something the text does not contain literally ([UNK]) and the match is a later, unrelated occurrence.
    if (at < 0 || (pending === 0 && skipsWord(folded.text, cursor, at))) {
      pending++;
      continue;
    }
    const start = folded.toSource[at]!;
    flushPending(start);
    const endFolded = at + needle.length;
    const end = folded.toSource[endFolded] ?? text.length;
    out.push({ start, end });
    cursor = endFolded;
  }
  flushPending(textEndAfter(text, folded, cursor));
  return out;
}

/** Pending unknown tokens at the very end take the rest of the current word. */
function textEndAfter(text: string, folded: Folded, cursor: number): number {
  let p = folded.toSource[cursor] ?? text.length;
  while (p < text.length && /\s/.test(text[p]!)) p++;
  while (p < text.length && !/\s/.test(text[p]!)) p++;
  return p;
}

function skipsWord(folded: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!/\s/.test(folded[i]!)) return true;
  return false;
}

function stripMarkers(token: string): string {
  if (token.startsWith('##') && token.length > 2) return token.slice(2);
  return token.replace(/^[▁Ġ]+/, '');
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

interface Folded {
  text: string;
  /** toSource[i]: the source offset where folded unit i comes from; toSource[text.length] = source length. */
  toSource: Int32Array;
}

/** The folded text with a map back to source offsets (ASCII on a fast path). */
function foldWithMap(text: string): Folded {
  const parts: string[] = [];
  const map: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      parts.push(c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i]!);
      map.push(i);
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const f = fold(text.slice(i, i + width));
    parts.push(f);
    for (let k = 0; k < f.length; k++) map.push(i);
    i += width;
  }
  map.push(text.length);
  return { text: parts.join(''), toSource: Int32Array.from(map) };
}

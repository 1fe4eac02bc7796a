import type { Reference } from './types';

/**
 * Where a reference stands in its document: `ok` (the text at its offsets is its content), `converted` (its offsets
 * were Python code points, as Chroma's are; converted to UTF-16), `moved` (the content is elsewhere: found again by
 * exact search, the occurrence nearest the old offsets), `missing` (the content is nowhere in the document: flagged,
 * left out of the measures). A reference is never silently shifted: each one's status says what happened.
 */
export type AnchorStatus = 'ok' | 'converted' | 'moved' | 'missing';

export interface AnchoredReference {
  status: AnchorStatus;
  /** The reference as given. */
  given: Reference;
  /** Where it is now (null when missing). */
  reference: Reference | null;
}

/** UTF-16 offset of code point `cp` of `text` (text.length when past the end). */
function codePointToUtf16(text: string, cp: number): number {
  let i = 0;
  let n = 0;
  while (i < text.length && n < cp) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
    n++;
  }
  return i;
}

function hasAstral(text: string): boolean {
  return /[\ud800-\udbff][\udc00-\udfff]/.test(text);
}

/** The occurrence of `content` in `text` nearest `near` (start offset), or -1. */
export function nearestOccurrence(text: string, content: string, near: number): number {
  if (content === '') return -1;
  let best = -1;
  for (let at = text.indexOf(content); at >= 0; at = text.indexOf(content, at + 1)) {
    if (best < 0 || Math.abs(at - near) < Math.abs(best - near)) best = at;
    if (at > near) break; // later ones are farther
  }
  return best;
}

/** Re-anchor one reference in `text`. */
export function anchorReference(text: string, given: Reference): AnchoredReference {
  if (given.end <= text.length && text.slice(given.start, given.end) === given.content) return { status: 'ok', given, reference: given };
  if (hasAstral(text)) {
    const start = codePointToUtf16(text, given.start);
    const end = codePointToUtf16(text, given.end);
    if (text.slice(start, end) === given.content) return { status: 'converted', given, reference: { start, end, content: given.content } };
  }
  const at = nearestOccurrence(text, given.content, given.start);
  if (at >= 0) return { status: 'moved', given, reference: { start: at, end: at + given.content.length, content: given.content } };
  return { status: 'missing', given, reference: null };
}

export function anchorReferences(text: string, references: readonly Reference[]): AnchoredReference[] {
  return references.map((r) => anchorReference(text, r));
}

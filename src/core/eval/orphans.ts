import { documentCache } from '../documentCache';
import { sentences } from '../segment/sentences';
import { sortedIncludes } from '../sorted';

/**
 * Orphan chunks: a chunk that starts or ends in the middle of a sentence (Intl.Segmenter sentences of the whole
 * document, trimmed), and a chunk that is only a heading (markdown ATX or setext heading lines, HTML h1–h6, or a
 * text equal to the last title of its heading path). Pure: the page's stats and list can flag them.
 */
export interface OrphanFlags {
  index: number;
  startsMidSentence: boolean;
  endsMidSentence: boolean;
  headingOnly: boolean;
}

const ATX = /^ {0,3}#{1,6}(\s|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)\s*$/;
const HTML_HEADING = /^\s*<h[1-6][\s>][\s\S]*<\/h[1-6]>\s*$/i;
/** A setext heading ends in an underline line: only then is the text split into lines. */
const ENDS_IN_UNDERLINE = /\n {0,3}(=+|-+)\s*$/;

/** What flagging reads of a chunk (a Chunk, or a painted leaf rebuilt from offsets). */
export interface FlaggedSpan {
  start: number;
  end: number;
  text: string;
  metadata: { headingPath?: readonly string[] };
}

export function isHeadingOnly(chunk: Pick<FlaggedSpan, 'text' | 'metadata'>): boolean {
  const text = chunk.text.trim();
  if (text === '') return false;
  const path = chunk.metadata.headingPath;
  if (Array.isArray(path) && path.length > 0 && text === path[path.length - 1]) return true;
  // Cheap tests first: a slider move flags every chunk of the document, most of them prose.
  const first = text[0];
  if (first === '#') {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    if (lines.every((l) => ATX.test(l))) return true;
  }
  if (ENDS_IN_UNDERLINE.test(text)) {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    if (lines.length === 2 && SETEXT_UNDERLINE.test(lines[1]!) && !ATX.test(lines[0]!)) return true;
  }
  return first === '<' && HTML_HEADING.test(text);
}

/** Bits of orphanBits: a chunk starting mid-sentence, ending mid-sentence, holding only a heading. */
export const ORPHAN_STARTS_MID = 1;
export const ORPHAN_ENDS_MID = 2;
export const ORPHAN_HEADING = 4;

interface SentenceEdges {
  /** Trimmed sentence starts and ends, ascending. */
  starts: Int32Array;
  ends: Int32Array;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

const edgesKey = (locale: string) => `orphans:sentence-edges:${locale}`;

/**
 * Whether orphanBits on `text` is cheap now: its sentence edges are in the document cache. (Segmenting a new
 * document into sentences is most of orphanBits: 0.7 s for 10 MiB in the page's worker.)
 */
export function orphanEdgesKnown(text: string, locale = 'en'): boolean {
  return documentCache.get<SentenceEdges>(text, edgesKey(locale)) !== undefined;
}

/** The document's trimmed sentence edges, segmented once per (document, locale) and kept in core's document cache. */
function sentenceEdges(text: string, locale: string): SentenceEdges {
  const key = edgesKey(locale);
  const known = documentCache.get<SentenceEdges>(text, key);
  if (known) return known;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const s of sentences(text, 0, text.length, locale)) {
    let a = s.start;
    let b = s.end;
    while (a < b && isSpace(text[a])) a++;
    while (b > a && isSpace(text[b - 1])) b--;
    if (b > a) (starts.push(a), ends.push(b));
  }
  const edges = { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
  return documentCache.set(text, key, edges, (starts.length + ends.length) * 4);
}

/** orphanChunks as one bit set per chunk (ORPHAN_*), for the page's stats and list. */
export function orphanBits(text: string, chunks: readonly FlaggedSpan[], locale = 'en'): Uint8Array {
  const { starts, ends } = sentenceEdges(text, locale);
  const bits = new Uint8Array(chunks.length);
  chunks.forEach((c, i) => {
    let a = c.start;
    let b = c.end;
    while (a < b && isSpace(text[a])) a++;
    while (b > a && isSpace(text[b - 1])) b--;
    if (b > a && !sortedIncludes(starts, a)) bits[i]! |= ORPHAN_STARTS_MID;
    if (b > a && !sortedIncludes(ends, b)) bits[i]! |= ORPHAN_ENDS_MID;
    if (isHeadingOnly(c)) bits[i]! |= ORPHAN_HEADING;
  });
  return bits;
}

export function orphanChunks(text: string, chunks: readonly (FlaggedSpan & { index: number })[], locale = 'en'): OrphanFlags[] {
  const bits = orphanBits(text, chunks, locale);
  return chunks.map((c, i) => ({
    index: c.index,
    startsMidSentence: (bits[i]! & ORPHAN_STARTS_MID) !== 0,
    endsMidSentence: (bits[i]! & ORPHAN_ENDS_MID) !== 0,
    headingOnly: (bits[i]! & ORPHAN_HEADING) !== 0,
  }));
}

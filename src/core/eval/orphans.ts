import { sentences } from '../segment/sentences';
import type { Chunk } from '../types';

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

export function isHeadingOnly(chunk: Pick<Chunk, 'text' | 'metadata'>): boolean {
  const text = chunk.text.trim();
  if (text === '') return false;
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.every((l) => ATX.test(l))) return true;
  if (lines.length === 2 && SETEXT_UNDERLINE.test(lines[1]!) && !ATX.test(lines[0]!)) return true;
  if (HTML_HEADING.test(text)) return true;
  const path = chunk.metadata.headingPath;
  return Array.isArray(path) && path.length > 0 && text === path[path.length - 1];
}

export function orphanChunks(text: string, chunks: readonly Pick<Chunk, 'index' | 'start' | 'end' | 'text' | 'metadata'>[], locale = 'en'): OrphanFlags[] {
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const s of sentences(text, 0, text.length, locale)) {
    let a = s.start;
    let b = s.end;
    while (a < b && /\s/.test(text[a]!)) a++;
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    if (b > a) (starts.add(a), ends.add(b));
  }
  return chunks.map((c) => {
    let a = c.start;
    let b = c.end;
    while (a < b && /\s/.test(text[a]!)) a++;
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    return { index: c.index, startsMidSentence: b > a && !starts.has(a), endsMidSentence: b > a && !ends.has(b), headingOnly: isHeadingOnly(c) };
  });
}

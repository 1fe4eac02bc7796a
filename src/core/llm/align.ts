/**
 * Where in the source a proposition comes from. Three tries, cheapest first:
 * 1. verbatim: the proposition is a substring of its passage (else of the whole document) → `exact`, score 1;
 * 2. normalised: equal to a passage substring once whitespace runs are one space and case is folded → `exact`
 *    (the same words), `match: 'normalized'`, score 1;
 * 3. token overlap: the shortest passage window holding the most of the proposition's content words; its score is
 *    the share of those words found there → `fuzzy` when at least FUZZY_THRESHOLD, else `unsupported` (no span).
 * Spans are UTF-16 offsets into the source; a span's text is source.slice(start, end).
 */
import type { Range } from '../types';

export type SupportStatus = 'exact' | 'fuzzy' | 'unsupported';

export interface Alignment {
  status: SupportStatus;
  match: 'verbatim' | 'normalized' | 'tokens' | 'none';
  /** 1 for exact; the share of the proposition's content words inside the span for fuzzy; the best share found for unsupported. */
  score: number;
  support: Range[];
}

/** The least share of a proposition's content words a window must hold to count as its (fuzzy) support. */
export const FUZZY_THRESHOLD = 0.6;

export function alignProposition(source: string, proposition: string, passage: Range): Alignment {
  const needle = proposition.trim();
  if (needle === '') return { status: 'unsupported', match: 'none', score: 0, support: [] };
  const inPassage = source.slice(passage.start, passage.end);
  let at = inPassage.indexOf(needle);
  if (at >= 0) return exact('verbatim', passage.start + at, needle.length);
  at = source.indexOf(needle);
  if (at >= 0) return exact('verbatim', at, needle.length);
  const normalized = normalizedFind(inPassage, needle);
  if (normalized) return exact('normalized', passage.start + normalized.start, normalized.end - normalized.start);
  return tokenWindow(source, needle, passage);
}

function exact(match: 'verbatim' | 'normalized', start: number, length: number): Alignment {
  return { status: 'exact', match, score: 1, support: [{ start, end: start + length }] };
}

/** `needle` in `hay` with whitespace runs as one space and case folded; the span in `hay`'s offsets. */
function normalizedFind(hay: string, needle: string): Range | null {
  const { text, offsets } = normalize(hay);
  const target = normalize(needle).text.trim();
  if (target === '') return null;
  const at = text.indexOf(target);
  if (at < 0) return null;
  return { start: offsets[at]!, end: offsets[at + target.length - 1]! + 1 };
}

/** Lower-cased text with each whitespace run as one space, and for each of its characters the offset it came from. */
function normalize(text: string): { text: string; offsets: number[] } {
  let out = '';
  const offsets: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (!inSpace) {
        out += ' ';
        offsets.push(i);
      }
      inSpace = true;
    } else {
      // toLowerCase of one code unit keeps the length for the scripts this matters for; a longer result is cut.
      out += c.toLowerCase()[0];
      offsets.push(i);
      inSpace = false;
    }
  }
  return { text: out, offsets };
}

const WORD = /[\p{L}\p{N}]+/gu;
const STOP = new Set(['the', 'and', 'for', 'are', 'was', 'were', 'that', 'this', 'with', 'its', 'has', 'have', 'had', 'not', 'but', 'from', 'which', 'who', 'his', 'her', 'their', 'they', 'been', 'also', 'all']);

/** Content words: lower-cased, three characters or more (or a number), not a stop word. */
function contentWords(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0].toLowerCase();
    if ((word.length >= 3 || /^\p{N}+$/u.test(word)) && !STOP.has(word)) out.push({ word, start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

function tokenWindow(source: string, proposition: string, passage: Range): Alignment {
  const wanted = new Set(contentWords(proposition).map((w) => w.word));
  if (wanted.size === 0) return { status: 'unsupported', match: 'none', score: 0, support: [] };
  const words = contentWords(source.slice(passage.start, passage.end));
  // Windows of at most twice the proposition's words (a paraphrase may spread them, not over a whole passage).
  const reach = Math.max(4, 2 * wanted.size);
  let best = { found: 0, from: -1, to: -1 };
  for (let i = 0; i < words.length; i++) {
    if (!wanted.has(words[i]!.word)) continue;
    const seen = new Set<string>();
    for (let j = i; j < Math.min(words.length, i + reach); j++) {
      const w = words[j]!.word;
      if (!wanted.has(w) || seen.has(w)) continue;
      seen.add(w);
      const shorter = seen.size === best.found && j - i < best.to - best.from;
      if (seen.size > best.found || shorter) best = { found: seen.size, from: i, to: j };
    }
  }
  const score = best.found / wanted.size;
  if (best.from < 0 || score < FUZZY_THRESHOLD) return { status: 'unsupported', match: 'none', score, support: [] };
  const start = passage.start + words[best.from]!.start;
  const end = passage.start + words[best.to]!.end;
  return { status: 'fuzzy', match: 'tokens', score, support: [{ start, end }] };
}

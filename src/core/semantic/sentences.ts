import { isWhitespaceCode } from '../measure';
import { sentences as intlSentences } from '../segment/sentences';
import type { Range } from '../types';

/**
 * Sentences for the semantic splitter, as ranges of the source, in order. Three shapes, one per mode:
 *
 * - 'trimmed' (native): Intl.Segmenter sentences (any language) without the whitespace around them; whitespace-only
 *   segments are dropped, so every sentence has text to embed.
 * - 'langchain': LangChain SemanticChunker's re.split(r"(?<=[.?!])\s+", text): the pieces between runs of
 *   whitespace that follow . ? or !. Kept exactly as Python returns them, including an empty piece after trailing
 *   whitespace and the single piece "" of an empty text. `\s` is Python's (str.isspace), not JavaScript's.
 * - 'contiguous' (LlamaIndex): sentences that tile the text from its first non-whitespace character to its end,
 *   each keeping the whitespace after it (LlamaIndex's split_by_sentence_tokenizer shape: a sentence runs to the
 *   start of the next). LlamaIndex finds them with NLTK Punkt, we with Intl.Segmenter: the two can disagree on
 *   abbreviations, so compatibility holds given the same sentences. A blank text has no sentences.
 */
export type SentenceShape = 'trimmed' | 'langchain' | 'contiguous';

export interface SentenceOptions {
  shape: SentenceShape;
  /** Intl.Segmenter locale (default 'en'); unused by 'langchain'. */
  locale?: string;
  /** 'trimmed' only: use the LangChain regex instead of Intl.Segmenter to find the sentences. */
  regex?: boolean;
}

export function semanticSentences(source: string, options: SentenceOptions): Range[] {
  const locale = options.locale ?? 'en';
  switch (options.shape) {
    case 'langchain':
      return langchainSentences(source);
    case 'contiguous':
      return contiguous(source, intlSentences(source, 0, source.length, locale));
    case 'trimmed': {
      const pieces = options.regex ? langchainSentences(source) : intlSentences(source, 0, source.length, locale);
      return trimmed(source, pieces);
    }
  }
}

/** Python's str.isspace() on one UTF-16 unit (what `\s` matches in a Python str pattern). */
function isPythonSpace(c: number): boolean {
  if (c === 0xfeff) return false; // JavaScript's \s has the BOM, Python's does not
  return isWhitespaceCode(c) || (c >= 0x1c && c <= 0x1f) || c === 0x85;
}

/** re.split(r"(?<=[.?!])\s+", source) as ranges: a run of whitespace right after . ? ! separates two pieces. */
export function langchainSentences(source: string): Range[] {
  const out: Range[] = [];
  const n = source.length;
  let pieceStart = 0;
  let i = 1;
  while (i < n) {
    const prev = source.charCodeAt(i - 1);
    if ((prev === 0x2e || prev === 0x3f || prev === 0x21) && isPythonSpace(source.charCodeAt(i))) {
      let j = i + 1;
      while (j < n && isPythonSpace(source.charCodeAt(j))) j++;
      out.push({ start: pieceStart, end: i });
      pieceStart = j;
      i = j + 1;
      continue;
    }
    i++;
  }
  out.push({ start: pieceStart, end: n });
  return out;
}

function trimmed(source: string, pieces: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const { start, end } of pieces) {
    let s = start;
    let e = end;
    while (s < e && isWhitespaceCode(source.charCodeAt(s))) s++;
    while (e > s && isWhitespaceCode(source.charCodeAt(e - 1))) e--;
    if (s < e) out.push({ start: s, end: e });
  }
  return out;
}

/** Tile [first non-whitespace, end) with the sentence starts of the trimmed sentences. */
function contiguous(source: string, pieces: readonly Range[]): Range[] {
  const starts = trimmed(source, pieces).map((r) => r.start);
  return starts.map((start, k) => ({ start, end: k + 1 < starts.length ? starts[k + 1]! : source.length }));
}

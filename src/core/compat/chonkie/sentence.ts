import type { ChunkContext } from '../../types';
import { RunControl } from '../langchain/run';
import type { ReferenceChunk } from './spans';
import { chonkieTokenizer } from './tokenizer';

/** SentenceChunker's defaults (@chonkiejs/core 0.0.11). */
export const CHONKIE_SENTENCE_SIZE = 2048;
export const CHONKIE_SENTENCE_OVERLAP = 0;
export const CHONKIE_SENTENCE_DELIMITERS = ['. ', '! ', '? ', '\n'];
const MIN_SENTENCES_PER_CHUNK = 1;
const MIN_CHARACTERS_PER_SENTENCE = 12;

/**
 * @chonkiejs/core's SentenceChunker with its defaults, restated. Sentences end after each ". ", "! ", "? " or "\n"
 * (found with indexOf, so offsets are exact; overlapping matches are dropped); a sentence shorter than 12
 * characters is joined with the next one (the last one with the previous). Sentences are packed while the summed
 * token counts stay within the size; overlap walks back over whole sentences while their summed counts stay within
 * it, always taking at least the last one, and is dropped when it would not move the start forward.
 *
 * QUIRK (reproduced): a sentence longer than the size is kept whole, as one oversize chunk (flagged `oversize`).
 * Chunks are not trimmed; their texts are exact source ranges.
 */
export function sentenceReference(text: string, ctx: ChunkContext): ReferenceChunk[] {
  const { size, overlap } = ctx.options;
  if (size <= 0) throw new Error('chunkSize must be greater than 0');
  if (overlap < 0) throw new Error('chunkOverlap must be non-negative');
  if (overlap >= size) throw new Error('chunkOverlap must be less than chunkSize');
  if (!text || !text.trim()) return [];
  const tokenizer = chonkieTokenizer(ctx.unit);
  const run = new RunControl(ctx, text.length);
  const sentences = sentenceOffsets(text).map(([start, end]) => ({ start, end, tokens: tokenizer.countTokens(text.slice(start, end)) }));
  const out: ReferenceChunk[] = [];
  let pos = 0;
  while (pos < sentences.length) {
    let current = 0;
    let split = pos;
    while (split < sentences.length) {
      const next = current + sentences[split]!.tokens;
      if (next > size && split - pos + 1 > MIN_SENTENCES_PER_CHUNK) break;
      current = next;
      split++;
    }
    if (split - pos < MIN_SENTENCES_PER_CHUNK) split = pos + MIN_SENTENCES_PER_CHUNK <= sentences.length ? pos + MIN_SENTENCES_PER_CHUNK : sentences.length;
    const first = sentences[pos]!;
    const last = sentences[split - 1]!;
    const chunkText = text.slice(first.start, last.end);
    out.push({ text: chunkText, startIndex: first.start, endIndex: last.end, tokenCount: tokenizer.countTokens(chunkText), origin: { start: first.start, end: last.end } });
    run.step(last.end);
    if (overlap > 0 && split < sentences.length) {
      let overlapTokens = 0;
      let back = split - 1;
      while (back >= pos) {
        const next = overlapTokens + sentences[back]!.tokens;
        if (next > overlap && overlapTokens > 0) break;
        overlapTokens = next;
        back--;
      }
      pos = back + 1 > pos ? back + 1 : split;
    } else {
      pos = split;
    }
  }
  run.finish();
  return out;
}

/** The package's splitByPatternsOffsets and mergeShortOffsets for the default delimiters ("prev": kept at the end). */
function sentenceOffsets(text: string): [number, number][] {
  const found: { index: number; length: number }[] = [];
  for (const d of CHONKIE_SENTENCE_DELIMITERS) {
    for (let at = text.indexOf(d); at !== -1; at = text.indexOf(d, at + d.length)) found.push({ index: at, length: d.length });
  }
  if (found.length === 0) return text.length > 0 ? [[0, text.length]] : [];
  found.sort((a, b) => a.index - b.index);
  const kept = [found[0]!];
  for (let i = 1; i < found.length; i++) {
    const prev = kept[kept.length - 1]!;
    if (found[i]!.index >= prev.index + prev.length) kept.push(found[i]!);
  }
  const offsets: [number, number][] = [];
  let cursor = 0;
  for (const d of kept) {
    const end = d.index + d.length;
    if (end > cursor) offsets.push([cursor, end]);
    cursor = end;
  }
  if (cursor < text.length) offsets.push([cursor, text.length]);
  return mergeShort(offsets);
}

function mergeShort(offsets: [number, number][]): [number, number][] {
  if (offsets.length <= 1) return offsets;
  const result: [number, number][] = [];
  let currentStart = offsets[0]![0];
  for (let i = 0; i < offsets.length; i++) {
    const e = offsets[i]![1];
    const isLast = i === offsets.length - 1;
    if (e - currentStart < MIN_CHARACTERS_PER_SENTENCE && !isLast) continue;
    if (isLast && e - currentStart < MIN_CHARACTERS_PER_SENTENCE && result.length > 0) {
      result[result.length - 1] = [result[result.length - 1]![0], e];
    } else {
      result.push([currentStart, e]);
      if (!isLast) currentStart = offsets[i + 1]![0];
    }
  }
  return result;
}

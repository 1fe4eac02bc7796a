/**
 * LLM-drawn boundaries (agentic chunking, as LumberChunker does it): the text is pre-split into numbered pieces
 * (sentences or paragraphs); the model answers the ids where a new topic starts. Ids are never trusted: those out
 * of range, repeated or not increasing are dropped and counted (`repairBoundaryIds`). Chunks are exact source
 * slices, trimmed of surrounding whitespace, never over the size option: an oversized group is re-split by the
 * recursive splitter through the engine's own chunk().
 */
import { chunk as engineChunk } from '../../../chunk';
import { paragraphs } from '../../../segment/paragraphs';
import { sentences } from '../../../segment/sentences';
import type { Chunk, Range } from '../../../types';
import { answerOf, hashString, type FeatureDescriptor, type FeatureFailure, type FeatureInput, type FeatureRequest } from '../../feature';
import { objectSchema, readNumbers } from '../../read';
import { templateFor } from '../../templates';

const SCHEMA = objectSchema('boundaries', { type: 'array', items: { type: 'integer' } });
/** Characters of numbered pieces one request holds by default. */
const WINDOW_CHARS = 16_000;

/** Contiguous pieces covering [0, source.length): each piece runs to the next one's start. */
export function candidatePieces(source: string, kind: 'sentences' | 'paragraphs', locale: string): Range[] {
  const found = kind === 'paragraphs' ? paragraphs(source, 0, source.length) : sentences(source, 0, source.length, locale);
  const starts = [0, ...found.map((r) => r.start).filter((s) => s > 0 && s < source.length)];
  const unique = [...new Set(starts)].sort((a, b) => a - b);
  return unique.map((start, i) => ({ start, end: unique[i + 1] ?? source.length }));
}

/** Windows of consecutive piece indices [from, to), each at most `chars` characters (and at least one piece). */
export function pieceWindows(pieces: readonly Range[], chars: number): { from: number; to: number }[] {
  const windows: { from: number; to: number }[] = [];
  let from = 0;
  while (from < pieces.length) {
    let to = from + 1;
    while (to < pieces.length && pieces[to]!.end - pieces[from]!.start <= chars) to++;
    windows.push({ from, to });
    from = to;
  }
  return windows;
}

/**
 * The model's ids as cuts in (from, to): whole numbers only, in range, each greater than the one before; every id
 * dropped is counted. The window's first piece always starts a chunk (it is not a cut the model draws).
 */
export function repairBoundaryIds(ids: readonly unknown[], from: number, to: number): { cuts: number[]; repaired: number } {
  const cuts: number[] = [];
  let repaired = 0;
  for (const id of ids) {
    const n = typeof id === 'string' && /^\s*\d+\s*$/.test(id) ? Number(id) : id;
    const last = cuts.length > 0 ? cuts[cuts.length - 1]! : from;
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= from || n >= to || n <= last) repaired++;
    else cuts.push(n);
  }
  return { cuts, repaired };
}

function windowsOf(input: FeatureInput) {
  const pieces = candidatePieces(input.source, input.settings.pieces ?? 'sentences', input.options.locale ?? 'en');
  return { pieces, windows: pieceWindows(pieces, input.settings.contextBudget ?? WINDOW_CHARS) };
}

function requests(input: FeatureInput): FeatureRequest[] {
  if (input.source.trim() === '') return [];
  const template = templateFor('boundaries', input.templates);
  const { pieces, windows } = windowsOf(input);
  return windows
    .filter((w) => w.to - w.from > 1) // one piece: nothing to ask
    .map((w) => ({
      id: `${w.from}-${w.to}`,
      template,
      values: { pieces: pieces.slice(w.from, w.to).map((p, i) => `[${w.from + i}] ${input.source.slice(p.start, p.end).trim()}`).join('\n') },
      schema: SCHEMA,
      expectedOutputTokens: Math.max(16, (w.to - w.from) * 2),
      read: (json) => readNumbers(json, 'boundaries'),
    }));
}

/** Trimmed slice [start, end) of the source (null when only whitespace). */
function trimmed(source: string, start: number, end: number): Range | null {
  while (start < end && /\s/.test(source[start]!)) start++;
  while (end > start && /\s/.test(source[end - 1]!)) end--;
  return start < end ? { start, end } : null;
}

export const boundaries = {
  name: 'boundaries',
  label: 'LLM-drawn boundaries',
  help: 'the model says where new topics start among numbered sentences; chunks are exact source slices within the size',
  usesBaseChunks: false,
  requests,
  async build(input, answers) {
    const failures: FeatureFailure[] = [];
    let repairedIds = 0;
    const { pieces, windows } = windowsOf(input);
    const starts: number[] = [];
    for (const w of windows) {
      starts.push(w.from);
      if (w.to - w.from <= 1) continue;
      const id = `${w.from}-${w.to}`;
      const ids = answerOf<unknown[]>(answers, id, failures, { start: pieces[w.from]!.start, end: pieces[w.to - 1]!.end });
      if (!ids) continue; // the window stays one group, cut by size only
      const { cuts, repaired } = repairBoundaryIds(ids, w.from, w.to);
      if (repaired > 0) failures.push({ request: id, kind: 'repaired-ids', reason: `${repaired} boundary id(s) out of range, repeated or not increasing: dropped` });
      repairedIds += repaired;
      starts.push(...cuts);
    }
    const spans: (Range & { resplit?: boolean })[] = [];
    for (let g = 0; g < starts.length; g++) {
      const group = trimmed(input.source, pieces[starts[g]!]!.start, g + 1 < starts.length ? pieces[starts[g + 1]!]!.start : input.source.length);
      if (!group) continue;
      if (input.unit.count(input.source.slice(group.start, group.end)) <= input.options.size) spans.push(group);
      else spans.push(...(await resplit(input, group)));
    }
    const documentId = input.options.documentId ?? hashString(input.source);
    const chunks: Chunk[] = spans.map((span, index) => {
      const text = input.source.slice(span.start, span.end);
      const size = input.unit.count(text);
      return {
        index,
        start: span.start,
        end: span.end,
        text,
        content: text,
        size,
        id: `llmb-${hashString(`${documentId}\u0000${span.start}\u0000${span.end}`)}`,
        metadata: {
          strategy: input.options.strategy,
          compat: input.options.compat,
          unit: input.options.unit,
          documentId,
          position: index,
          kind: 'llm-boundaries',
          ...(span.resplit ? { resplit: true } : {}),
          ...(size > input.options.size ? { oversize: true } : {}),
        },
      };
    });
    return { chunks, failures, counts: { repairedIds, groups: starts.length, chunks: chunks.length } };
  },
} as const satisfies FeatureDescriptor<'boundaries'>;

/** A group over the size, cut by the recursive splitter (the engine's own, same unit and size, no overlap). */
async function resplit(input: FeatureInput, group: Range): Promise<(Range & { resplit: true })[]> {
  const slice = input.source.slice(group.start, group.end);
  const parts = await engineChunk(slice, { strategy: 'recursive', size: input.options.size, overlap: 0, unit: input.options.unit });
  return parts.map((p) => ({ start: group.start + p.start, end: group.start + p.end, resplit: true }));
}

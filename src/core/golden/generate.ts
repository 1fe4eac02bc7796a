/**
 * Generated golden sets: for each sampled chunk of each document the LLM proposes a question and the exact excerpt
 * of the chunk that answers it; the excerpt is aligned to a source span with the LLM layer's alignment
 * (core/llm/align.ts) and the candidate is kept only when it aligns exactly (verbatim or after whitespace/case
 * folding) or near-exactly (token alignment with at least NEAR_EXACT of its content words); otherwise it is dropped
 * and counted. Each candidate is a golden question (it loads with parseGoldenSet) marked `generated: true`.
 * Generated questions are easier than real ones (they reuse the passage's words): treat the figures as an upper bound.
 */
import { chunk } from '../chunk';
import type { EvalDocument } from '../eval/evaluate';
import type { Reference } from '../eval/types';
import { alignProposition, type Alignment } from '../llm/align';
import { createAsker, type AskCounts, type AskOptions } from '../llm/ask';
import type { PromptTemplate } from '../llm/templates';
import { LlmError } from '../llm/types';
import type { Chunk, ChunkOptions, Range } from '../types';
import { seededRandom } from '../random';

/** The least token-alignment score a near-exact excerpt needs (exact alignments score 1). */
export const NEAR_EXACT = 0.9;

/** Chunks shorter than this (trimmed characters) hold too little to ask about; skipped when longer ones exist. */
const MIN_SECTION_CHARS = 40;

export const GOLDEN_TEMPLATE: PromptTemplate = {
  id: 'golden-question',
  version: 1,
  system: 'You write evaluation questions for a search system. Answer with JSON only.',
  text:
    '<golden-section>\n{section}\n</golden-section>\n' +
    'Write one question a reader might ask that the section above answers, and copy the exact excerpt of the ' +
    'section (one or two sentences, word for word) that answers it. Answer as JSON: {"question": "...", "excerpt": "..."}',
};

const SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string' }, excerpt: { type: 'string' } },
  required: ['question', 'excerpt'],
  additionalProperties: false,
};

export interface GeneratedQuestion {
  question: string;
  references: Reference[];
  corpusId: string;
  generated: true;
  /** The document, the chunk asked about, and how the excerpt aligned. */
  document: string;
  section: Range;
  alignment: { match: Alignment['match']; score: number };
}

export interface GenerateOptions extends AskOptions {
  /** Chunks sampled per document (default 5). */
  perDocument?: number;
  /** The sample's seed (default 1): the same seed picks the same chunks. */
  seed?: number;
  /** How sections are cut (default: the engine's defaults). */
  chunkOptions?: ChunkOptions;
  template?: PromptTemplate;
}

export interface GenerateReport extends AskCounts {
  sampled: number;
  kept: number;
  /** Excerpts that did not align exactly or near-exactly (invented or paraphrased). */
  dropped: number;
}


/** `count` chunks drawn without replacement (seeded), in document order. */
export function sampleSections(chunks: readonly Chunk[], count: number, random: () => number): Chunk[] {
  const long = chunks.filter((c) => c.text.trim().length >= MIN_SECTION_CHARS);
  const pool = [...(long.length > 0 ? long : chunks)];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count).sort((a, b) => a.start - b.start);
}

function readCandidate(json: unknown): { question: string; excerpt: string } {
  const o = json as { question?: unknown; excerpt?: unknown } | null;
  if (typeof o?.question !== 'string' || typeof o.excerpt !== 'string' || o.question.trim() === '' || o.excerpt.trim() === '') {
    throw new LlmError('invalid-json', 'the answer is not {"question": "...", "excerpt": "..."}');
  }
  return { question: o.question.trim(), excerpt: o.excerpt };
}

/** Whether an alignment is close enough to keep: exact, or token-aligned with at least NEAR_EXACT of the words. */
export function keepsAlignment(a: Alignment): boolean {
  return a.status === 'exact' || (a.status === 'fuzzy' && a.score >= NEAR_EXACT);
}

export async function generateGoldenSet(documents: readonly EvalDocument[], options: GenerateOptions): Promise<{ candidates: GeneratedQuestion[]; report: GenerateReport }> {
  const asker = createAsker(options);
  const random = seededRandom(options.seed ?? 1);
  const candidates: GeneratedQuestion[] = [];
  let sampled = 0;
  let dropped = 0;
  for (const doc of documents) {
    const chunks = await chunk(doc.text, { ...options.chunkOptions, documentId: doc.id, path: doc.path });
    for (const section of sampleSections(chunks, options.perDocument ?? 5, random)) {
      sampled++;
      const answer = await asker.ask({ template: options.template ?? GOLDEN_TEMPLATE, values: { section: section.text }, schema: SCHEMA, maxTokens: 300, read: readCandidate });
      if ('error' in answer) continue;
      const alignment = alignProposition(doc.text, answer.value.excerpt, { start: section.start, end: section.end });
      const span = alignment.support[0];
      if (!span || !keepsAlignment(alignment)) {
        dropped++;
        continue;
      }
      candidates.push({
        question: answer.value.question,
        references: [{ start: span.start, end: span.end, content: doc.text.slice(span.start, span.end) }],
        corpusId: doc.id,
        generated: true,
        document: doc.id,
        section: { start: section.start, end: section.end },
        alignment: { match: alignment.match, score: alignment.score },
      });
    }
  }
  return { candidates, report: { ...asker.counts(), sampled, kept: candidates.length, dropped } };
}

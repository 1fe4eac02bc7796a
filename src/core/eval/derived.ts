/**
 * Evaluation of chunks an LLM feature made (src/core/llm/features), kept on source characters so Chroma's recall,
 * precision and IoU mean what they mean for plain chunks:
 * - a proposition (`metadata.kind: 'proposition'`) is retrieved by its `content` (the statement) and counts as
 *   retrieving its `metadata.support` spans; an unsupported one (`support: []`) retrieves no source character but
 *   still takes one of the k places;
 * - a contextual chunk is retrieved by its `content` (context + chunk) and counts as its own span (nothing special:
 *   that is what evaluateChunks does with any chunk whose content holds injected text);
 * - a summary (`metadata.kind: 'summary'`, `start`/`end` the span it summarises) is model text: indexed flat beside
 *   the chunks it counts as retrieving nothing; in two-stage retrieval the summaries are ranked first and the top
 *   `summariesFirst` choose the spans whose chunks are then ranked (chunks no summary covers stay candidates, so a
 *   failed summary loses nothing, and a question no summary matches is not routed).
 * Without derived chunks and in flat retrieval this is evaluateChunks (the same figures, failures explained).
 */
import { RunGuard } from '../merge';
import { RetrievalIndex, type IndexedDocument } from '../retrievers';
import type { Chunk, Range, ResolvedOptions } from '../types';
import { configurationOf, embeddingTokens, evaluateChunks, now, prepareQuestions, resultFigures, retrieverSettings, type EvalResult, type EvaluateHooks, type PreparedQuestion, type QuestionResult, type RetrievedOut, type SkippedQuestion } from './evaluate';
import { bearsAnswer, precisionOmega, retrievalMetrics } from './metrics';
import { rankMetrics, RECALL_CURVE_MAX_K } from './rankMetrics';
import type { EvalSettings } from './options';
import type { DocumentSpan, GoldenQuestion, QuestionMetrics } from './types';

/** flat: every entry in one index; two-stage: summaries first, then the chunks inside the chosen spans. */
export type DerivedRetrieval = 'flat' | 'two-stage';

export interface DerivedEvalOptions {
  retrieval?: DerivedRetrieval;
  /** Two-stage: how many summaries choose the spans (default 1). */
  summariesFirst?: number;
}

/** A retrieved entry as printed: its unit, and the source spans it counts as (`spans`) when they are not the unit. */
export interface DerivedRetrievedOut extends RetrievedOut {
  kind?: string;
  spans?: Range[];
}

export interface DerivedEvalResult extends Omit<EvalResult, 'timings' | 'questions'> {
  retrieval: DerivedRetrieval;
  questions: (QuestionResult & { retrieved: DerivedRetrievedOut[] })[];
  /** Two-stage: the summaries indexed (0 in flat retrieval). */
  summaries: number;
  timings: { indexMs: number; searchMs: number };
}

export const isSummary = (c: Chunk): boolean => c.metadata.kind === 'summary';
export const isProposition = (c: Chunk): boolean => c.metadata.kind === 'proposition';

/** The source spans a retrieved entry counts as: a proposition its support, a summary none, anything else its unit. */
export function scoredSpans(unit: Range, chunk: Chunk | null): Range[] {
  if (chunk && isProposition(chunk)) {
    const support = chunk.metadata.support;
    return Array.isArray(support) ? (support as Range[]).map((s) => ({ start: s.start, end: s.end })) : [];
  }
  if (chunk && isSummary(chunk)) return [];
  return [{ start: unit.start, end: unit.end }];
}

/** Whether any document holds a proposition or a summary (else plain evaluation applies unchanged). */
export function hasDerivedChunks(documents: readonly IndexedDocument[]): boolean {
  return documents.some((d) => d.chunks.some((c) => isProposition(c) || isSummary(c)));
}

type Prepared = { prepared: PreparedQuestion[]; skipped: SkippedQuestion[] };

/** One index and what each of its units counts as. */
interface Stage {
  index: RetrievalIndex;
  /** Per unit: its chunk (null for a sentence window), the original chunk index, its scored spans. */
  chunkOf: (Chunk | null)[];
  originalIndex: (number | null)[];
  spans: Range[][];
}

async function buildStage(documents: readonly IndexedDocument[], keep: (c: Chunk) => boolean, resolved: ResolvedOptions, settings: EvalSettings, hooks: EvaluateHooks): Promise<Stage> {
  const originals = documents.map((d) => d.chunks.flatMap((c, i) => (keep(c) ? [i] : [])));
  const filtered = documents.map((d, n) => ({ id: d.id, text: d.text, chunks: originals[n]!.map((i) => d.chunks[i]!) }));
  const index = await RetrievalIndex.build(filtered, retrieverSettings(resolved, settings), hooks);
  const chunkOf = index.units.map((u) => (u.chunk === null ? null : filtered[u.document]!.chunks[u.chunk]!));
  const originalIndex = index.units.map((u) => (u.chunk === null ? null : originals[u.document]![u.chunk]!));
  const spans = index.units.map((u, i) => scoredSpans(u, chunkOf[i]!));
  return { index, chunkOf, originalIndex, spans };
}

/** Two-stage routing: per chunk unit, the summary units whose span it overlaps (empty: no summary covers it). */
function coveringSummaries(chunks: Stage, summaries: Stage): number[][] {
  return chunks.index.units.map((u) =>
    summaries.index.units.flatMap((s, i) => (s.document === u.document && Math.min(s.end, u.end) > Math.max(s.start, u.start) ? [i] : [])),
  );
}

/**
 * Score derived chunks (propositions, summaries, contextual chunks) against a golden set on source characters.
 * `resolved`: the base chunk options; `settings`: retriever and k.
 */
export async function evaluateDerived(
  documents: readonly IndexedDocument[],
  questions: readonly GoldenQuestion[] | Prepared,
  resolved: ResolvedOptions,
  settings: EvalSettings,
  hooks: EvaluateHooks = {},
  options: DerivedEvalOptions = {},
): Promise<DerivedEvalResult> {
  const retrieval = options.retrieval ?? 'flat';
  const given: Prepared = Array.isArray(questions) ? prepareQuestions(documents, questions as readonly GoldenQuestion[]) : (questions as Prepared);
  if (retrieval === 'flat' && !hasDerivedChunks(documents)) {
    const plain = await evaluateChunks(documents, given, resolved, settings, hooks);
    return { ...plain, retrieval, summaries: 0 };
  }
  const t0 = now();
  const twoStage = retrieval === 'two-stage';
  const chunks = await buildStage(documents, twoStage ? (c) => !isSummary(c) : () => true, resolved, settings, hooks);
  const summaries = twoStage ? await buildStage(documents, isSummary, resolved, settings, hooks) : null;
  const covering = summaries ? coveringSummaries(chunks, summaries) : null;
  const t1 = now();
  const k = settings.chunksInContext;
  const first = Math.max(1, options.summariesFirst ?? 1);
  const guard = new RunGuard(hooks, given.prepared.length);
  const results: DerivedEvalResult['questions'] = [];
  const curves: number[][] = [];
  for (const q of given.prepared) {
    guard.check();
    const leafScores = await chunks.index.leafScores(q.question);
    const scores = unitScoresOf(chunks.index, leafScores);
    if (summaries && covering && summaries.index.units.length > 0) {
      // A question no summary matches is not routed: every chunk stays a candidate.
      const chosen = new Set(summaries.index.top(await summaries.index.unitScores(q.question), first));
      if (chosen.size > 0) for (let u = 0; u < scores.length; u++) if (covering[u]!.length > 0 && !covering[u]!.some((s) => chosen.has(s))) scores[u] = -Infinity;
    }
    results.push(await questionResult(chunks, q, scores, leafScores, k));
    curves.push(derivedRecallCurve(chunks, q, scores));
    if (hooks.onProgress && results.length % 16 === 0) hooks.onProgress(results.length / given.prepared.length);
  }
  const t2 = now();
  const indexed = [...chunks.index.indexedChunks(), ...(summaries?.index.indexedChunks() ?? [])];
  const texts = indexed.map((c) => c.content);
  return {
    configuration: { ...configurationOf(resolved, settings), retrieval, ...(twoStage ? { summariesFirst: first } : {}) },
    k,
    ...resultFigures(documents, results, curves, texts, await embeddingTokens(texts)),
    questions: results,
    skipped: given.skipped,
    retrieval,
    summaries: summaries?.index.units.length ?? 0,
    timings: { indexMs: t1 - t0, searchMs: t2 - t1 },
  };
}

/** Each unit's score: its best leaf's (-Infinity: none matched); a fresh array, so routing may overwrite it. */
function unitScoresOf(index: RetrievalIndex, leafScores: Float64Array): Float64Array {
  const out = new Float64Array(index.units.length).fill(-Infinity);
  for (let i = 0; i < leafScores.length; i++) {
    const u = index.leafUnit(i);
    if (leafScores[i]! > out[u]!) out[u] = leafScores[i]!;
  }
  return out;
}

/** One question's figures from its (possibly routed) unit scores: Chroma's metrics on the scored spans. */
async function questionResult(stage: Stage, q: PreparedQuestion, scores: Float64Array, leafScores: Float64Array, k: number): Promise<DerivedEvalResult['questions'][number]> {
  const { index } = stage;
  const top = index.top(scores, k);
  const spansOf = (u: number): DocumentSpan[] => stage.spans[u]!.map((s) => ({ ...s, documentId: index.units[u]!.documentId }));
  const retrievedSpans = top.flatMap(spansOf);
  const docUnits: number[] = [];
  index.units.forEach((u, i) => {
    if (u.document === q.document) docUnits.push(i);
  });
  const bearing = docUnits.filter((u) => stage.spans[u]!.some((s) => bearsAnswer(s, q.references)));
  const ranks = bearing.map((u) => index.rankOf(scores, u)).filter((r): r is number => r !== null);
  const firstAnswerRank = ranks.length > 0 ? Math.min(...ranks) : null;
  const within = firstAnswerRank !== null && firstAnswerRank <= k;
  const metrics: QuestionMetrics = {
    ...retrievalMetrics(q.references, retrievedSpans, q.documentId),
    precisionOmega: precisionOmega(q.references, docUnits.flatMap((u) => stage.spans[u]!)),
    hit: within ? 1 : 0,
    reciprocalRank: within ? 1 / firstAnswerRank! : 0,
    firstAnswerRank,
  };
  const hits = await index.hitsFor(q.question, top, leafScores);
  const retrieved = hits.map((h, i): DerivedRetrievedOut => {
    const u = index.units[h.unit]!;
    const chunk = stage.chunkOf[h.unit];
    const out: DerivedRetrievedOut = { document: u.documentId, start: u.start, end: u.end, rank: i + 1, score: Math.round(scores[h.unit]! * 1e6) / 1e6, chunk: stage.originalIndex[h.unit]! };
    const kind = chunk?.metadata.kind;
    if (typeof kind === 'string') out.kind = kind;
    if (chunk && (isProposition(chunk) || isSummary(chunk))) out.spans = stage.spans[h.unit]!;
    return out;
  });
  // A derived unit may stand for several source spans (a proposition's support): its spans are ranked in its place.
  const ranking = rankMetrics(q.references, q.documentId, retrievedSpans, docUnits.flatMap(spansOf), retrievedSpans.length);
  return { index: q.index, question: q.question, document: q.documentId, references: q.anchors, retrieved, metrics, rankMetrics: ranking, failures: [] };
}

/** recall@k for k = 1..20 where the k-th place is a unit with all of its scored spans (Chroma's recall on source characters). */
function derivedRecallCurve(stage: Stage, q: PreparedQuestion, scores: Float64Array): number[] {
  const ranked = stage.index.top(scores, RECALL_CURVE_MAX_K);
  const spans: DocumentSpan[] = [];
  const curve: number[] = [];
  for (let k = 1; k <= RECALL_CURVE_MAX_K; k++) {
    const u = ranked[k - 1];
    if (u !== undefined) for (const s of stage.spans[u]!) spans.push({ ...s, documentId: stage.index.units[u]!.documentId });
    curve.push(retrievalMetrics(q.references, spans, q.documentId).recall);
  }
  return curve;
}

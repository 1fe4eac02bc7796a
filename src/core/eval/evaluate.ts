import { documentForCorpus } from './corpusMatch';
import { chunk, optionsKey, type ChunkHooks } from '../chunk';
import { meterFor } from '../measure';
import { RunGuard } from '../merge';
import { validateOptions } from '../options';
import { ANALYZER_OPTIONS, getRetriever, RetrievalIndex, type Analyzer, type Hit, type IndexedDocument, type RetrieverSettings } from '../retrievers';
import type { Chunk, ChunkOptions, EmbedTexts, ResolvedOptions } from '../types';
import { getUnit } from '../units';
import { anchorReferences, type AnchorStatus } from './anchor';
import { meanRankMetrics, meanRecallCurve, rankMetrics, recallCurve, RECALL_CURVE_MAX_K, type RankMetrics } from './rankMetrics';
import { corpusBreakdown, type CorpusBreakdown } from './corpora';
import { explainQuestion, type ExplainUnit, type Failure } from './failures';
import { bearsAnswer, meanMetrics, questionMetrics } from './metrics';
import { validateEvalOptions, type EvalOptions, type EvalSettings } from './options';
import type { GoldenQuestion, MeanMetrics, QuestionMetrics, Reference, SkipKind } from './types';

/** A document to evaluate: `id` is what a question's corpusId names (a file name, with or without extension). */
export interface EvalDocument {
  id: string;
  text: string;
  /** The file path (code language detection, {file} in headers); default: none. */
  path?: string;
}

export type EvaluateOptions = ChunkOptions & EvalOptions;

export interface EvaluateHooks extends ChunkHooks {
  /** Dense and hybrid retrieval (and semantic chunking): one vector per text. */
  embed?: EmbedTexts;
}

/** A question matched to its document, its references re-anchored. */
export interface PreparedQuestion {
  /** Position in the golden set (from 0). */
  index: number;
  question: string;
  document: number;
  documentId: string;
  /** The references that were found (at their offsets, converted, or moved). */
  references: Reference[];
  /** One per given reference, in order. */
  anchors: { status: AnchorStatus; start: number | null; end: number | null; content: string }[];
  missing: Reference[];
}

export interface SkippedQuestion {
  index: number;
  question: string;
  reason: string;
  /** Why, as a kind (./corpora.ts summarizes them in one line each). */
  kind: SkipKind;
  corpusId?: string;
}

export { documentForCorpus };

/** Match every question to its document and re-anchor its references; questions that cannot be measured are skipped. */
export function prepareQuestions(documents: readonly EvalDocument[], questions: readonly GoldenQuestion[]): { prepared: PreparedQuestion[]; skipped: SkippedQuestion[] } {
  const prepared: PreparedQuestion[] = [];
  const skipped: SkippedQuestion[] = [];
  questions.forEach((q, index) => {
    const d = documentForCorpus(documents, q.corpusId);
    if (d === null) {
      const reason =
        q.corpusId === undefined
          ? `no corpus_id, and there are ${documents.length} documents`
          : `corpus_id "${q.corpusId}" names none of the documents (${documents.map((x) => x.id).slice(0, 5).join(', ')}${documents.length > 5 ? ', ...' : ''})`;
      skipped.push({ index, question: q.question, reason, kind: q.corpusId === undefined ? 'no-corpus-id' : 'unknown-corpus', ...(q.corpusId !== undefined ? { corpusId: q.corpusId } : {}) });
      return;
    }
    const anchored = anchorReferences(documents[d]!.text, q.references);
    const references = anchored.flatMap((a) => (a.reference && a.reference.end > a.reference.start ? [a.reference] : []));
    if (references.length === 0) {
      const kind = q.references.length === 0 ? 'no-answer' : 'answer-not-found';
      skipped.push({ index, question: q.question, reason: kind === 'no-answer' ? 'no answer spans' : 'none of its answer spans is in the document', kind });
      return;
    }
    prepared.push({
      index,
      question: q.question,
      document: d,
      documentId: documents[d]!.id,
      references,
      anchors: anchored.map((a) => ({ status: a.status, start: a.reference?.start ?? null, end: a.reference?.end ?? null, content: a.given.content })),
      missing: anchored.flatMap((a) => (a.status === 'missing' ? [a.given] : [])),
    });
  });
  return { prepared, skipped };
}

export interface RetrievedOut {
  document: string;
  start: number;
  end: number;
  rank: number;
  score: number;
  /** The chunk that is the unit (its index in the document's chunks); null for a sentence window. */
  chunk: number | null;
  /** The chunks that matched when they are not the unit (children, sentences). */
  matched?: { chunk: number; start: number; end: number; score: number }[];
}

export interface QuestionResult {
  index: number;
  question: string;
  document: string;
  references: PreparedQuestion['anchors'];
  retrieved: RetrievedOut[];
  metrics: QuestionMetrics;
  /** NDCG@k and AP@k of this question (./rankMetrics.ts). */
  rankMetrics: RankMetrics;
  failures: Failure[];
}

export interface IndexCost {
  documents: number;
  /** Every chunk made (parents and children alike). */
  chunks: number;
  /** The chunks embedded / indexed (leaves: children, sentences). */
  indexed: number;
  /** Tokens embedded: cl100k_base tokens of the indexed chunks' content. */
  embeddingTokens: number;
  /** Characters of the indexed chunks' content. */
  indexedCharacters: number;
}

export interface EvalResult {
  configuration: Record<string, unknown>;
  k: number;
  means: MeanMetrics;
  /** NDCG@k and MAP@k, answer characters as graded relevance (./rankMetrics.ts). */
  rankMeans: { ndcg: number; map: number };
  /** Mean recall of the first k units for k = 1..20. */
  recallCurve: { k: number; recall: number }[];
  /** Each document's means (its own questions) and their spread across documents (./corpora.ts). */
  byDocument: CorpusBreakdown['byDocument'];
  spread: CorpusBreakdown['spread'];
  /** Questions measured (means are over these). */
  measured: number;
  index: IndexCost;
  questions: QuestionResult[];
  skipped: SkippedQuestion[];
  timings: { chunkMs: number; indexMs: number; searchMs: number };
}

/**
 * What retrieval needs: the evaluation settings but k (every retriever's rows, so a retriever's own option reaches its
 * searcher without being copied here), and from the chunk options the embedder and the retrieval units.
 */
export function retrieverSettings(resolved: Pick<ResolvedOptions, 'retrieval' | 'embedder'>, settings: EvalSettings): RetrieverSettings {
  const { chunksInContext: _k, ...rows } = settings;
  void _k;
  return { ...rows, embedder: resolved.embedder ?? 'builtin', retrieval: resolved.retrieval ?? 'chunks' };
}

/** Milliseconds (core has no DOM or Node types: performance is read off globalThis). */
export const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

const tokenCounts = new Map<string, number>();

/** cl100k_base tokens of the indexed texts (cached per text: a sweep re-counts only new chunk texts). */
export async function embeddingTokens(texts: readonly string[]): Promise<number> {
  const unit = await getUnit('cl100k_base');
  let n = 0;
  for (const t of texts) {
    let c = tokenCounts.get(t);
    if (c === undefined) {
      c = unit.count(t);
      if (tokenCounts.size > 100_000) tokenCounts.clear();
      tokenCounts.set(t, c);
    }
    n += c;
  }
  return n;
}

/**
 * cl100k_base tokens of every indexed chunk's content: a chunk that is its source span is counted through the
 * document's span meter (token counts cached per pre-token piece, so a sweep's many chunkings of one text stay
 * cheap), any other content as text.
 */
/**
 * What every evaluation reports from its questions' results and its index: the means (pooled and per document), the
 * rank means, the recall@k curve, and the index's size. Shared by chunks and LLM-derived chunks (derived.ts).
 */
export function resultFigures(documents: readonly Pick<IndexedDocument, 'id' | 'chunks'>[], results: readonly QuestionResult[], curves: readonly number[][], indexedTexts: readonly string[], embeddingTokens: number) {
  return {
    means: meanMetrics(results.map((r) => r.metrics)),
    rankMeans: meanRankMetrics(results.map((r) => r.rankMetrics)),
    recallCurve: meanRecallCurve(curves),
    ...corpusBreakdown(documents, results),
    measured: results.length,
    index: {
      documents: documents.length,
      chunks: documents.reduce((n, d) => n + d.chunks.length, 0),
      indexed: indexedTexts.length,
      embeddingTokens,
      indexedCharacters: indexedTexts.reduce((n, t) => n + t.length, 0),
    },
  };
}

async function indexTokens(index: RetrievalIndex): Promise<number> {
  const unit = await getUnit('cl100k_base');
  let n = 0;
  const leaves = index.indexedLeaves();
  for (let i = 0; i < leaves.length; ) {
    const d = leaves[i]!.document;
    const doc = index.documents[d]!;
    const meter = meterFor(unit, doc.text);
    for (; i < leaves.length && leaves[i]!.document === d; i++) {
      const c = doc.chunks[leaves[i]!.chunk]!;
      n += c.content === c.text ? meter.exact(c.start, c.end) : await embeddingTokens([c.content]);
    }
  }
  return n;
}

/** Chunk every document with the same options (each under its own document id). */
export async function chunkDocuments(documents: readonly EvalDocument[], options: ChunkOptions, hooks: EvaluateHooks = {}): Promise<IndexedDocument[]> {
  const out: IndexedDocument[] = [];
  for (let i = 0; i < documents.length; i++) {
    const doc = documents[i]!;
    const chunks = await chunk(doc.text, { ...options, documentId: doc.id, path: options.path ?? doc.path }, {
      ...hooks,
      onProgress: hooks.onProgress ? (f) => hooks.onProgress!((i + f) / documents.length) : undefined,
    });
    out.push({ id: doc.id, text: doc.text, chunks });
  }
  return out;
}

/**
 * Score already chunked documents (the page's current chunks): one index over all of them, every prepared question
 * retrieved, measured and explained. `resolved`: the chunk options the chunks were made with.
 */
export async function evaluateChunks(
  documents: readonly IndexedDocument[],
  questions: readonly GoldenQuestion[] | { prepared: PreparedQuestion[]; skipped: SkippedQuestion[] },
  resolved: ResolvedOptions,
  settings: EvalSettings,
  hooks: EvaluateHooks = {},
): Promise<Omit<EvalResult, 'timings'> & { timings: { indexMs: number; searchMs: number } }> {
  const t0 = now();
  const { prepared, skipped } = Array.isArray(questions) ? prepareQuestions(documents, questions as readonly GoldenQuestion[]) : (questions as { prepared: PreparedQuestion[]; skipped: SkippedQuestion[] });
  const index = await RetrievalIndex.build(documents, retrieverSettings(resolved, settings), hooks);
  const t1 = now();
  const k = settings.chunksInContext;
  const guard = new RunGuard(hooks, prepared.length);
  // Each document's units, for precision-Ω and the explanations.
  const unitsOf = documents.map(() => [] as number[]);
  index.units.forEach((u, i) => unitsOf[u.document]!.push(i));
  const results: QuestionResult[] = [];
  const curves: number[][] = [];
  const explain = await explainContext(index, resolved, settings);
  // One buffer for every question's unit scores: each question's are read before the next is scored.
  const unitBuffer = index.leavesAreUnits ? null : new Float64Array(index.units.length);
  for (const q of prepared) {
    guard.check();
    const leafScores = await index.leafScores(q.question, { reuse: true });
    const scores = unitBuffer ? unitMaxScores(index, leafScores, unitBuffer) : leafScores;
    // The first 20 (or k) units: the top k are retrieved; the rest draw the recall@k curve.
    const ranked = index.top(scores, Math.max(k, RECALL_CURVE_MAX_K));
    const topUnits = ranked.slice(0, k);
    const hits = await index.hitsFor(q.question, topUnits, leafScores);
    results.push(questionResult(index, q, documents[q.document]!, unitsOf[q.document]!, scores, topUnits, hits, k, resolved, explain));
    curves.push(recallCurve(q.references, q.documentId, ranked.map((u) => index.units[u]!)));
    if (hooks.onProgress && results.length % 16 === 0) hooks.onProgress(results.length / prepared.length);
  }
  const t2 = now();
  const indexed = index.indexedChunks();
  const texts = indexed.map((c) => c.content);
  // Chunks counted in cl100k_base already carry their token count (of their content): no second count.
  const tokens = resolved.unit === 'cl100k_base' ? indexed.reduce((n, c) => n + c.size, 0) : await indexTokens(index);
  return {
    configuration: configurationOf(resolved, settings),
    k,
    ...resultFigures(documents, results, curves, texts, tokens),
    questions: results,
    skipped,
    timings: { indexMs: t1 - t0, searchMs: t2 - t1 },
  };
}

/** A unit's score is its best leaf's (leaves are not the units: parent–child, windows). Fills and returns `buffer`. */
function unitMaxScores(index: RetrievalIndex, leafScores: Float64Array, buffer: Float64Array): Float64Array {
  const scores = buffer.fill(-Infinity);
  for (let i = 0; i < leafScores.length; i++) {
    const u = index.leafUnit(i);
    if (leafScores[i]! > scores[u]!) scores[u] = leafScores[i]!;
  }
  return scores;
}

/** One question's measures and explanations, from its scores, its top units and their hits. */
function questionResult(
  index: RetrievalIndex,
  q: PreparedQuestion,
  doc: IndexedDocument,
  docUnits: readonly number[],
  scores: Float64Array,
  topUnits: number[],
  hits: readonly Hit[],
  k: number,
  resolved: ResolvedOptions,
  explain: ExplainContext,
): QuestionResult {
  // The question's document's units that touch a reference: precision-Ω, the first answer rank, the explanations.
  const touching = docUnits.filter((i) => q.references.some((e) => Math.max(index.units[i]!.start, e.start) <= Math.min(index.units[i]!.end, e.end)));
  const rankOf = new Map<number, number | null>(topUnits.map((u, r) => [u, r + 1]));
  const rank = (u: number): number | null => {
    if (!rankOf.has(u)) rankOf.set(u, index.rankOf(scores, u));
    return rankOf.get(u)!;
  };
  // The ranking metrics need only the top k and the best-ranked answer-bearing unit.
  const bearing = touching.filter((i) => bearsAnswer(index.units[i]!, q.references));
  const ranks = bearing.map(rank).filter((r): r is number => r !== null);
  const firstAnswerRank = ranks.length > 0 ? Math.min(...ranks) : null;
  const metrics = questionMetrics(q.references, q.documentId, topUnits.map((u) => index.units[u]!), k, touching.map((i) => index.units[i]!), firstAnswerRank);
  const explainUnit = (i: number): ExplainUnit => {
    const u = index.units[i]!;
    return { start: u.start, end: u.end, chunk: u.chunk === null ? null : doc.chunks[u.chunk]!, rank: rank(i) };
  };
  const explainUnits: ExplainUnit[] = touching.map(explainUnit);
  const failures =
    metrics.recall < 1 || q.missing.length > 0 || explainUnits.some((u) => u.rank !== null && u.rank <= k && u.chunk?.metadata.oversize)
      ? explainQuestion({
          references: q.references,
          units: explainUnits,
          k,
          matchedCount: index.matchedCount(scores),
          sizeLimit: resolved.size,
          unitName: resolved.unit,
          missing: q.missing,
          neighbours: neighbourUnits(docUnits, bearing).map(explainUnit),
          measure: explain.measureFor(q.document),
          question: q.question,
          analyzer: explain.analyzer,
          retrieved: topUnits.map((u, r) => ({ rank: r + 1, chunk: index.units[u]!.chunk, text: unitText(index, u) })),
        })
      : [];
  return {
    index: q.index,
    question: q.question,
    document: q.documentId,
    references: q.anchors,
    retrieved: hits.map((h) => retrievedOut(index, h)),
    metrics,
    rankMetrics: rankMetrics(q.references, q.documentId, topUnits.map((u) => index.units[u]!), touching.map((i) => index.units[i]!), k),
    failures,
  };
}

/** What the explanations need beyond one question: the chunk unit's measure per document and the retriever's analyzer. */
interface ExplainContext {
  measureFor(document: number): ((start: number, end: number) => number) | undefined;
  analyzer: Analyzer | null;
}

async function explainContext(index: RetrievalIndex, resolved: ResolvedOptions, settings: EvalSettings): Promise<ExplainContext> {
  const unit = await getUnit(resolved.unit).catch(() => null);
  const values = settings as unknown as Record<string, unknown>;
  return {
    // Counted on the slice: a near miss measures one short span, never worth a whole-document meter.
    measureFor: (d) => (unit ? (a, b) => unit.count(index.documents[d]!.text.slice(a, b)) : undefined),
    analyzer: getRetriever(settings.retriever).analyzer ? (Object.fromEntries(ANALYZER_OPTIONS.map((n) => [n, values[n]])) as Analyzer) : null,
  };
}

/** The units next to the answer-bearing ones (in document order) that bear no answer themselves. */
function neighbourUnits(docUnits: readonly number[], bearing: readonly number[]): number[] {
  const bears = new Set(bearing);
  const out = new Set<number>();
  docUnits.forEach((u, p) => {
    if (!bears.has(u)) return;
    for (const n of [docUnits[p - 1], docUnits[p + 1]]) if (n !== undefined && !bears.has(n)) out.add(n);
  });
  return [...out];
}

/** A unit's indexed text: its chunk's content, or a window's source span. */
function unitText(index: RetrievalIndex, u: number): string {
  const unit = index.units[u]!;
  const doc = index.documents[unit.document]!;
  return unit.chunk === null ? doc.text.slice(unit.start, unit.end) : doc.chunks[unit.chunk]!.content;
}

function retrievedOut(index: RetrievalIndex, h: Hit): RetrievedOut {
  const u = index.units[h.unit]!;
  const out: RetrievedOut = { document: u.documentId, start: u.start, end: u.end, rank: h.rank, score: round(h.score), chunk: u.chunk };
  const others = h.matched.filter((m) => m.chunk !== u.chunk);
  if (others.length > 0) {
    const chunks = index.documents[u.document]!.chunks;
    out.matched = others.map((m) => ({ chunk: m.chunk, start: chunks[m.chunk]!.start, end: chunks[m.chunk]!.end, score: round(m.score) }));
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The configuration as printed: the chunk options that shape these chunks (those of the chunk ids), then the evaluation settings. */
export function configurationOf(resolved: ResolvedOptions, settings: EvalSettings): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(JSON.parse(optionsKey(resolved)) as [string, unknown][]);
  out.retriever = settings.retriever;
  out.k = settings.chunksInContext;
  const retriever = getRetriever(settings.retriever);
  const values = settings as unknown as Record<string, unknown>;
  for (const { name } of retriever.options) out[name] = values[name];
  if (retriever.needsEmbeddings && out.embedder === undefined) out.embedder = resolved.embedder;
  if (retriever.analyzer) for (const name of ANALYZER_OPTIONS) out[name] = values[name];
  return out;
}

/**
 * Chunk the documents with `options`, put every chunk into one index (Chroma's harness), retrieve k units per
 * question and measure them: the library's `evaluate(documents, questions, options)`. Options are chunk options
 * plus the evaluation settings (retriever, chunksInContext = k, hybridWeight, stopWords, stemming); both are
 * validated up front (ChunkOptionsError).
 */
export async function evaluate(documents: readonly EvalDocument[], questions: readonly GoldenQuestion[], options: EvaluateOptions = {}, hooks: EvaluateHooks = {}): Promise<EvalResult> {
  const resolved = validateOptions(options);
  const settings = validateEvalOptions(options as Record<string, unknown>);
  if (getRetriever(settings.retriever).needsEmbeddings && !hooks.embed) throw new Error(`the ${settings.retriever} retriever needs embeddings: pass hooks.embed (e.g. from createEmbedder in chunkscope/embed)`);
  const t0 = now();
  const chunked = await chunkDocuments(documents, options, { ...hooks, onProgress: undefined });
  const t1 = now();
  const result = await evaluateChunks(chunked, questions, resolved, settings, hooks);
  return { ...result, timings: { chunkMs: t1 - t0, ...result.timings } };
}

import { chunk, validateOptions } from '../core/index';
import { evaluateChunks, evaluateDerived, retrieverSettings } from '../core/eval/index';
import { getRetriever, RetrievalIndex, type Hit, type RetrieverSettings } from '../core/retrievers/index';
import type { Chunk, ChunkOptions, EmbedTexts, LoadWasm } from '../core/types';
import type { IndexedDocument } from '../core/retrievers/index';
import type { LabCorpusDocument, LabEvaluateInput, LabEvaluatePayload, LabSettings, ProbeHitPayload, ProbePayload } from './protocol';
import { withTransfer } from './rpc';

/**
 * The evaluation lab's half of the chunk worker: the query probe and golden-set runs over the chunks the worker
 * already holds (the last chunk job's), so chunks never travel to the page and back. One retrieval index is kept
 * per (job, retriever settings): typing a new query only ranks; a slider move (a new job) rebuilds it, and dense
 * embeddings of unchanged chunk texts come from core's (model, text) cache.
 */

/** The single document's id in the lab's one-document index. */
export const LAB_DOCUMENT_ID = 'document';

/** The other documents' chunks kept (per document and options): a corpus run after a slider move re-chunks each once. */
const CORPUS_MEMO_ENTRIES = 64;

export interface LabJob {
  jobId: number;
  text: string;
  options: ChunkOptions;
  chunks: Chunk[];
  leaves: readonly Chunk[];
}

export interface LabServiceDeps {
  /** The last finished chunk job (null: none, or the worker was restarted). */
  last(): LabJob | null;
  /** The worker's current document. */
  document(): string;
  /** Dense and hybrid: the embeddings of `model` (through the embedding worker). */
  embedFor(model: string): EmbedTexts;
  loadWasm?: LoadWasm;
}

const now = () => performance.now();

/** A hit as the page shows it: its unit's span, the leaf it is (-1: a parent or a window), and its matched leaves. */
function probeHit(h: Hit, index: RetrievalIndex, chunks: readonly Chunk[], leafOf: Map<Chunk, number>): ProbeHitPayload {
  const u = index.units[h.unit]!;
  const unitChunk = u.chunk === null ? null : chunks[u.chunk]!;
  const leaf = unitChunk ? (leafOf.get(unitChunk) ?? -1) : -1;
  return {
    rank: h.rank,
    score: h.score,
    start: u.start,
    end: u.end,
    leaf,
    kind: u.chunk === null ? 'window' : leaf === -1 ? 'parent' : 'chunk',
    matched: h.matched.map((m) => ({ leaf: leafOf.get(chunks[m.chunk]!) ?? -1, start: chunks[m.chunk]!.start, end: chunks[m.chunk]!.end, score: m.score })),
  };
}

export function labService(deps: LabServiceDeps) {
  let cached: { key: string; index: RetrievalIndex; leafOf: Map<Chunk, number> } | null = null;
  const corpusChunks = new Map<string, { text: string; chunks: Chunk[] }>();

  /** The other open documents chunked with their options; the same text and options are chunked once. */
  async function chunkOthers(others: readonly LabCorpusDocument[], signal?: AbortSignal): Promise<IndexedDocument[]> {
    const out: IndexedDocument[] = [];
    for (const doc of others) {
      const key = `${doc.id}\u0000${JSON.stringify(doc.options)}`;
      let kept = corpusChunks.get(key);
      if (kept?.text !== doc.text) {
        const chunks = await chunk(doc.text, doc.options, { signal, loadWasm: deps.loadWasm, embed: deps.embedFor(doc.options.embedder ?? 'builtin') });
        kept = { text: doc.text, chunks };
        corpusChunks.delete(key);
        corpusChunks.set(key, kept);
        if (corpusChunks.size > CORPUS_MEMO_ENTRIES) corpusChunks.delete(corpusChunks.keys().next().value!);
      }
      out.push({ id: doc.id, text: doc.text, chunks: kept.chunks });
    }
    return out;
  }

  function settingsFor(options: ChunkOptions, settings: LabSettings): RetrieverSettings {
    return retrieverSettings(validateOptions(options), settings);
  }

  async function indexFor(job: LabJob, settings: LabSettings) {
    const rs = settingsFor(job.options, settings);
    const key = `${job.jobId}\u0000${JSON.stringify(rs)}`;
    if (cached?.key === key) return { ...cached, built: false };
    const index = await RetrievalIndex.build([{ id: LAB_DOCUMENT_ID, text: job.text, chunks: job.chunks }], rs, {
      embed: getRetriever(rs.retriever).needsEmbeddings ? deps.embedFor(rs.embedder ?? 'builtin') : undefined,
    });
    const leafOf = new Map<Chunk, number>(job.leaves.map((c, i) => [c, i]));
    cached = { key, index, leafOf };
    return { ...cached, built: true };
  }

  async function probe({ jobId, query, settings }: { jobId: number; query: string; settings: LabSettings }): Promise<ProbePayload | null> {
    const job = deps.last();
    if (!job || job.jobId !== jobId) return null;
    const t0 = now();
    const { index, leafOf } = await indexFor(job, settings);
    const t1 = now();
    const hits = query.trim() === '' ? [] : await index.search(query, settings.chunksInContext);
    const out = hits.map((h) => probeHit(h, index, job.chunks, leafOf));
    const scores = query.trim() === '' ? null : await index.unitScores(query);
    return { jobId, query, hits: out, matched: scores ? index.matchedCount(scores) : 0, units: index.units.length, indexMs: t1 - t0, searchMs: now() - t1 };
  }

  async function evaluate(input: LabEvaluateInput, signal?: AbortSignal): Promise<LabEvaluatePayload | null> {
    let text: string;
    let options: ChunkOptions;
    let chunks: Chunk[];
    if (input.options) {
      text = deps.document();
      options = input.options;
      const model = options.embedder ?? 'builtin';
      chunks = await chunk(text, options, { signal, loadWasm: deps.loadWasm, embed: deps.embedFor(model) });
    } else {
      const job = deps.last();
      if (!job || job.jobId !== input.jobId) return null;
      ({ text, options, chunks } = job);
    }
    const resolved = validateOptions(options);
    const settings = input.settings;
    const embed = getRetriever(settings.retriever).needsEmbeddings ? deps.embedFor(resolved.embedder ?? 'builtin') : undefined;
    // One document: every question is its (as the page always did); a corpus: each question names its document.
    const questions = input.corpus ? input.questions : input.questions.map((q) => ({ ...q, corpusId: undefined }));
    if (input.derived) {
      // An LLM feature's chunks over this document: scored on source characters, means only (the lab's LLM tab).
      if (input.derived.chunks.some((c) => c.end > text.length || text.slice(c.start, c.end) !== c.text)) throw new Error('the LLM result was made over another version of the document: run the feature again');
      const derived = await evaluateDerived([{ id: LAB_DOCUMENT_ID, text, chunks: input.derived.chunks }], questions, resolved, settings, { embed, signal }, { retrieval: input.derived.retrieval });
      const { retrieval: _r, summaries: _s, ...result } = derived;
      void _r;
      void _s;
      return { result: { ...result, questions: [] } };
    }
    const documents: IndexedDocument[] = [{ id: input.corpus?.active ?? LAB_DOCUMENT_ID, text, chunks }];
    if (input.corpus) documents.push(...(await chunkOthers(input.corpus.others, signal)));
    const result = await evaluateChunks(documents, questions, resolved, settings, { embed, signal });
    if (input.summary) result.questions = [];
    const payload: LabEvaluatePayload = { result };
    const buffers: Transferable[] = [];
    const leaves = chunks.filter((c) => c.metadata.leaf !== false);
    if (input.ranges) {
      payload.starts = Int32Array.from(leaves, (c) => c.start);
      payload.ends = Int32Array.from(leaves, (c) => c.end);
      buffers.push(payload.starts.buffer, payload.ends.buffer);
    }
    if (!input.summary) {
      const leafIndex = new Map<Chunk, number>(leaves.map((c, i) => [c, i]));
      payload.leafOf = Int32Array.from(chunks, (c) => leafIndex.get(c) ?? -1);
      buffers.push(payload.leafOf.buffer);
    }
    return withTransfer(payload, buffers);
  }

  return {
    probe,
    evaluate,
    forget: () => {
      cached = null;
      corpusChunks.clear();
    },
  };
}

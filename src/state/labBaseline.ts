import { getRetriever, type EvalSettings } from '../core/describe';

/**
 * Honest baselines (pure): which embedding model a dense result came from, named for what it is; the one line the
 * lab shows when dense retrieval scores below BM25 on the user's questions; and whether the probe's ranking on screen
 * answers the current question and settings or is an older one kept while the new one is computed.
 */

/** The built-in embedder's id (src/embed/hub.ts BUILTIN_MODEL). */
export const BUILTIN_EMBEDDER = 'builtin';

/** The key of the evaluation settings a ranking answered (two rankings with the same key are interchangeable). */
export function settingsKey(settings: EvalSettings): string {
  return JSON.stringify(settings);
}

/** What the embedder is, in words: the built-in one is a static word-vector model, not a contextual encoder. */
export function embedderName(embedder: string): string {
  if (embedder === BUILTIN_EMBEDDER) return 'the built-in static word-vector model (averaged word vectors, no context)';
  if (embedder.startsWith('local/')) return `the local model ${embedder.slice('local/'.length)}`;
  return embedder;
}

/** A retriever's name as the lab shows it beside a ranking or a mean: dense and hybrid name their embedder. */
export function retrieverCaption(retriever: string, embedder: string): string {
  const label = getRetriever(retriever).label;
  if (!getRetriever(retriever).needsEmbeddings) return label;
  return embedder === BUILTIN_EMBEDDER ? `${label.replace(/ \(embedder\)$/, '')} · built-in static word vectors` : `${label.replace(/ \(embedder\)$/, '')} · ${embedderName(embedder)}`;
}

/**
 * The one line shown when a retriever that embeds scored below BM25's recall on the same chunks and questions, or
 * null. With the built-in model it says that the gap says more about the model than about dense retrieval and
 * names the way out: a hub model when the browser is online, a local model folder either way.
 */
export function denseBelowBm25Note(input: { retriever: string; embedder: string; recall: number; bm25Recall: number; online: boolean }): string | null {
  const { retriever, embedder, recall, bm25Recall, online } = input;
  if (!getRetriever(retriever).needsEmbeddings || !Number.isFinite(recall) || !Number.isFinite(bm25Recall)) return null;
  if (recall >= bm25Recall - 1e-9) return null;
  const gap = `${getRetriever(retriever).label.replace(/ \(embedder\)$/, '')} recall ${formatPercent(recall)} is below BM25's ${formatPercent(bm25Recall)} on these questions`;
  const fix = online ? 'try a contextual model (e.g. bge-small-en-v1.5 from the hub) or load a local model folder' : 'load a local model folder with a contextual model (offline: the hub is out of reach)';
  if (embedder === BUILTIN_EMBEDDER) return `${gap}: the built-in model averages static word vectors, so this says more about the model than about dense retrieval — ${fix}.`;
  return `${gap} with ${embedderName(embedder)} — ${fix}.`;
}

/**
 * A share shown as a percentage with one decimal that never rounds up to 100% or down to 0%: 99.96% reads
 * "99.9%", not "100.0%" (which would claim every span was retrieved), and 0.04% reads "<0.1%", not "0.0%".
 */
export function formatPercent(x: number): string {
  if (!Number.isFinite(x)) return '–';
  if (x >= 1) return `${(x * 100).toFixed(1)}%`;
  if (x <= 0) return '0.0%';
  const tenths = Math.floor(x * 1000 + 1e-9) / 10;
  if (tenths >= 100) return '99.9%';
  if (tenths <= 0) return '<0.1%';
  return `${tenths.toFixed(1)}%`;
}

/** The probe's ranking against what is asked now: none to show, the current one, or an older one (pending). */
export type ProbeStatus = 'none' | 'current' | 'pending';

export function probeStatus(probe: { query: string; version: number; settingsKey: string } | null, now: { query: string; version: number | undefined; settingsKey: string | null }): ProbeStatus {
  if (!probe || now.query.trim() === '' || probe.version !== now.version || probe.query !== now.query) return 'none';
  return now.settingsKey !== null && probe.settingsKey === now.settingsKey ? 'current' : 'pending';
}

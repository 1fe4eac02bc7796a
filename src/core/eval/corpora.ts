import type { IndexedDocument } from '../retrievers';
import type { QuestionResult, SkippedQuestion } from './evaluate';
import { meanMetrics } from './metrics';
import { meanRankMetrics } from './rankMetrics';
import { METRIC_NAMES, type MeanMetrics, type MetricName } from './types';

/**
 * An evaluation over a corpus: each document's means beside the pooled ones, the spread across documents, and the
 * questions set aside summarized in one line per cause (never one line per question, never scored as zero).
 */

export interface DocumentMeans {
  document: string;
  /** Questions measured on this document. */
  questions: number;
  chunks: number;
  /** Null when no question names this document. */
  means: MeanMetrics | null;
  /** NDCG@k and MAP of its questions (null without questions). */
  rankMeans: { ndcg: number; map: number } | null;
}

/** Across documents: the mean of the documents' means and their sample standard deviation (n − 1; 0 for one document). */
export interface Spread {
  mean: number;
  std: number;
}

export interface CorpusBreakdown {
  byDocument: DocumentMeans[];
  /** Over the documents that have at least one measured question. */
  spread: Record<MetricName, Spread> & { documents: number };
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, std: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (values.length < 2) return { mean, std: 0 };
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return { mean, std: Math.sqrt(ss / (values.length - 1)) };
}

/** Each document's means (its own questions) and the spread of those means across documents. */
export function corpusBreakdown(documents: readonly Pick<IndexedDocument, 'id' | 'chunks'>[], results: readonly Pick<QuestionResult, 'document' | 'metrics' | 'rankMetrics'>[]): CorpusBreakdown {
  const byDocument: DocumentMeans[] = documents.map((d) => {
    const own = results.filter((r) => r.document === d.id);
    const some = own.length > 0;
    return { document: d.id, questions: own.length, chunks: d.chunks.length, means: some ? meanMetrics(own.map((r) => r.metrics)) : null, rankMeans: some ? meanRankMetrics(own.map((r) => r.rankMetrics)) : null };
  });
  const measured = byDocument.flatMap((d) => (d.means ? [d.means] : []));
  const spread = Object.fromEntries(METRIC_NAMES.map((m) => [m, spreadOf(measured.map((x) => x[m]))])) as Record<MetricName, Spread>;
  return { byDocument, spread: { ...spread, documents: measured.length } };
}

/** A count with its noun: 1 question, 373 questions. */
export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** Names, the first few of them: "finance, pubmed, wikitexts and 2 more". */
export function someNames(names: readonly string[], shown = 5): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/**
 * The questions set aside, one line per cause: "373 questions name corpora that are not open: finance, pubmed".
 * `documents`: the ids of the documents open (for the questions without corpus_id).
 */
export function setAsideSummary(skipped: readonly SkippedQuestion[], documents: number): string[] {
  const lines: string[] = [];
  const unknown = skipped.filter((s) => s.kind === 'unknown-corpus');
  if (unknown.length > 0) {
    const corpora = [...new Set(unknown.map((s) => s.corpusId ?? ''))].sort();
    const verb = unknown.length === 1 ? 'names a corpus that is' : corpora.length === 1 ? 'name a corpus that is' : 'name corpora that are';
    lines.push(`${plural(unknown.length, 'question')} ${verb} not open: ${someNames(corpora)} (set aside, not scored)`);
  }
  const noId = skipped.filter((s) => s.kind === 'no-corpus-id').length;
  if (noId > 0) lines.push(`${plural(noId, 'question')} without corpus_id set aside: with ${documents} documents open, corpus_id must name one`);
  const noAnswer = skipped.filter((s) => s.kind === 'no-answer').length;
  if (noAnswer > 0) lines.push(`${plural(noAnswer, 'question')} without answer spans set aside`);
  const lost = skipped.filter((s) => s.kind === 'answer-not-found').length;
  if (lost > 0) lines.push(`${plural(lost, 'question')} set aside: none of ${lost === 1 ? 'its' : 'their'} answer spans is in the document`);
  return lines;
}

/**
 * A share as a person reads it, never rounded up to "every" nor down to "none": 0.995 is "99.5%", 0.9999 is
 * "> 99.9%", 1 is "100%"; 0.0004 is "< 0.1%".
 */
export function shareText(x: number): string {
  if (!Number.isFinite(x)) return '–';
  if (x >= 1) return '100%';
  if (x <= 0) return '0%';
  const p = Math.round(x * 1000) / 10;
  if (p >= 100) return '> 99.9%';
  if (p <= 0) return '< 0.1%';
  return `${p.toFixed(1)}%`;
}

import type { Range } from '../types';

/** An answer span of a question: UTF-16 offsets into its document, and the text expected there. */
export interface Reference extends Range {
  content: string;
}

/** One question of a golden set with its answer spans; corpusId names its document when there are several. */
export interface GoldenQuestion {
  question: string;
  references: Reference[];
  corpusId?: string;
  /** Proposed by an LLM (chunkscope golden generate, the page's review): written back as `"generated": true`. */
  generated?: boolean;
}

/** A span of one document of the index (what a retrieved unit or a chunk covers). */
export interface DocumentSpan extends Range {
  documentId: string;
}

/** The figures of one question (Chroma's chunking_evaluation definitions, on character ranges). */
export interface QuestionMetrics {
  /** |retrieved ∩ references| / Σ|reference| */
  recall: number;
  /** |retrieved ∩ references| / Σ|retrieved| (a plain sum over the k retrieved: overlapping chunks are penalized). */
  precision: number;
  /** |retrieved ∩ references| / (Σ|retrieved| + |references not retrieved|) */
  iou: number;
  /** The precision at perfect recall: every unit of the question's document touching a reference retrieved. */
  precisionOmega: number;
  /** 1 when an answer-bearing unit is among the k retrieved, else 0. */
  hit: number;
  /** 1 / rank of the first answer-bearing unit when within k, else 0. */
  reciprocalRank: number;
  /** Rank (from 1) of the first answer-bearing unit in the whole ranking; null when no ranked unit bears an answer. */
  firstAnswerRank: number | null;
}

export const METRIC_NAMES = ['recall', 'precision', 'iou', 'precisionOmega', 'hit', 'reciprocalRank'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type MeanMetrics = Record<MetricName, number>;

/** Why a question was set aside (not measured, never scored as zero). */
export type SkipKind = 'unknown-corpus' | 'no-corpus-id' | 'no-answer' | 'answer-not-found';

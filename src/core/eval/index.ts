/** The evaluation lab's engine: golden sets, metrics (Chroma's chunking_evaluation), failures, evaluate and sweep. */
export * from './types';
export { mergeRanges, totalLength, intersectionLength, bearsAnswer, retrievalMetrics, precisionOmega, questionMetrics, meanMetrics } from './metrics';
export { parseGoldenSet, formatGoldenSet, corpusIdForDocument, detectGoldenFormat, parseCsvRecords, GoldenSetError, GOLDEN_FORMATS, type GoldenFormat } from './golden';
export { anchorReference, anchorReferences, nearestOccurrence, type AnchorStatus, type AnchoredReference } from './anchor';
export { explainQuestion, tableWithoutHeader, ordinal, type Failure, type FailureKind, type ExplainInput, type ExplainUnit } from './failures';
export { validateEvalOptions, type EvalSettings, type EvalOptions } from './options';
export {
  evaluate,
  evaluateChunks,
  chunkDocuments,
  prepareQuestions,
  documentForCorpus,
  retrieverSettings,
  configurationOf,
  embeddingTokens,
  type EvalDocument,
  type EvaluateOptions,
  type EvaluateHooks,
  type EvalResult,
  type QuestionResult,
  type RetrievedOut,
  type IndexCost,
  type PreparedQuestion,
  type SkippedQuestion,
} from './evaluate';
export { sweep, sweepGrid, type SweepRow } from './sweep';
export { corpusBreakdown, setAsideSummary, spreadOf, shareText, plural, someNames, type CorpusBreakdown, type DocumentMeans, type Spread } from './corpora';
export { orphanChunks, orphanBits, isHeadingOnly, type OrphanFlags } from './orphans';
export { evaluateDerived, scoredSpans, hasDerivedChunks, isSummary, isProposition, type DerivedRetrieval, type DerivedEvalOptions, type DerivedEvalResult, type DerivedRetrievedOut } from './derived';
export { compareScores, compareQuestionResults, wilcoxonSignedRank, pairedBootstrap, seededRandom, COMPARED_METRICS, WILCOXON_EXACT_MAX, type ComparedMetric, type ComparedQuestion, type PairedDifference, type Significance, type SignificanceOptions, type Verdict, type WilcoxonResult } from './significance';
export { answerGains, ndcgAtK, averagePrecisionAtK, rankMetrics, recallCurve, meanRecallCurve, meanRankMetrics, RECALL_CURVE_MAX_K, type RankMetrics } from './rankMetrics';
export { reportHtml, reportMarkdown, type ReportInput, type ReportRun } from './report/index';

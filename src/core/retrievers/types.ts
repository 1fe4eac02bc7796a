import { ANALYZER_OPTION_ROWS, type EvalOptionRow } from '../optionRows';
import type { EmbedTexts, RetrievalMode } from '../types';
import type { Bm25Params } from './bm25/okapi';
import type { Analyzer } from './tokenize';

/**
 * The retriever contract. A retriever is one folder holding a descriptor (this interface) and one line in
 * ./registry.ts; the option table's `retriever` choices, the CLI's --retriever validation, the lab's controls and the
 * evaluation's printed configuration all read the registry (recipe: ./README.md).
 */
export interface RetrieverDescriptor<Name extends string = string> {
  /** The id: --retriever <name>, the URL's retriever=, the option table's choice. */
  name: Name;
  /** What the page's retriever menu shows. */
  label: string;
  /** One line for --help and the docs: how a question finds chunks with this retriever. */
  help: string;
  /**
   * Its own evaluation settings, declared here once as rows (in its folder's options.ts; `[]` when it has none) besides
   * the shared ones (k) and the analyzer's: the option table puts them after the `retriever` row, EvalSettings and the
   * page's Config are mapped from them, they are printed in its configuration and the lab draws a control for each.
   */
  options: readonly EvalOptionRow[];
  /** True when it ranks with embeddings (the caller passes `embed`; the CLI loads an embedder). */
  needsEmbeddings: boolean;
  /** True when it reads the lexical analyzer's rows (stop words, stemming): printed, and shown in the lab. */
  analyzer: boolean;
  /** Index the texts once; the searcher then answers any number of questions. Load heavy code lazily in here. */
  index(input: RetrieverInput): Promise<LeafSearcher>;
}

/** The evaluation rows every lexical retriever shares (the analyzer's), by name. */
export const ANALYZER_OPTIONS = ANALYZER_OPTION_ROWS.map((row) => row.name);

export interface RetrieverSettings extends Analyzer {
  retriever: string;
  /** Dense and hybrid: the model id the embeddings are cached under (e.g. 'builtin'). */
  embedder?: string;
  bm25?: Bm25Params;
  /** The chunks' retrieval units (chunk options' `retrieval`): 'parent-child' returns parents, 'window' windows. */
  retrieval?: RetrievalMode;
  /** A retriever's own evaluation rows (its descriptor's `options`), by name: a searcher reads them typed from its rows
   * (`settings as RowValues<typeof ITS_ROWS>`, see hybrid/searcher.ts). */
  readonly [row: string]: unknown;
}

/** What a retriever indexes: the leaf chunks' texts of every document, in index order. */
export interface RetrieverInput {
  /** Each indexed chunk's content. */
  texts: readonly string[];
  /** Each text's term ids in the settings' analyzer vocabulary (read from the documents' word runs; computed on call). */
  termIds(): number[][];
  settings: RetrieverSettings;
  /** Embeddings (required when the descriptor says needsEmbeddings). */
  embed?: EmbedTexts;
}

/** One indexed chunk set's answers to questions. */
export interface LeafSearcher {
  /**
   * Every indexed text's score for a question, in index order; -Infinity: not matched. With `reuse` the returned
   * array may be a buffer the next call overwrites (a sweep reads each question's scores before asking the next).
   */
  scores(question: string, options?: { reuse?: boolean }): Promise<Float64Array>;
  /** The k best texts, best first (ties: earlier text first). */
  search(question: string, k: number): Promise<{ index: number; score: number }[]>;
}

/** The k best matched entries of `scores`, best first (ties: earlier first): a searcher's `search` from its `scores`. */
export function topOfScores(scores: Float64Array, k: number): { index: number; score: number }[] {
  const out: { index: number; score: number }[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] !== -Infinity) out.push({ index: i, score: scores[i]! });
  out.sort((x, y) => y.score - x.score || x.index - y.index);
  return k < out.length ? out.slice(0, k) : out;
}

/** A searcher from a scoring function (search = the top k of the scores). */
export function searcherOf(scores: LeafSearcher['scores']): LeafSearcher {
  return { scores, search: async (question, k) => topOfScores(await scores(question), k) };
}

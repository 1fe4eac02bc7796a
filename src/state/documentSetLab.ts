import type { GoldenQuestion, SkipKind } from '../core/eval/types';
import { documentForCorpus } from '../core/eval/corpusMatch';
import { setAsideSummary } from '../core/eval/corpora';
import type { ChunkOptions } from '../core/types';
import type { LabCorpusDocument } from '../worker/protocol';
import { toChunkOptions } from './chunkOptions';
import type { Config } from './configSlice';
import { documentTexts, type DocumentSetSlice } from './documentSetSlice';
import type { DocumentSlice } from './documentSlice';
import { presentReferences, type GoldenItem } from './labGolden';

/**
 * The lab over the open documents (pure): which document each golden question belongs to (its corpus id, matched as
 * the CLI matches it), the questions a run can measure, and those set aside because they name a document that is not
 * open (kept, summarized in one line, measured again once that document is opened).
 *
 * On the one-document page a question belongs to the document unless its corpus id names another one (a Chroma CSV of
 * several corpora imported into one document): what the page did before, less the questions of other corpora.
 */

type SetReads = Pick<DocumentSlice, 'text' | 'docName' | 'pageStarts' | 'setDocument'> & Pick<DocumentSetSlice, 'openDocuments' | 'activeDocument'>;

/** The corpus id pages before this one wrote for every document ("document"): it names the one document. */
const ONE_DOCUMENT_ID = 'document';

/** Index into `names` of the document `item` belongs to; null: it names a document that is not open. */
export function documentOfItem(item: Pick<GoldenItem, 'corpusId'>, names: readonly string[]): number | null {
  if (names.length === 1 && (item.corpusId === undefined || item.corpusId === ONE_DOCUMENT_ID)) return 0;
  return documentForCorpus(names.map((id) => ({ id })), item.corpusId);
}

/** Whether a question is one of the document shown (its answers are marked and drawn in this editor). */
export function belongsToActive(s: SetReads, item: Pick<GoldenItem, 'corpusId'>): boolean {
  const docs = documentTexts(s);
  const d = documentOfItem(item, docs.map((x) => x.name));
  return d !== null && docs[d]!.active;
}

/** The open document a question belongs to (its index in the set, or 0 on the one-document page); null: not open. */
export function openDocumentOf(s: SetReads, item: Pick<GoldenItem, 'corpusId'>): number | null {
  return documentOfItem(item, documentTexts(s).map((x) => x.name));
}

export interface CorpusRequest {
  /** The questions measured, in order (their ids beside them), with their document's name as corpus id in a set. */
  questions: GoldenQuestion[];
  ids: string[];
  /** The other open documents (a set), each with its own chunk options; absent on the one-document page. */
  corpus?: { active: string; others: LabCorpusDocument[] };
  /** The one line for the questions that name no open document (null: none). */
  setAside: string | null;
}

/**
 * What a golden-set run sends: every question with a question and an answer still in its document, matched to its
 * document; the other documents chunked with `config` (each with its own name and pages, as a switch would chunk it).
 */
export function corpusRequest(s: SetReads & { golden: readonly GoldenItem[] }, config: Config): CorpusRequest {
  const docs = documentTexts(s);
  const names = docs.map((d) => d.name);
  const inSet = s.openDocuments.length > 0;
  const questions: GoldenQuestion[] = [];
  const ids: string[] = [];
  for (const item of s.golden) {
    const d = documentOfItem(item, names);
    if (d === null || item.question === '') continue;
    const [present] = presentReferences([item], docs[d]!.text);
    if (!present || present.references.length === 0) continue;
    questions.push({ question: item.question, references: present.references.map((r) => ({ ...r })), ...(inSet ? { corpusId: names[d]! } : {}) });
    ids.push(item.id);
  }
  const request: CorpusRequest = { questions, ids, setAside: setAsideLine(s.golden, names) };
  if (inSet) {
    const active = docs.find((d) => d.active)!;
    const others = s.openDocuments.flatMap((d, i) => (i === s.activeDocument ? [] : [{ id: d.name, text: d.text, options: optionsFor(config, d) }]));
    request.corpus = { active: active.name, others };
  }
  return request;
}

/** A document's chunk options under `config` (its own name and page starts, as when it is the one shown). */
export function optionsFor(config: Config, doc: { name: string; pageStarts: number[] | null }): ChunkOptions {
  return toChunkOptions(config, { name: doc.name, pageStarts: doc.pageStarts });
}

/** "373 questions name corpora that are not open: finance, pubmed … (set aside, not scored)", or null. */
export function setAsideLine(golden: readonly GoldenItem[], names: readonly string[]): string | null {
  const skipped = golden.flatMap((item, index): { index: number; question: string; reason: string; kind: SkipKind; corpusId?: string }[] =>
    documentOfItem(item, names) !== null
      ? []
      : item.corpusId === undefined
        ? [{ index, question: item.question, reason: '', kind: 'no-corpus-id' as const }]
        : [{ index, question: item.question, reason: '', kind: 'unknown-corpus' as const, corpusId: item.corpusId }],
  );
  return skipped.length > 0 ? setAsideSummary(skipped, names.length).join('; ') : null;
}

/** The questions without a corpus id, given `name` (the document they were written on, when a set opens). */
export function stampCorpus(golden: readonly GoldenItem[], name: string): GoldenItem[] | null {
  if (!golden.some((q) => q.corpusId === undefined)) return null;
  return golden.map((q) => (q.corpusId === undefined ? { ...q, corpusId: name } : q));
}

/**
 * A fingerprint of what a corpus run measured: each document's name and text (compared by identity: a switch keeps
 * the strings, an edit makes new ones) and the configuration. A run stays on screen across switches while it matches.
 */
export interface CorpusSnapshot {
  names: string[];
  texts: string[];
  config: Config;
}

export function corpusSnapshot(s: SetReads, config: Config): CorpusSnapshot {
  const docs = documentTexts(s);
  return { names: docs.map((d) => d.name), texts: docs.map((d) => d.text), config };
}

export function sameCorpus(a: CorpusSnapshot, b: CorpusSnapshot): boolean {
  return (
    a.names.length === b.names.length &&
    a.names.every((n, i) => n === b.names[i] && a.texts[i] === b.texts[i]) &&
    (a.config === b.config || JSON.stringify(a.config) === JSON.stringify(b.config))
  );
}

/**
 * Whether the last golden-set run still describes what is open: a one-document run while its chunks are the painted
 * ones; a run over several documents while the documents and the configuration are those it measured.
 */
export function runIsCurrent(
  s: SetReads & { config: Config; result: { jobId: number } | null; run: { jobId: number; corpus?: { snapshot: CorpusSnapshot } } | null },
): boolean {
  if (!s.run || !s.result) return false;
  if (s.run.corpus) return s.openDocuments.length > 0 && sameCorpus(s.run.corpus.snapshot, corpusSnapshot(s, s.config));
  return s.run.jobId === s.result.jobId;
}

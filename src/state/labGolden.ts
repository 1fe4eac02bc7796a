import { anchorReferences, type AnchorStatus } from '../core/eval/anchor';
import type { GoldenQuestion } from '../core/eval/types';
import { newQuestionId, type GoldenItem } from './labGoldenEdits';

export { addQuestion, deleteQuestion, markAnswer, moveToCorpus, newQuestionId, removeReference, renameQuestion, type GoldenItem } from './labGoldenEdits';

/**
 * The golden set as the page edits it (pure): questions with their answer spans in the document. Each question has
 * a stable id (list keys, the selected question); references are character ranges with the text they held when
 * marked, so an edit of the document can be followed (anchorReferences: found again by exact search, or flagged
 * missing — never silently shifted).
 */

/** The core's form (what evaluate, export and the CLI take). */
export function toGoldenQuestions(set: readonly GoldenItem[]): GoldenQuestion[] {
  return set.map((q) => ({ question: q.question, references: q.references.map((r) => ({ ...r })), ...withCorpus(q.corpusId), ...(q.generated ? { generated: true } : {}) }));
}

const withCorpus = (corpusId: string | undefined) => (corpusId === undefined ? {} : { corpusId });

/** Imported questions (parseGoldenSet) as page items; a corpus id is kept (the question belongs to that document). */
export function fromGoldenQuestions(questions: readonly GoldenQuestion[]): GoldenItem[] {
  return questions.map((q) => ({ id: newQuestionId(), question: q.question, references: q.references.map((r) => ({ start: r.start, end: r.end, content: r.content })), ...withCorpus(q.corpusId), ...(q.generated ? { generated: true as const } : {}) }));
}

export interface ReferenceState {
  status: AnchorStatus;
  /** Where the reference is now (null: missing). */
  start: number | null;
  end: number | null;
}

/**
 * Follow the document: every reference re-anchored against `text`. A reference found at its offsets or found again
 * (moved) takes its new offsets; a missing one keeps its old offsets and content and is reported, so the user sees
 * it flagged and can mark it again (it is never moved to some other text).
 */
export function reanchor(set: readonly GoldenItem[], text: string): { set: GoldenItem[]; states: Map<string, ReferenceState[]>; changed: boolean } {
  const states = new Map<string, ReferenceState[]>();
  let changed = false;
  const next = set.map((q) => {
    const anchored = anchorReferences(text, q.references);
    states.set(
      q.id,
      anchored.map((a) => ({ status: a.status, start: a.reference?.start ?? null, end: a.reference?.end ?? null })),
    );
    let moved = false;
    const references = q.references.map((r, i) => {
      const a = anchored[i]!.reference;
      if (!a || (a.start === r.start && a.end === r.end)) return r;
      moved = true;
      return { ...r, start: a.start, end: a.end };
    });
    if (!moved) return q;
    changed = true;
    return { ...q, references };
  });
  return { set: changed ? next : [...set], states, changed };
}

/** Only the references still in the document (what an evaluation can measure). */
export function presentReferences(set: readonly GoldenItem[], text: string): GoldenItem[] {
  return set.map((q) => ({ ...q, references: q.references.filter((r) => text.slice(r.start, r.end) === r.content) }));
}

// ---- Storage: one golden set is stored (its questions' corpus ids with them: they come back when their document is opened). ----

export const GOLDEN_STORAGE_KEY = 'chunkscope:golden:v1';

export function serializeGolden(set: readonly GoldenItem[]): string {
  return JSON.stringify({ version: 1, questions: set });
}

/** A stored golden set, or null when there is none; 'corrupt' when it cannot be read (discarded with a notice). */
export function parseStoredGolden(raw: string | null): GoldenItem[] | null | 'corrupt' {
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw) as { version?: number; questions?: unknown };
    if (data?.version !== 1 || !Array.isArray(data.questions)) return 'corrupt';
    const out: GoldenItem[] = [];
    for (const q of data.questions as GoldenItem[]) {
      if (typeof q?.question !== 'string' || !Array.isArray(q.references)) return 'corrupt';
      const refs = q.references.filter((r) => Number.isInteger(r?.start) && Number.isInteger(r?.end) && typeof r?.content === 'string' && r.end >= r.start);
      const corpusId = typeof q.corpusId === 'string' ? q.corpusId : undefined;
      out.push({ id: typeof q.id === 'string' ? q.id : newQuestionId(), question: q.question, references: refs.map((r) => ({ start: r.start, end: r.end, content: r.content })), ...withCorpus(corpusId), ...(q.generated === true ? { generated: true as const } : {}) });
    }
    return out;
  } catch {
    return 'corrupt';
  }
}

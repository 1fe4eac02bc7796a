import { anchorReferences, type AnchorStatus, type GoldenQuestion, type Reference } from '../core/describe';

/**
 * The golden set as the page edits it (pure): questions with their answer spans in the document. Each question has
 * a stable id (list keys, the selected question); references are character ranges with the text they held when
 * marked, so an edit of the document can be followed (anchorReferences: found again by exact search, or flagged
 * missing — never silently shifted).
 */

export interface GoldenItem {
  id: string;
  question: string;
  references: Reference[];
  /** Proposed by the LLM and accepted in review (labGenerate.ts): kept, stored and exported as such. */
  generated?: true;
  /**
   * The document the question belongs to (a Chroma corpus_id: a file name, with or without extension); absent: the
   * one document of the page. Questions naming a document that is not open are set aside (documentSetLab.ts).
   */
  corpusId?: string;
}

let counter = 0;
export function newQuestionId(): string {
  counter += 1;
  return `q${Date.now().toString(36)}${counter.toString(36)}`;
}

export function addQuestion(set: readonly GoldenItem[], question: string, id = newQuestionId()): GoldenItem[] {
  return [...set, { id, question: question.trim(), references: [] }];
}

export function renameQuestion(set: readonly GoldenItem[], id: string, question: string): GoldenItem[] {
  return set.map((q) => (q.id === id ? { ...q, question: question.trim() } : q));
}

export function deleteQuestion(set: readonly GoldenItem[], id: string): GoldenItem[] {
  return set.filter((q) => q.id !== id);
}

/**
 * Mark `text.slice(start, end)` as an answer of question `id`. Whitespace at the ends of the selection is left out;
 * a span overlapping one the question already has is merged with it (one answer, not two overlapping ones). An
 * empty or blank selection changes nothing.
 */
export function markAnswer(set: readonly GoldenItem[], id: string, text: string, start: number, end: number): GoldenItem[] {
  let a = Math.max(0, Math.min(start, end));
  let b = Math.min(text.length, Math.max(start, end));
  while (a < b && /\s/.test(text[a]!)) a++;
  while (b > a && /\s/.test(text[b - 1]!)) b--;
  if (b <= a) return [...set];
  return set.map((q) => {
    if (q.id !== id) return q;
    let s = a;
    let e = b;
    const kept: Reference[] = [];
    for (const r of q.references) {
      if (r.start <= e && r.end >= s) {
        s = Math.min(s, r.start);
        e = Math.max(e, r.end);
      } else kept.push(r);
    }
    const refs = [...kept, { start: s, end: e, content: text.slice(s, e) }].sort((x, y) => x.start - y.start);
    return { ...q, references: refs };
  });
}

export function removeReference(set: readonly GoldenItem[], id: string, index: number): GoldenItem[] {
  return set.map((q) => (q.id === id ? { ...q, references: q.references.filter((_, i) => i !== index) } : q));
}

/** The core's form (what evaluate, export and the CLI take). */
export function toGoldenQuestions(set: readonly GoldenItem[]): GoldenQuestion[] {
  return set.map((q) => ({ question: q.question, references: q.references.map((r) => ({ ...r })), ...withCorpus(q.corpusId), ...(q.generated ? { generated: true } : {}) }));
}

const withCorpus = (corpusId: string | undefined) => (corpusId === undefined ? {} : { corpusId });

/** Imported questions (parseGoldenSet) as page items; a corpus id is kept (the question belongs to that document). */
export function fromGoldenQuestions(questions: readonly GoldenQuestion[]): GoldenItem[] {
  return questions.map((q) => ({ id: newQuestionId(), question: q.question, references: q.references.map((r) => ({ start: r.start, end: r.end, content: r.content })), ...withCorpus(q.corpusId), ...(q.generated ? { generated: true as const } : {}) }));
}

/** The question `id` belongs to document `corpusId` from now on (an answer marked there); answers marked elsewhere go. */
export function moveToCorpus(set: readonly GoldenItem[], id: string, corpusId: string): GoldenItem[] {
  return set.map((q) => (q.id !== id || q.corpusId === corpusId ? q : { ...q, corpusId, references: q.corpusId === undefined ? q.references : [] }));
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

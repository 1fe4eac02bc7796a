import type { Reference } from '../core/eval/types';

/**
 * The golden set's edits the lab slice makes (pure): add, rename, delete a question, mark or remove an answer, move a
 * question to a document. Apart from labGolden.ts (re-anchoring, storage, the core's form), which imports the
 * evaluation code: the store holds these, so they are on the first paint's path, and the rest loads with the lab.
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

/** The question `id` belongs to document `corpusId` from now on (an answer marked there); answers marked elsewhere go. */
export function moveToCorpus(set: readonly GoldenItem[], id: string, corpusId: string): GoldenItem[] {
  return set.map((q) => (q.id !== id || q.corpusId === corpusId ? q : { ...q, corpusId, references: q.corpusId === undefined ? q.references : [] }));
}

import type { AppState } from './store';
import { boundaryDiff } from './labCompare';
import { belongsToActive, runIsCurrent } from './documentSetLab';

/**
 * What the lab draws over the document (pure; the editor turns marks into Monaco decorations in one batch):
 * - probe: each retrieved unit with its rank badge and score (the last ranking stays drawn while a slider move's new
 *   one is computed, as the chunks do); for parents / windows also the matched children or
 *   sentences;
 * - golden set: the selected question's answer spans and the chunks its last run retrieved (rank badges);
 * - compare: chunk boundaries only in A, only in B, in both.
 */

export type MarkKind = 'hit' | 'matched' | 'answer' | 'answer-missing' | 'retrieved' | 'only-a' | 'only-b' | 'both';

export interface LabMark {
  start: number;
  end: number;
  kind: MarkKind;
  /** Text of the badge at the start (rank and score); plain text, drawn by Monaco as injected text. */
  badge?: string;
  /** Hover text. */
  title?: string;
}

/** Boundaries drawn at most (a long document at a small size has tens of thousands). */
export const MAX_BOUNDARY_MARKS = 4000;

export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return '–';
  const a = Math.abs(score);
  return a >= 100 ? score.toFixed(0) : a >= 1 ? score.toFixed(2) : score.toFixed(3);
}

type MarkState = Pick<AppState, 'labOpen' | 'labTab' | 'probe' | 'result' | 'golden' | 'activeQuestion' | 'run' | 'comparison' | 'text'> &
  Partial<Pick<AppState, 'openDocuments' | 'activeDocument' | 'docName' | 'pageStarts' | 'setDocument' | 'config'>>;

export function labMarks(s: MarkState): LabMark[] {
  if (!s.labOpen || !s.result) return [];
  const out: LabMark[] = [];
  if (s.labTab === 'probe' && s.probe && s.probe.version === s.result.version) {
    for (const h of s.probe.hits) {
      out.push({ start: h.start, end: h.end, kind: 'hit', badge: `#${h.rank} ${formatScore(h.score)}`, title: `Rank ${h.rank}, score ${formatScore(h.score)}` });
      if (h.kind !== 'chunk') for (const m of h.matched) out.push({ start: m.start, end: m.end, kind: 'matched', title: `Matched ${h.kind === 'window' ? 'sentence' : 'child'}, score ${formatScore(m.score)}` });
    }
  } else if (s.labTab === 'golden' && s.activeQuestion) {
    const found = s.golden.find((g) => g.id === s.activeQuestion);
    // With several documents open, only a question of the document shown is drawn (and only what it retrieved there).
    const set = s.openDocuments && s.openDocuments.length > 0 ? (s as AppState) : null;
    const q = found && (!set || belongsToActive(set, found)) ? found : undefined;
    const at = s.run && q ? s.run.ids.indexOf(q.id) : -1;
    const measured = at >= 0 ? s.run!.payload.result.questions[at] : undefined;
    const current = set && s.run?.corpus ? runIsCurrent(set) : s.run?.jobId === s.result.jobId;
    const shown = (document: string) => !s.run?.corpus || document === (set?.docName ?? null);
    if (measured && current) {
      for (const r of measured.retrieved) if (shown(r.document)) out.push({ start: r.start, end: r.end, kind: 'retrieved', badge: `#${r.rank} ${formatScore(r.score)}`, title: `Retrieved at rank ${r.rank}` });
    }
    if (q) {
      for (const r of q.references) {
        const present = s.text.slice(r.start, r.end) === r.content;
        out.push({ start: r.start, end: r.end, kind: present ? 'answer' : 'answer-missing', title: present ? 'Answer span' : 'This answer is no longer at these offsets: mark it again' });
      }
    }
  } else if (s.labTab === 'compare' && s.comparison && s.comparison.jobId === s.result.jobId) {
    const diff = boundaryDiff(s.comparison, s.result);
    const push = (list: number[], kind: MarkKind, title: string) => {
      for (const at of list) {
        if (out.length >= MAX_BOUNDARY_MARKS) return;
        out.push({ start: at, end: at, kind, title });
      }
    };
    push(diff.onlyA, 'only-a', 'Boundary only in A (pinned)');
    push(diff.onlyB, 'only-b', 'Boundary only in B (current)');
    push(diff.both, 'both', 'Boundary in both');
  }
  return out;
}

import type { StateCreator } from 'zustand';
import type { LabEvaluatePayload, ProbePayload } from '../worker/protocol';
import type { Config } from './configSlice';
import type { ReferenceState } from './labGolden';
import { addQuestion as withQuestion, deleteQuestion as withoutQuestion, markAnswer as withAnswer, moveToCorpus, removeReference, renameQuestion as renamed, type GoldenItem } from './labGoldenEdits';
import type { CorpusSnapshot } from './documentSetLab';
import type { OpenDocument } from './documentSetSlice';
import type { LlmCompareRow, LlmCompareState } from './labLlm';
import { clampLabShare, DEFAULT_LAB_SHARE } from './labLayout';
import type { SweepPoint } from './labSweep';

/**
 * The evaluation lab's page state: the query probe, the golden set (stored with the document), the last run of it,
 * the sweep and the pinned configuration A. What runs is in labJobs.ts; what is derived (editor marks, winners) in
 * selectors and the pure lab*.ts modules.
 */

export type LabTab = 'probe' | 'golden' | 'sweep' | 'compare' | 'llm';

export interface ProbeView extends ProbePayload {
  /** performance.now() of the input (a slider move, a keystroke) this ranking answers. */
  requestedAt: number;
  /** The document version it ranked (its offsets stay valid, and it stays on screen, until the text changes). */
  version: number;
  /** The evaluation settings it answered (labBaseline.settingsKey): other settings show it as pending, never as theirs. */
  settingsKey: string;
  /** The retriever and embedder that ranked it (named beside it, also while it is pending). */
  retriever: string;
  embedder: string;
}

export interface LabRun {
  payload: LabEvaluatePayload;
  /** The question ids, in the order the run measured them. */
  ids: string[];
  /** The result's job (the painted chunks it scored). */
  jobId: number;
  /** The retriever that ranked (named beside the means). */
  retriever?: string;
  /** The embedder of a run whose retriever embeds ('builtin', a hub id, 'local/…'). */
  embedder?: string;
  /** BM25's means on the same chunks and questions, when the run's retriever embeds (the honest baseline). */
  bm25Means?: Record<string, number> | null;
  /**
   * A run over several open documents: what it measured (it stays shown across document switches while the texts and
   * the configuration are the same) and the document shown when it ran (whose chunks `leafOf` numbers).
   */
  corpus?: { snapshot: CorpusSnapshot; active: string };
}

export interface SweepState {
  points: SweepPoint[];
  done: number;
  running: boolean;
  error: string | null;
  startedAt: number;
  ms: number;
}

export interface Comparison {
  /** The pinned configuration's leaves (its boundaries) and its run of the golden set. */
  starts: Int32Array;
  ends: Int32Array;
  runA: LabEvaluatePayload | null;
  runB: LabEvaluatePayload | null;
  /** Job of B's run (the painted chunks). */
  jobId: number;
}

/** The lab's state (its actions are LabActions). */
export interface LabState {
  labOpen: boolean;
  labTab: LabTab;
  /** The open lab's share of the editor pane's height (labLayout.ts; remembered across visits). */
  labShare: number;
  query: string;
  probe: ProbeView | null;
  probeError: string | null;
  golden: GoldenItem[];
  referenceStates: Map<string, ReferenceState[]>;
  activeQuestion: string | null;
  run: LabRun | null;
  labRunning: boolean;
  runError: string | null;
  sweepState: SweepState | null;
  pinned: Config | null;
  comparison: Comparison | null;
  compareError: string | null;
  /** Plain chunks against the page's LLM result under each retriever (labLlm.ts). */
  llmCompare: LlmCompareState | null;
  /** Why the LLM comparison could not run (no question, a stale result). */
  llmCompareError: string | null;
  /** The editor's selection (UTF-16 offsets), for "Mark as answer". */
  editorSelection: { start: number; end: number } | null;
}

/**
 * The lab's transitions, one named action each: what the person does (first group), then what the lab's jobs
 * (labJobs.ts) report. Each is a pure function of the state (lab.test.ts runs them on the store, without a component).
 */
export interface LabActions {
  // ---- the person ----
  toggleLab(): void;
  /** The split moved (dragged, a key, or read back from storage): clamped to labLayout's bounds. */
  setLabShare(share: number): void;
  showLabTab(tab: LabTab): void;
  setQuery(query: string): void;
  /** A new question, made the active one (blank text: nothing). */
  addQuestion(question: string): void;
  /** The editor's selection marked as an answer of the active question (none active, or no selection: nothing). */
  markAnswer(): void;
  /** Questions from a file appended; the first becomes active; the last run is dropped (its questions changed). */
  importQuestions(items: GoldenItem[]): void;
  renameQuestion(id: string, question: string): void;
  selectQuestion(id: string | null): void;
  /** The question on the golden-set tab, active (from the comparison's table). */
  openQuestion(id: string | null): void;
  deleteQuestion(id: string): void;
  removeAnswer(id: string, index: number): void;
  setEditorSelection(selection: { start: number; end: number } | null): void;
  /** The current configuration pinned as A; the compare tab shown. */
  pinConfiguration(): void;
  unpinConfiguration(): void;
  /** A pinned configuration from a share link or the saved page: the lab opens on the comparison. */
  restorePinned(pinned: Config): void;
  // ---- the lab's jobs ----
  /** The golden set read back with the document (storage). */
  loadGolden(golden: GoldenItem[]): void;
  /** The golden set re-anchored in the edited text (`set` only when a reference moved). */
  reanchored(states: Map<string, ReferenceState[]>, set?: GoldenItem[]): void;
  probeAnswered(probe: ProbeView): void;
  probeFailed(message: string): void;
  clearProbe(): void;
  goldenRunRefused(message: string): void;
  goldenRunStarted(): void;
  goldenRunFinished(run: LabRun): void;
  goldenRunFailed(message: string): void;
  /** A sweep of these (not yet measured) points begins. */
  startSweep(points: SweepPoint[], startedAt: number): void;
  /** A sweep that cannot run: why. */
  sweepRefused(error: string, startedAt: number): void;
  /** Point i measured (or failed, in `point.error`); `ms` since the sweep started. */
  sweepPointDone(index: number, point: SweepPoint, ms: number): void;
  sweepFinished(ms: number): void;
  /** A running sweep stopped by the person: says how far it got. */
  sweepCancelled(): void;
  compared(comparison: Comparison): void;
  compareFailed(message: string): void;
  clearComparison(): void;
  llmCompareStarted(state: LlmCompareState): void;
  llmCompareRowDone(index: number, row: LlmCompareRow): void;
  llmCompareFinished(): void;
  llmCompareRefused(message: string): void;
  resetLab(): void;
}

export type LabSlice = LabState & LabActions;

const initial = (): LabState => ({
  labOpen: false,
  labTab: 'probe',
  labShare: DEFAULT_LAB_SHARE,
  query: '',
  probe: null,
  probeError: null,
  golden: [],
  referenceStates: new Map<string, ReferenceState[]>(),
  activeQuestion: null,
  run: null,
  labRunning: false,
  runError: null,
  sweepState: null,
  pinned: null,
  comparison: null,
  compareError: null,
  llmCompare: null,
  llmCompareError: null,
  editorSelection: null,
});

/** What the lab reads from the other slices: the document's text (answers are marked in it) and the configuration (pinned). */
type LabReads = { text: string; config: Config; docName: string | null; openDocuments: OpenDocument[] };

export const createLabSlice: StateCreator<LabSlice & LabReads, [], [], LabSlice> = (set, get) => ({
  ...initial(),
  toggleLab: () => set((s) => ({ labOpen: !s.labOpen })),
  setLabShare: (share) => set({ labShare: clampLabShare(share) }),
  showLabTab: (labTab) => set({ labTab }),
  setQuery: (query) => set({ query }),
  addQuestion: (question) => {
    if (!question.trim()) return;
    const { openDocuments, docName } = get();
    let golden = withQuestion(get().golden, question);
    const id = golden[golden.length - 1]!.id;
    // With several documents open, a new question belongs to the one shown (its answers are marked there).
    if (openDocuments.length > 0) golden = moveToCorpus(golden, id, docName ?? 'untitled');
    set({ golden, activeQuestion: id });
  },
  markAnswer: () => {
    const { golden, activeQuestion, editorSelection, text, openDocuments, docName } = get();
    if (!editorSelection || !golden.some((q) => q.id === activeQuestion)) return;
    // An answer marked in the editor belongs to the document shown (with several open, the question follows it).
    const owned = openDocuments.length > 0 ? moveToCorpus(golden, activeQuestion!, docName ?? 'untitled') : golden;
    set({ golden: withAnswer(owned, activeQuestion!, text, editorSelection.start, editorSelection.end) });
  },
  importQuestions: (items) => set((s) => ({ golden: [...s.golden, ...items], activeQuestion: items[0]?.id ?? s.activeQuestion, run: null })),
  renameQuestion: (id, question) => set((s) => ({ golden: renamed(s.golden, id, question) })),
  selectQuestion: (activeQuestion) => set({ activeQuestion }),
  openQuestion: (activeQuestion) => set({ labTab: 'golden', activeQuestion }),
  deleteQuestion: (id) => set((s) => ({ golden: withoutQuestion(s.golden, id), activeQuestion: s.activeQuestion === id ? null : s.activeQuestion })),
  removeAnswer: (id, index) => set((s) => ({ golden: removeReference(s.golden, id, index) })),
  setEditorSelection: (editorSelection) => set({ editorSelection }),
  pinConfiguration: () => set((s) => ({ pinned: { ...s.config }, labTab: 'compare' })),
  unpinConfiguration: () => set({ pinned: null, comparison: null, compareError: null }),
  restorePinned: (pinned) => set({ pinned, labOpen: true, labTab: 'compare' }),
  loadGolden: (golden) => set({ golden }),
  reanchored: (referenceStates, golden) => set(golden ? { golden, referenceStates } : { referenceStates }),
  probeAnswered: (probe) => set({ probe, probeError: null }),
  probeFailed: (probeError) => set({ probeError }),
  clearProbe: () => set({ probe: null, probeError: null }),
  goldenRunRefused: (runError) => set({ runError }),
  goldenRunStarted: () => set({ labRunning: true, runError: null }),
  goldenRunFinished: (run) => set({ run, labRunning: false }),
  goldenRunFailed: (runError) => set({ labRunning: false, runError }),
  startSweep: (points, startedAt) => set({ sweepState: { points, done: 0, running: true, error: null, startedAt, ms: 0 } }),
  sweepRefused: (error, startedAt) => set({ sweepState: { points: [], done: 0, running: false, startedAt, ms: 0, error } }),
  sweepPointDone: (index, point, ms) =>
    set((s) => {
      const sweep = s.sweepState!;
      const points = sweep.points.slice();
      points[index] = point;
      return { sweepState: { ...sweep, points, done: index + 1, ms } };
    }),
  sweepFinished: (ms) => set((s) => ({ sweepState: { ...s.sweepState!, running: false, ms } })),
  sweepCancelled: () =>
    set((s) => {
      const st = s.sweepState;
      return st?.running ? { sweepState: { ...st, running: false, error: `Cancelled after ${st.done} of ${st.points.length} configurations.` } } : s;
    }),
  compared: (comparison) => set({ comparison, compareError: null }),
  compareFailed: (compareError) => set({ compareError }),
  clearComparison: () => set({ comparison: null }),
  llmCompareStarted: (llmCompare) => set({ llmCompare, llmCompareError: null }),
  llmCompareRowDone: (index, row) =>
    set((s) => {
      if (!s.llmCompare) return s;
      const rows = s.llmCompare.rows.slice();
      rows[index] = row;
      return { llmCompare: { ...s.llmCompare, rows, done: s.llmCompare.done + 1 } };
    }),
  llmCompareFinished: () => set((s) => (s.llmCompare ? { llmCompare: { ...s.llmCompare, running: false } } : s)),
  llmCompareRefused: (llmCompareError) => set({ llmCompareError }),
  resetLab: () => set(initial()),
});

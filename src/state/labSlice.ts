import type { StateCreator } from 'zustand';
import type { LabEvaluatePayload, ProbePayload } from '../worker/protocol';
import type { Config } from './configSlice';
import type { GoldenItem, ReferenceState } from './labGolden';
import type { SweepPoint } from './labSweep';

/**
 * The evaluation lab's page state: the query probe, the golden set (stored with the document), the last run of it,
 * the sweep and the pinned configuration A. What runs is in labJobs.ts; what is derived (editor marks, winners) in
 * selectors and the pure lab*.ts modules.
 */

export type LabTab = 'probe' | 'golden' | 'sweep' | 'compare';

export interface ProbeView extends ProbePayload {
  /** performance.now() of the input (a slider move, a keystroke) this ranking answers. */
  requestedAt: number;
  /** The document version it ranked (its offsets stay valid, and it stays on screen, until the text changes). */
  version: number;
}

export interface LabRun {
  payload: LabEvaluatePayload;
  /** The question ids, in the order the run measured them. */
  ids: string[];
  /** The result's job (the painted chunks it scored). */
  jobId: number;
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

export interface LabSlice {
  labOpen: boolean;
  labTab: LabTab;
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
  /** The editor's selection (UTF-16 offsets), for "Mark as answer". */
  editorSelection: { start: number; end: number } | null;
  setLab: (patch: Partial<Omit<LabSlice, 'setLab' | 'resetLab'>>) => void;
  resetLab: () => void;
}

const initial = {
  labOpen: false,
  labTab: 'probe' as LabTab,
  query: '',
  probe: null,
  probeError: null,
  golden: [] as GoldenItem[],
  referenceStates: new Map<string, ReferenceState[]>(),
  activeQuestion: null,
  run: null,
  labRunning: false,
  runError: null,
  sweepState: null,
  pinned: null,
  comparison: null,
  compareError: null,
  editorSelection: null,
};

export const createLabSlice: StateCreator<LabSlice, [], [], LabSlice> = (set) => ({
  ...initial,
  setLab: (patch) => set(patch),
  resetLab: () => set({ ...initial, referenceStates: new Map() }),
});

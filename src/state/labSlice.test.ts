import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStore } from './store';
import type { SweepPoint } from './labSweep';

// The lab's transitions on the store itself, no component: what each named action does to the lab's state.

const TEXT = 'Alpha beta.  Gamma delta epsilon. Zeta.';
const state = () => useStore.getState();
const point = (size: number, recall: number | null): SweepPoint => ({ values: { size }, means: recall === null ? null : ({ recall } as SweepPoint['means']), chunks: null, tokens: null, ms: 1 });

beforeEach(() => {
  resetStore();
  state().setDocument(TEXT, { name: null });
});

describe('the lab slice', () => {
  it('opens, closes and switches tabs; keeps the question typed', () => {
    expect(state().labOpen).toBe(false);
    state().toggleLab();
    expect(state().labOpen).toBe(true);
    state().showLabTab('sweep');
    state().setQuery('what is gamma');
    expect(state()).toMatchObject({ labTab: 'sweep', query: 'what is gamma' });
    state().toggleLab();
    expect(state().labOpen).toBe(false);
  });

  it('adds a question and makes it active; a blank one is not added', () => {
    state().addQuestion('  What is gamma? ');
    const [q] = state().golden;
    expect(q).toMatchObject({ question: 'What is gamma?', references: [] });
    expect(state().activeQuestion).toBe(q!.id);
    state().addQuestion('   ');
    expect(state().golden).toHaveLength(1);
    state().addQuestion('Zeta?');
    expect(state().activeQuestion).toBe(state().golden[1]!.id);
  });

  it("marks the editor's selection as the active question's answer (trimmed), and nothing without both", () => {
    state().setEditorSelection({ start: 11, end: 19 });
    state().markAnswer(); // no question yet
    expect(state().golden).toEqual([]);
    state().addQuestion('gamma?');
    const id = state().activeQuestion!;
    state().markAnswer();
    expect(state().golden[0]!.references).toEqual([{ start: 13, end: 18, content: 'Gamma' }]);
    state().setEditorSelection(null);
    state().markAnswer();
    expect(state().golden[0]!.references).toHaveLength(1);
    state().setEditorSelection({ start: 34, end: 39 });
    state().selectQuestion(null);
    state().markAnswer(); // no active question
    expect(state().golden[0]!.references).toHaveLength(1);
    state().selectQuestion(id);
    state().markAnswer();
    expect(state().golden[0]!.references.map((r) => r.content)).toEqual(['Gamma', 'Zeta.']);
    state().removeAnswer(id, 0);
    expect(state().golden[0]!.references.map((r) => r.content)).toEqual(['Zeta.']);
  });

  it('renames and deletes questions (deleting the active one leaves none active)', () => {
    state().addQuestion('one');
    state().addQuestion('two');
    const [a, b] = state().golden.map((q) => q.id);
    state().renameQuestion(a!, 'first');
    expect(state().golden.map((q) => q.question)).toEqual(['first', 'two']);
    state().deleteQuestion(a!);
    expect(state().activeQuestion).toBe(b); // another was active: it stays
    state().deleteQuestion(b!);
    expect(state().golden).toEqual([]);
    expect(state().activeQuestion).toBeNull();
  });

  it('imports questions after the others, the first imported active, and drops the last run', () => {
    state().addQuestion('mine');
    useStore.setState({ run: { payload: {} as never, ids: [], jobId: 1 } });
    state().importQuestions([
      { id: 'i1', question: 'imported 1', references: [] },
      { id: 'i2', question: 'imported 2', references: [] },
    ]);
    expect(state().golden.map((q) => q.question)).toEqual(['mine', 'imported 1', 'imported 2']);
    expect(state().activeQuestion).toBe('i1');
    expect(state().run).toBeNull();
    const active = state().activeQuestion;
    state().importQuestions([]);
    expect(state().activeQuestion).toBe(active);
  });

  it('opens a question from the comparison on the golden-set tab', () => {
    state().showLabTab('compare');
    state().openQuestion('q7');
    expect(state()).toMatchObject({ labTab: 'golden', activeQuestion: 'q7' });
  });

  it('pins a copy of the configuration on the compare tab; unpinning drops the comparison; a restored pin opens the lab', () => {
    state().setConfig({ size: 300 });
    state().pinConfiguration();
    expect(state().pinned).toEqual(state().config);
    expect(state().pinned).not.toBe(state().config);
    expect(state().labTab).toBe('compare');
    state().setConfig({ size: 500 });
    expect(state().pinned!.size).toBe(300);
    state().compared({ starts: new Int32Array(), ends: new Int32Array(), runA: null, runB: null, jobId: 1 });
    state().compareFailed('Configuration A: broken');
    state().unpinConfiguration();
    expect(state()).toMatchObject({ pinned: null, comparison: null, compareError: null });
    state().restorePinned({ ...state().config, size: 128 });
    expect(state()).toMatchObject({ labOpen: true, labTab: 'compare' });
    expect(state().pinned!.size).toBe(128);
  });

  it('runs the golden set: started, then finished or failed (running cleared either way)', () => {
    state().goldenRunRefused('Add a question first.');
    expect(state().runError).toBe('Add a question first.');
    state().goldenRunStarted();
    expect(state()).toMatchObject({ labRunning: true, runError: null });
    const run = { payload: {} as never, ids: ['a'], jobId: 3 };
    state().goldenRunFinished(run);
    expect(state()).toMatchObject({ labRunning: false, run });
    state().goldenRunStarted();
    state().goldenRunFailed('boom');
    expect(state()).toMatchObject({ labRunning: false, runError: 'boom', run });
  });

  it('sweeps: points fill in order, the finish stops it, a cancel says how far it got', () => {
    state().startSweep([point(128, null), point(256, null), point(512, null)], 10);
    expect(state().sweepState).toMatchObject({ done: 0, running: true, error: null, startedAt: 10 });
    state().sweepPointDone(0, point(128, 0.5), 20);
    state().sweepPointDone(1, point(256, 0.75), 30);
    expect(state().sweepState!.points.map((p) => p.means?.recall ?? null)).toEqual([0.5, 0.75, null]);
    expect(state().sweepState).toMatchObject({ done: 2, ms: 30, running: true });
    state().sweepCancelled();
    expect(state().sweepState).toMatchObject({ running: false, error: 'Cancelled after 2 of 3 configurations.' });
    // Cancelling a sweep that is not running changes nothing (not even the state object).
    const before = state();
    state().sweepCancelled();
    expect(state()).toBe(before);
    state().startSweep([point(128, null)], 40);
    state().sweepPointDone(0, point(128, 1), 5);
    state().sweepFinished(6);
    expect(state().sweepState).toMatchObject({ running: false, done: 1, ms: 6, error: null });
    state().sweepRefused('No configuration to run.', 50);
    expect(state().sweepState).toEqual({ points: [], done: 0, running: false, startedAt: 50, ms: 0, error: 'No configuration to run.' });
  });

  it('shows the probe answer or its error, and clears both', () => {
    const probe = { jobId: 1, query: 'q', hits: [], matched: 0, units: 0, indexMs: 0, searchMs: 0, requestedAt: 0, version: 1, settingsKey: '{}', retriever: 'bm25', embedder: 'builtin' };
    state().probeFailed('bad');
    state().probeAnswered(probe);
    expect(state()).toMatchObject({ probe, probeError: null });
    state().probeFailed('worse');
    expect(state()).toMatchObject({ probe, probeError: 'worse' });
    state().clearProbe();
    expect(state()).toMatchObject({ probe: null, probeError: null });
  });

  it('loads and re-anchors the golden set (the set replaced only when given)', () => {
    const set = [{ id: 'a', question: 'q', references: [{ start: 0, end: 5, content: 'Alpha' }] }];
    state().loadGolden(set);
    expect(state().golden).toBe(set);
    const states = new Map([['a', [{ status: 'exact' as const }]]]) as never;
    state().reanchored(states);
    expect(state().golden).toBe(set);
    expect(state().referenceStates).toBe(states);
    const moved = [{ ...set[0]!, references: [{ start: 1, end: 6, content: 'Alpha' }] }];
    state().reanchored(states, moved);
    expect(state().golden).toBe(moved);
  });

  it('resets to an empty lab', () => {
    state().toggleLab();
    state().addQuestion('q');
    state().resetLab();
    expect(state()).toMatchObject({ labOpen: false, golden: [], activeQuestion: null, query: '', labTab: 'probe' });
  });
});

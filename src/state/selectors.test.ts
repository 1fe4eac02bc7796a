import { beforeEach, describe, expect, it } from 'vitest';
import { chunksAt, selectContextBudget } from './selectors';
import { resetStore, useStore } from './store';
import type { PaintableResult } from './resultsSlice';

function result(spans: [number, number][], unit = 'chars'): PaintableResult {
  const n = spans.length;
  return {
    jobId: 7,
    version: 1,
    documentSerial: 1,
    starts: Int32Array.from(spans.map((s) => s[0])),
    ends: Int32Array.from(spans.map((s) => s[1])),
    sizes: Float64Array.from(spans.map((s) => s[1] - s[0])),
    overlaps: new Int32Array(Math.max(0, n - 1)),
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
    stats: { count: n, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 },
    limit: 100,
    unit,
    elapsedMs: 0,
    text: '',
    requestedAt: 0,
    options: {},
  };
}

describe('chunksAt', () => {
  const r = result([
    [0, 10],
    [8, 20],
    [25, 30],
  ]);
  it('finds every chunk holding an offset, overlaps included', () => {
    expect(chunksAt(r.starts, r.ends, 0)).toEqual([0]);
    expect(chunksAt(r.starts, r.ends, 9)).toEqual([0, 1]);
    expect(chunksAt(r.starts, r.ends, 10)).toEqual([1]);
  });
  it('finds none in a gap a splitter dropped, or past the end', () => {
    expect(chunksAt(r.starts, r.ends, 22)).toEqual([]);
    expect(chunksAt(r.starts, r.ends, 30)).toEqual([]);
  });
});

describe('context budget', () => {
  beforeEach(() => resetStore());

  it('waits for token counts when sizes are in characters', () => {
    useStore.getState().setResult(result([[0, 400]]));
    expect(selectContextBudget(useStore.getState()).usedTokens).toBeNull();
  });

  it('is k chunks × mean tokens against the window', () => {
    const s = useStore.getState();
    s.setConfig({ chunksInContext: 4, contextWindow: 1000 });
    s.setResult(result([[0, 400], [400, 800]]));
    s.setTokens({ jobId: 7, tokens: Int32Array.of(100, 150), encoding: 'cl100k_base' });
    const budget = selectContextBudget(useStore.getState());
    expect(budget.meanTokens).toBe(125);
    expect(budget.usedTokens).toBe(500);
    expect(budget.fraction).toBe(0.5);
  });

  it('uses the sizes themselves when the unit is a token encoding', () => {
    const s = useStore.getState();
    s.setConfig({ chunksInContext: 2, contextWindow: 100 });
    s.setResult(result([[0, 30], [30, 100]], 'cl100k_base'));
    const budget = selectContextBudget(useStore.getState());
    expect(budget.usedTokens).toBe(100); // mean size (30 + 70) / 2 = 50, times 2
    expect(budget.encoding).toBe('cl100k_base');
  });

  it('ignores token counts from an older job', () => {
    const s = useStore.getState();
    s.setResult(result([[0, 10]]));
    s.setTokens({ jobId: 6, tokens: Int32Array.of(3), encoding: 'cl100k_base' });
    expect(useStore.getState().tokens).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortSweepRows, sweepColumns, sweepCsv, sweepJson, sweepRows, type SweepPoint } from './labSweep';

const point = (size: number, overlap: number, recall: number | null, extra: Partial<SweepPoint> = {}): SweepPoint => ({
  values: { size, overlap },
  means: recall === null ? null : { recall, iou: recall / 2, hit: 1 },
  chunks: recall === null ? null : 1000 / size,
  tokens: recall === null ? null : 5000,
  ms: 12.4,
  ...extra,
});

describe('the sweep table', () => {
  const points = [point(128, 0, 0.9), point(256, 0, 0.95), point(512, 64, 0.8), point(1024, 0, null), point(64, 128, null, { error: 'overlap must be below the size' })];
  const columns = sweepColumns(points, ['recall', 'precision', 'iou', 'hit'], { recall: 'Recall' });

  it('has a column for each varying value, every metric, and the cost', () => {
    expect(columns.map((c) => c.key)).toEqual(['size', 'overlap', 'recall', 'iou', 'hit', 'chunks', 'tokens', 'ms']);
    expect(columns.find((c) => c.key === 'recall')!.label).toBe('Recall');
    const withRetrievers = sweepColumns([{ ...point(128, 0, 0.5), values: { size: 128, overlap: 0, retriever: 'dense' } }], ['recall']);
    expect(withRetrievers.map((c) => c.key)).toContain('retriever');
    expect(withRetrievers.map((c) => c.key)).not.toContain('strategy');
  });

  it('lists measured and refused points, not the ones still to run', () => {
    const rows = sweepRows(points, columns);
    expect(rows.map((r) => r.point)).toEqual([0, 1, 2, 4]);
    expect(rows[3]!.error).toMatch(/overlap/);
    expect(rows[0]!.values).toMatchObject({ size: 128, overlap: 0, recall: 0.9, chunks: 1000 / 128, ms: 12 });
  });

  it('sorts by any column, both ways, empty cells last', () => {
    const rows = sweepRows(points, columns);
    expect(sortSweepRows(rows, 'recall', 'desc').map((r) => r.point)).toEqual([1, 0, 2, 4]);
    expect(sortSweepRows(rows, 'recall', 'asc').map((r) => r.point)).toEqual([2, 0, 1, 4]);
    expect(sortSweepRows(rows, 'size', 'asc').map((r) => r.point)).toEqual([4, 0, 1, 2]);
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ noNaN: true }), { nil: null }), { maxLength: 30 }), fc.boolean(), (values, asc) => {
        const rs = values.map((v, i) => ({ point: i, values: { m: v } }));
        const sorted = sortSweepRows(rs, 'm', asc ? 'asc' : 'desc');
        expect(sorted).toHaveLength(rs.length);
        const nums = sorted.map((r) => r.values.m).filter((v): v is number => v !== null);
        for (let i = 1; i < nums.length; i++) expect(asc ? nums[i]! >= nums[i - 1]! : nums[i]! <= nums[i - 1]!).toBe(true);
        const firstNull = sorted.findIndex((r) => r.values.m === null);
        if (firstNull >= 0) expect(sorted.slice(firstNull).every((r) => r.values.m === null)).toBe(true);
      }),
    );
  });

  it('exports CSV and JSON with every configuration and every metric', () => {
    const rows = sweepRows(points, columns);
    const csv = sweepCsv(rows, columns).trim().split('\n');
    expect(csv[0]).toBe('size,overlap,recall,iou,hit,chunks,tokens,ms,error');
    expect(csv[1]).toBe('128,0,0.9,0.45,1,7.8125,5000,12,');
    expect(csv[4]).toBe('64,128,,,,,,12,overlap must be below the size');
    const json = JSON.parse(sweepJson(rows, columns, 5));
    expect(json.k).toBe(5);
    expect(json.configurations).toHaveLength(4);
    expect(json.configurations[1]).toEqual({ configuration: { size: 256, overlap: 0 }, means: { recall: 0.95, iou: 0.475, hit: 1 }, cost: { chunks: 1000 / 256, tokens: 5000, ms: 12 } });
    expect(sweepCsv([{ point: 0, values: { size: 'a,"b"' } }], [{ key: 'size', label: 'Size', kind: 'config' }])).toBe('size,error\n"a,""b""",\n');
  });
});

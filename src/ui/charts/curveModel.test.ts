import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scaleLinear } from 'd3-scale';
import {
  breakpointChanges,
  clampThreshold,
  compact,
  curveLayout,
  curvePath,
  curveScales,
  distanceTop,
  dotAttributes,
  dotPlan,
  gapAtX,
  gapsInView,
  hoverLabel,
  HOVER_REACH,
  MARGIN,
  MAX_DOTS,
  nearestGap,
  overviewPath,
  thresholdAfterKey,
  thresholdView,
  viewDomain,
  xTickCount,
  zoomFromBrush,
} from './curveModel';

/** Ascending gap offsets. */
const arbOffsets = fc.array(fc.nat(50), { maxLength: 60 }).map((steps) => {
  let at = 0;
  return Int32Array.from(steps.map((s) => (at += s + 1)));
});

/** The path's commands as [command, x, y]. */
function commands(path: string): [string, number, number][] {
  return [...path.matchAll(/([ML])(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [m[1]!, Number(m[2]), Number(m[3])]);
}

describe('layout, domains and scales', () => {
  const layout = curveLayout(600, 200);

  it('lays the plot out inside the margins with the overview strip below it', () => {
    expect(layout).toEqual({ width: 600, left: 40, right: 586, plotWidth: 546, plotBottom: 178, overviewTop: 208, svgHeight: 240 });
  });

  it('shows the whole document unless a zoom that still fits the document is set', () => {
    expect(viewDomain(null, 1000)).toEqual({ full: [0, 1000], view: [0, 1000], zoom: null });
    expect(viewDomain([100, 300], 1000)).toEqual({ full: [0, 1000], view: [100, 300], zoom: [100, 300] });
    expect(viewDomain([100, 3000], 1000).zoom).toBeNull(); // the document got shorter
    expect(viewDomain([300, 300], 1000).zoom).toBeNull();
    expect(viewDomain(null, 0).full).toEqual([0, 1]); // an empty document still has an axis
  });

  it('the distance axis has room above the largest distance and the threshold, ignoring missing ones', () => {
    expect(distanceTop(Float64Array.from([0.2, NaN, 0.5]), NaN)).toBeCloseTo(0.54);
    expect(distanceTop(Float64Array.from([0.2, 0.5]), 0.9)).toBeCloseTo(0.972);
    expect(distanceTop(Float64Array.from([0.001]), NaN)).toBeCloseTo(0.054);
    expect(distanceTop(new Float64Array(0), NaN)).toBeCloseTo(0.054);
  });

  it('x maps the view onto the plot, the overview maps the whole document, y puts 0 at the bottom', () => {
    const { x, y, ox, oy } = curveScales(layout, [100, 300], [0, 1000], Float64Array.from([0.3, 0.7]), 0.4);
    expect([x(100), x(300)]).toEqual([layout.left, layout.right]);
    expect([ox(0), ox(1000)]).toEqual([layout.left, layout.right]);
    expect(y(0)).toBe(layout.plotBottom);
    expect(y(y.domain()[1]!)).toBe(MARGIN.top);
    expect(y.domain()[1]).toBeGreaterThanOrEqual(0.7 * 1.08); // rounded up to a nice value
    expect(y.domain()[1]).toBeCloseTo(0.8);
    expect(oy.domain()).toEqual(y.domain());
    expect(oy(0)).toBe(layout.overviewTop + 22);
  });

  it('picks about one document tick per 110 px and writes offsets compactly', () => {
    expect(xTickCount(200)).toBe(2);
    expect(xTickCount(1100)).toBe(10);
    expect([950, 1500, 12_345, 2_345_678, 1_000_000].map(compact)).toEqual(['950', '1.5k', '12k', '2.3M', '1M']);
  });
});

describe('gaps in view and hover lookup', () => {
  it('gapsInView is exactly the gaps whose offsets lie in the view', () => {
    fc.assert(
      fc.property(arbOffsets, fc.nat(3000), fc.nat(3000), (offsets, a, b) => {
        const view: [number, number] = [Math.min(a, b), Math.max(a, b)];
        const { lo, hi } = gapsInView(offsets, view);
        const inside = [...offsets.keys()].filter((i) => offsets[i]! >= view[0] && offsets[i]! <= view[1]);
        expect(Array.from({ length: hi - lo }, (_, k) => lo + k)).toEqual(inside);
      }),
    );
  });

  it('nearestGap is the gap at the least distance, the earlier one on a tie', () => {
    fc.assert(
      fc.property(arbOffsets, fc.integer({ min: -10, max: 3000 }), (offsets, at) => {
        const got = nearestGap(offsets, at);
        if (offsets.length === 0) {
          expect(got).toBe(-1);
          return;
        }
        const best = Math.min(...Array.from(offsets, (o) => Math.abs(o - at)));
        expect(got).toBe(Array.from(offsets).findIndex((o) => Math.abs(o - at) === best));
      }),
    );
  });

  it('gapAtX finds the nearest point only within reach of the pointer', () => {
    const x = scaleLinear().domain([0, 1000]).range([40, 1040]); // one pixel per offset
    const offsets = Int32Array.from([100, 500]);
    expect(gapAtX(offsets, x, 140)).toBe(0);
    expect(gapAtX(offsets, x, 140 + HOVER_REACH)).toBe(0);
    expect(gapAtX(offsets, x, 140 + HOVER_REACH + 1)).toBeNull();
    expect(gapAtX(offsets, x, 530)).toBe(1);
    expect(gapAtX(new Int32Array(0), x, 140)).toBeNull();
  });
});

describe('curvePath', () => {
  const identity = (v: number) => v;
  const flip = (v: number) => 100 - v * 100;

  it('draws every point in view and one past each edge; a missing distance breaks the line', () => {
    const distances = Float64Array.from([0.1, 0.2, NaN, 0.4, 0.5, 0.6]);
    const offsets = Int32Array.from([10, 20, 30, 40, 50, 60]);
    const path = curvePath(distances, offsets, identity, flip, 1, 4, 500);
    // Gaps 0..4 ([lo − 1, hi + 1)), gap 2 missing.
    expect(commands(path)).toEqual([
      ['M', 10, 90],
      ['L', 20, 80],
      ['M', 40, 60],
      ['L', 50, 50],
    ]);
  });

  it('aggregates a dense document per pixel column: one stroke from its lowest to its highest value', () => {
    const n = 50_000;
    const offsets = Int32Array.from({ length: n }, (_, i) => i);
    const distances = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 1000);
    const x = (o: number) => (o / n) * 200; // 200 px wide: 250 points per column
    const y = (v: number) => v * 100;
    const path = curvePath(distances, offsets, x, y, 0, n, 200);
    const cmds = commands(path);
    expect(cmds.length).toBeLessThanOrEqual(2 * 201); // grows with the width, not the document
    const byColumn = new Map<number, [number, number]>();
    for (let i = 0; i < n; i++) {
      const col = Math.round(x(offsets[i]!));
      const [lo, hi] = byColumn.get(col) ?? [Infinity, -Infinity];
      byColumn.set(col, [Math.min(lo, distances[i]!), Math.max(hi, distances[i]!)]);
    }
    expect(cmds.length).toBe(2 * byColumn.size);
    for (let k = 0; k < cmds.length; k += 2) {
      const [, col, yMin] = cmds[k]!;
      const [, col2, yMax] = cmds[k + 1]!;
      expect(col2).toBe(col);
      const [lo, hi] = byColumn.get(col)!;
      expect(yMin).toBeCloseTo(y(lo), 1);
      expect(yMax).toBeCloseTo(y(hi), 1);
    }
    expect(cmds[0]![0]).toBe('M');
    expect(cmds.slice(1).every(([c]) => c === 'L')).toBe(true);
  });

  it('the overview line keeps about 1,500 points of any document', () => {
    const n = 30_000;
    const offsets = Int32Array.from({ length: n }, (_, i) => i);
    const distances = Float64Array.from({ length: n }, () => 0.5);
    const cmds = commands(overviewPath(distances, offsets, identity, identity));
    expect(cmds.length).toBe(1500);
    expect(cmds[1]![1] - cmds[0]![1]).toBe(20);
    expect(commands(overviewPath(Float64Array.from([0.1, NaN, 0.3]), Int32Array.from([1, 2, 3]), identity, identity))).toEqual([
      ['M', 1, 0.1],
      ['L', 3, 0.3],
    ]);
  });
});

describe('dots', () => {
  it('one circle per gap, smaller as they crowd; over MAX_DOTS only breakpoints get one', () => {
    expect(dotPlan(300)).toEqual({ dense: false, radius: 3 });
    expect(dotPlan(301)).toEqual({ dense: false, radius: 2.4 });
    expect(dotPlan(1001)).toEqual({ dense: false, radius: 1.8 });
    expect(dotPlan(MAX_DOTS)).toEqual({ dense: false, radius: 1.8 });
    expect(dotPlan(MAX_DOTS + 1)).toEqual({ dense: true, radius: 2.4 });
  });

  it('a gap without a distance sits on the axis, marked missing', () => {
    const distances = Float64Array.from([0.25, NaN]);
    const offsets = Int32Array.from([10, 20]);
    const y = (v: number) => 100 - v * 100;
    expect(dotAttributes(0, distances, offsets, (o) => o * 2, y, 178)).toEqual({ className: 'cs-gap', cx: '20.0', cy: '75.0' });
    expect(dotAttributes(1, distances, offsets, (o) => o * 2, y, 178)).toEqual({ className: 'cs-gap cs-gap-missing', cx: '40.0', cy: '178.0' });
  });

  it('breakpointChanges lists only the gaps that changed', () => {
    const { after, removed, added } = breakpointChanges(new Set([3, 7, 9]), Int32Array.from([3, 9, 12]));
    expect([...after]).toEqual([3, 9, 12]);
    expect(removed).toEqual([7]);
    expect(added).toEqual([12]);
  });
});

describe('threshold', () => {
  const y = scaleLinear().domain([0, 0.8]).range([178, 10]);

  it('sits at its value, at the top when above the axis or absent', () => {
    expect(thresholdView(0.4, y, 'no threshold')).toEqual({ y: 94, shown: true, valueNow: 0.4, valueText: 'distance 0.400', label: 'threshold 0.400' });
    expect(thresholdView(2, y, 'no threshold')).toMatchObject({ y: 10, shown: true, label: 'threshold 2.000' });
    expect(thresholdView(NaN, y, 'gradient mode')).toEqual({ y: 10, shown: false, valueNow: null, valueText: 'none', label: 'gradient mode' });
  });

  it('keys move it by a hundredth (arrows) or a tenth (pages) of the axis, Home and End to the ends, kept on the axis', () => {
    expect(thresholdAfterKey('ArrowUp', 0.4, 0.8)).toBeCloseTo(0.408);
    expect(thresholdAfterKey('ArrowLeft', 0.4, 0.8)).toBeCloseTo(0.392);
    expect(thresholdAfterKey('PageDown', 0.4, 0.8)).toBeCloseTo(0.32);
    expect(thresholdAfterKey('PageUp', 0.79, 0.8)).toBe(0.8);
    expect(thresholdAfterKey('ArrowDown', 0.001, 0.8)).toBe(0);
    expect(thresholdAfterKey('Home', 0.4, 0.8)).toBe(0);
    expect(thresholdAfterKey('End', 0.4, 0.8)).toBe(0.8);
    expect(thresholdAfterKey('ArrowUp', NaN, 0.8)).toBeCloseTo(0.408); // from the middle when there is none
    expect(thresholdAfterKey('a', 0.4, 0.8)).toBeNull();
    expect(clampThreshold(-1, 0.8)).toBe(0);
  });
});

describe('zoom and hover label', () => {
  it('a brushed range zooms to its offsets; a click or a sliver resets', () => {
    const ox = scaleLinear().domain([0, 1000]).range([40, 540]);
    expect(zoomFromBrush([90, 290], ox)).toEqual([100, 500]);
    expect(zoomFromBrush([90, 92], ox)).toBeNull();
    expect(zoomFromBrush(null, ox)).toBeNull();
  });

  it('says the gap, its distance and why it is or is not cut, beside the point and inside the plot', () => {
    const breakpoints = Int32Array.from([4]);
    expect(hoverLabel(4, 0.61234, { cx: 100, cy: 60 }, 600, breakpoints, 0.5)).toEqual({
      x: 108,
      y: 54,
      anchor: 'start',
      text: 'gap 5 · distance 0.612 · cut here · click to show',
    });
    const above = hoverLabel(5, 0.7, { cx: 500, cy: 12 }, 600, breakpoints, 0.5);
    expect([above.x, above.y, above.anchor]).toEqual([492, MARGIN.top + 10, 'end']);
    expect(above.text).toBe('gap 6 · distance 0.700 · above the line, not cut: next to a stronger cut, or merged by the size limits · click to show');
    expect(hoverLabel(6, 0.2, { cx: 500, cy: 80 }, 600, breakpoints, 0.5).text).toBe('gap 7 · distance 0.200 · click to show');
    expect(hoverLabel(7, NaN, { cx: 500, cy: 80 }, 600, breakpoints, 0.5).text).toBe('gap 8 · distance none · click to show');
  });
});

describe('bins where points would overlap', () => {
  it('bins once points are closer than BIN_PX', async () => {
    const { binned, BIN_PX } = await import('./curveModel');
    expect(binned(100, 800)).toBe(false);
    expect(binned(800 / BIN_PX, 800)).toBe(false);
    expect(binned(800 / BIN_PX + 1, 800)).toBe(true);
    expect(binned(50_000, 800)).toBe(true);
  });

  it('property: one mark per bin holding a cut; every cut in view is counted once, at its bin’s highest distance', async () => {
    const { breakpointBins, BIN_PX } = await import('./curveModel');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 100, max: 1200 }), fc.double({ min: 0, max: 1, noNaN: true }), (gaps, width, share) => {
        const offsets = Int32Array.from({ length: gaps }, (_, i) => i * 7);
        const distances = Float64Array.from({ length: gaps }, (_, i) => ((i * 7919) % 101) / 100);
        const cuts = Int32Array.from([...Array(gaps).keys()].filter((i) => (i * 31) % 100 < share * 100));
        const x = (o: number) => (o / Math.max(1, (gaps - 1) * 7)) * width;
        const bins = breakpointBins(cuts, distances, offsets, x, 0, gaps);
        expect(bins.reduce((n, b) => n + b.cuts, 0)).toBe(cuts.length);
        expect(bins.length).toBeLessThanOrEqual(Math.floor(width / BIN_PX) + 1);
        for (let k = 1; k < bins.length; k++) expect(bins[k]!.x - bins[k - 1]!.x).toBeGreaterThanOrEqual(BIN_PX);
        for (const b of bins) {
          const inBin = [...cuts].filter((g) => Math.floor(x(offsets[g]!) / BIN_PX) * BIN_PX + BIN_PX / 2 === b.x);
          expect(b.top).toBe(Math.max(...inBin.map((g) => distances[g]!)));
        }
      }),
      { numRuns: 60 },
    );
  });
});

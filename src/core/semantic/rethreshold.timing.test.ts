import { describe, expect, it } from 'vitest';
import { analyseSemantic, prepareSemantic, splitSemantic, type SemanticCompat, type SemanticParams } from './splitter';

/**
 * Re-splitting cost when only the threshold or the mode changes (issue 3: within 16 ms for 10,000 sentences).
 * Prints the figures; the time is not asserted (shared CI machines), the results are.
 */

const SENTENCES = 10_000;
const DIM = 384;

function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function setup(compat: SemanticCompat) {
  const text = Array.from({ length: SENTENCES }, (_, k) => `Sentence ${k} says something about topic ${k % 17}.`).join(' ');
  const prep = prepareSemantic(text, { compat, regexSentences: true });
  const random = seededRandom(42);
  const vectors = prep.inputs.texts.map(() => Float32Array.from({ length: DIM }, () => random() - 0.5));
  const t0 = performance.now();
  const analysis = analyseSemantic(prep, vectors);
  return { prep, analysis, analyseMs: performance.now() - t0 };
}

function time(fn: () => void, runs: number): { first: number; median: number } {
  const t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { first, median: samples[Math.floor(runs / 2)]! };
}

const SETTINGS: [string, SemanticParams][] = [
  ['percentile 95', { breakpoint: 'percentile', amount: 95 }],
  ['percentile 90', { breakpoint: 'percentile', amount: 90 }],
  ['standard_deviation 1', { breakpoint: 'standard_deviation', amount: 1 }],
  ['interquartile 1.5', { breakpoint: 'interquartile' }],
  ['gradient 95', { breakpoint: 'gradient' }],
  ['absolute 1.05', { breakpoint: 'absolute', amount: 1.05 }],
  ['chunks 200', { chunks: 200 }],
  ['percentile 95, min 200', { breakpoint: 'percentile', minSize: 200 }],
];

describe(`re-thresholding ${SENTENCES} sentences`, () => {
  for (const compat of ['none', 'langchain', 'llamaindex'] as const) {
    it(`${compat}: distances once, then O(n) per setting`, () => {
      const { prep, analysis, analyseMs } = setup(compat);
      expect(prep.sentences).toHaveLength(SENTENCES);
      const lines = [`[semantic re-threshold] ${compat}: analyse (distances, ${DIM}-d) ${analyseMs.toFixed(1)} ms`];
      for (const [label, params] of SETTINGS) {
        const { first, median } = time(() => splitSemantic(analysis, params), 15);
        lines.push(`  ${label.padEnd(24)} first ${first.toFixed(2)} ms, warm median ${median.toFixed(2)} ms`);
      }
      console.log(lines.join('\n'));

      // Random vectors give distinct distances: the 95th percentile sits at index 0.95·9998 = 9498.1 of the sorted
      // 9,999 gaps, so exactly the 500 largest are above it (compat). Native keeps one per neighbourhood.
      const result = splitSemantic(analysis, { breakpoint: 'percentile', amount: 95 });
      if (compat === 'none') {
        expect(result.breakpoints.length).toBeLessThanOrEqual(500);
        expect(result.breakpoints.length).toBeGreaterThan(400);
      } else {
        expect(result.breakpoints).toHaveLength(500);
      }
      expect(splitSemantic(analysis, { breakpoint: 'percentile', amount: 95 })).toEqual(result);
    });
  }
});

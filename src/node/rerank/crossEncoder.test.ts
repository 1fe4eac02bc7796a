import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyCrossEncoder } from '../../testing/tinyCrossEncoder';
import { loadCrossEncoder } from './crossEncoder';

describe('the cross-encoder through transformers.js (a tiny model the test builds)', () => {
  it('scores each (question, passage) pair with the model: the sum of its words\' weights', async () => {
    const folder = writeTinyCrossEncoder(mkdtempSync(join(tmpdir(), 'chunkscope-ce-')), { harbour: 2, froze: 1.5, january: 1, library: -1 });
    const { scorer, dispose } = await loadCrossEncoder(folder);
    try {
      const passages = ['The library opens at nine.', 'The harbour froze in January.', 'Ships waited in the harbour.', 'Nothing here.'];
      const scores = Array.from(await scorer('When did the harbour freeze?', passages));
      // The question holds "harbour" (2) in every pair; each passage adds its own words' weights.
      expect(scores.map((s) => Math.round(s * 1e4) / 1e4)).toEqual([2 - 1, 2 + 2 + 1.5 + 1, 2 + 2, 2]);
      // More passages than one batch (16): the same score for the same pair wherever it sits.
      const many = Array.from({ length: 37 }, (_, i) => passages[i % 4]!);
      const manyScores = Array.from(await scorer('When did the harbour freeze?', many));
      expect(manyScores.map((s, i) => s - scores[i % 4]!).every((d) => Math.abs(d) < 1e-5)).toBe(true);
    } finally {
      await dispose();
    }
  });
});

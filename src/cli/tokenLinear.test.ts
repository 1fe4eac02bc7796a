/**
 * `chunkscope chunk --strategy token` on one long line without spaces (a single giant pre-token piece): it used to
 * run BPE over the whole line with a quadratic merge (a 2 MiB line did not finish in 60 s). Measured by the
 * encoder's merge steps, not by time: from 32 Ki to 128 Ki units the work must grow about 4x (the heap merge is
 * n log n, and from 512 Ki units backtracking is linear), where a quadratic merge grows 16x.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTiktokenUnit } from '../core/units/tiktoken';
import { main } from './main';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-linear-'));

function line(length: number): string {
  let x = 7;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += String.fromCharCode(97 + ((x >>> 8) % 26));
  }
  return out;
}

async function chunkLine(length: number): Promise<{ work: number; chunks: { start: number; end: number; text: string; size: number }[]; text: string }> {
  const text = line(length);
  const path = join(dir, `line-${length}.txt`);
  writeFileSync(path, text);
  const unit = await loadTiktokenUnit('cl100k_base');
  const before = unit.bpe.work;
  let out = '';
  const code = await main(['chunk', path, '--strategy', 'token', '--unit', 'cl100k_base', '--size', '512', '--overlap', '64'], {
    stdout: (s) => (out += s),
    stderr: () => {},
    readStdin: async () => new Uint8Array(),
  });
  expect(code).toBe(0);
  return { work: unit.bpe.work - before, chunks: JSON.parse(out), text };
}

describe('token chunking of a line without spaces', () => {
  it('grows about linearly, and every chunk is an exact span within the size', async () => {
    const small = await chunkLine(32 * 1024);
    const large = await chunkLine(128 * 1024);
    expect(small.work).toBeGreaterThan(0);
    const growth = large.work / small.work;
    expect(growth, `merge steps grew ${growth.toFixed(1)}x for 4x the text`).toBeLessThan(6);
    // By now long pieces have added up to enough for the backtracking merge (bpe.ts BACKTRACK_AFTER).
    const unit = await loadTiktokenUnit('cl100k_base');
    const backtracked = unit.bpe.backtrackedPieces;
    const larger = await chunkLine(512 * 1024);
    expect(unit.bpe.backtrackedPieces).toBeGreaterThan(backtracked);
    const growth2 = larger.work / large.work;
    expect(growth2, `merge steps grew ${growth2.toFixed(1)}x for 4x the text`).toBeLessThan(6);
    for (const r of [small, large, larger]) {
      expect(r.chunks.length).toBeGreaterThan(10);
      for (const c of r.chunks) {
        expect(c.text).toBe(r.text.slice(c.start, c.end));
        expect(c.size).toBeLessThanOrEqual(512);
      }
    }
  });
});

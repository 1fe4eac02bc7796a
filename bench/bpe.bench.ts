/**
 * The merges for giant pre-token pieces side by side (issue 10 item 4): `node --import tsx bench/bpe.bench.ts`.
 * One piece each of letters without spaces, of one emoji and of CJK text, at 16 KiB, 1 MiB and 4 MiB (bytes of
 * UTF-8), merged by the heap (bpe.ts) and by backtracking (bpeBacktrack.ts), interleaved, medians of 3 after a
 * warm-up (js-tiktoken's merge, quadratic, takes over a minute on the 16 KiB line of letters). Both merges are checked to give the same ids.
 * Also: the time to make the backtracking tables, once per encoding (each in a fresh process, as a worker would).
 * Not a timed test.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { byteString } from '../src/core/units/bpe';
import { loadTiktokenUnit, TOKEN_ENCODINGS } from '../src/core/units/tiktoken';
import type { TokenEncodingName } from '../src/core/types';

const KiB = 1024;

if (process.argv[2] === '--build') {
  // Child: make one encoding's backtracking tables and print the milliseconds.
  const unit = await loadTiktokenUnit(process.argv[3] as TokenEncodingName);
  const t0 = performance.now();
  unit.bpe.backtracking();
  console.log((performance.now() - t0).toFixed(0));
  process.exit(0);
}

/** `bytes` UTF-8 bytes of characters drawn from `alphabet` by a seeded generator. */
function line(alphabet: string, bytes: number): string {
  const chars = [...alphabet];
  const width = new TextEncoder().encode(chars[0]!).length;
  let x = 12345;
  let out = '';
  for (let i = 0; i < bytes / width; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += chars[(x >>> 8) % chars.length];
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

const unit = await loadTiktokenUnit('cl100k_base');
const backtracking = unit.bpe.backtracking();
const inputs: [string, string][] = [
  ['letters', 'abcdefghijklmnopqrstuvwxyz'],
  ['one emoji', '😀'],
  ['CJK', '的一是不了人我在有他这为之大来以个中上们'],
];
// Warm both merges up on a small piece of each kind.
for (const [, alphabet] of inputs) {
  const s = line(alphabet, 8 * KiB);
  unit.bpe.encodeByHeap(s);
  backtracking.encode(byteString(s));
}

console.log('One giant pre-token piece, cl100k_base, ms (medians of 3, interleaved)');
const rows: string[][] = [];
for (const [name, alphabet] of inputs) {
  for (const bytes of [16 * KiB, 1024 * KiB, 4096 * KiB]) {
    const s = line(alphabet, bytes);
    const b = byteString(s);
    const heap: number[] = [];
    const back: number[] = [];
    for (let r = 0; r < 3; r++) {
      heap.push(time(() => unit.bpe.encodeByHeap(s)));
      back.push(time(() => backtracking.encode(b)));
    }
    const same = JSON.stringify(unit.bpe.encodeByHeap(s)) === JSON.stringify(backtracking.encode(b));
    const h = median(heap);
    const k = median(back);
    rows.push([`${name}, ${bytes / KiB} KiB`, fmt(h), fmt(k), `${(h / k).toFixed(1)}x`, same ? 'yes' : 'NO']);
  }
}
const header = ['piece', 'heap', 'backtracking', 'heap / backtracking', 'same ids'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const print = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
print(header);
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
rows.forEach(print);

console.log('\nMaking the backtracking tables (once per encoding, fresh process), ms');
const here = fileURLToPath(import.meta.url);
for (const name of TOKEN_ENCODINGS) {
  const r = spawnSync('node', ['--import', 'tsx', here, '--build', name], { encoding: 'utf8' });
  console.log(`  ${name}: ${r.status === 0 ? r.stdout.trim() : 'failed'}`);
}

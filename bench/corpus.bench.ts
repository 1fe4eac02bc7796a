/**
 * Corpus benchmark (`npm run bench`): the built `chunkscope corpus` command (bin/chunkscope.js; `npm run build:lib`
 * first) on 10,000 small markdown files and on one 200 MB text (../shared/corpus/english-1mib.txt repeated), at --jobs 1 and
 * --jobs 2, and an incremental re-run with 1% of the documents changed, as a ratio of the full run. Documents/s,
 * MB/s and the process's peak resident memory (/usr/bin/time; threads included), side by side in one run; not a
 * timed test. The generated files are dated an hour back, as a corpus on disk is (files modified in the last 2 s are
 * always re-read).
 * Generated in a temporary folder, removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { markdownDocument, seededRandom } from '../src/testing/corpus';
import { HAVE_SHARED_CORPUS, NEEDS_SHARED_CORPUS, SHARED_CORPUS_PATH } from '../src/testing/sharedData';

const root = mkdtempSync(join(tmpdir(), 'chunkscope-corpus-bench-'));
const FILES = 10_000;

const BIN = new URL('../bin/chunkscope.js', import.meta.url).pathname;
const BUILT = new URL('../dist/lib/cli.js', import.meta.url).pathname;

interface Timed {
  seconds: number;
  summary: { chunked: number; changed: number; chunks: number };
  peakRssMiB: number;
}

/** One run of the command under /usr/bin/time: wall time, peak RSS, and the counts from its summary line. */
function timed(inputs: string[], outDir: string, jobs: number, extra: string[] = []): Timed {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, BIN, 'corpus', ...inputs, '--out', outDir, '--jobs', String(jobs), ...extra], { encoding: 'utf8' });
  const lines = r.stderr.trim().split('\n');
  const [seconds, kib] = lines.at(-1)!.split(' ').map(Number);
  const summary = lines.find((l) => / documents \(/.test(l));
  if (r.status !== 0 || !summary) throw new Error(`chunkscope corpus failed: ${r.stderr.slice(-500)}`);
  const count = (re: RegExp) => Number(re.exec(summary)![1]!.replace(/,/g, ''));
  return { seconds: seconds!, peakRssMiB: Math.round(kib! / 1024), summary: { chunked: count(/([\d,]+) chunked/), changed: count(/([\d,]+) changed/), chunks: count(/; ([\d,]+) chunks/) } };
}

/** Date every file an hour back, as files on disk are (the stat cache skips reading only files older than 2 s). */
function ageFiles(dir: string): void {
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), hourAgo, hourAgo);
}

const row = (label: string, t: Timed, bytes: number) =>
  `${label.padEnd(34)} ${t.seconds.toFixed(2).padStart(7)} s  ${(t.summary.chunked / t.seconds).toFixed(0).padStart(6)} docs/s  ${(bytes / 1e6 / t.seconds).toFixed(1).padStart(6)} MB/s  peak RSS ${t.peakRssMiB} MiB`;

async function smallFiles(): Promise<void> {
  const dir = join(root, 'markdown');
  const random = seededRandom(7);
  let bytes = 0;
  for (let i = 0; i < FILES; i++) {
    const folder = join(dir, `d${i % 100}`);
    if (i < 100) mkdirSync(folder, { recursive: true });
    const text = markdownDocument(random, `Note ${i}`);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(folder, `note-${i}.md`), text);
  }
  ageFiles(dir);
  console.log(`${FILES.toLocaleString('en-US')} markdown files, ${(bytes / 1e6).toFixed(1)} MB, default options (recursive, 1000 characters)`);
  const runs: Timed[] = [];
  for (const jobs of [1, 2]) {
    const t = timed([dir], join(root, `out-md-${jobs}`), jobs);
    runs.push(t);
    console.log(row(`full run, --jobs ${jobs}`, t, bytes));
  }
  console.log(`--jobs 2 / --jobs 1 throughput: ${(runs[0]!.seconds / runs[1]!.seconds).toFixed(2)}x`);
  // 1% of the documents edited: only they are chunked again; the others are read and hashed, their lines copied.
  for (let i = 0; i < FILES; i += 100) appendFileSync(join(dir, `d${i % 100}`, `note-${i}.md`), '\nEdited.\n');
  for (const jobs of [1, 2]) {
    const t = timed([dir], join(root, `out-md-${jobs}`), jobs);
    console.log(row(`1% changed, --jobs ${jobs}`, t, bytes));
    console.log(`  incremental / full run (--jobs ${jobs}): ${((t.seconds / runs[jobs - 1]!.seconds) * 100).toFixed(1)}% (target ≤ 5%), ${t.summary.changed} changed`);
  }
}

async function oneLargeFile(): Promise<void> {
  if (!HAVE_SHARED_CORPUS) {
    console.log(`200 MB file: skipped ${NEEDS_SHARED_CORPUS}`);
    return;
  }
  const corpus = readFileSync(SHARED_CORPUS_PATH);
  const dir = join(root, 'large');
  mkdirSync(dir);
  const out = createWriteStream(join(dir, 'english-200mb.txt'));
  let bytes = 0;
  while (bytes < 200e6) {
    if (!out.write(corpus)) await once(out, 'drain');
    bytes += corpus.length;
  }
  out.end();
  await once(out, 'finish');
  ageFiles(dir);
  console.log(`one text file, ${(bytes / 1e6).toFixed(0)} MB (the 1 MiB English text repeated), default options`);
  const runs: Timed[] = [];
  for (const jobs of [1, 2]) {
    const t = timed([dir], join(root, `out-large-${jobs}`), jobs, ['--max-bytes', '256MiB']);
    runs.push(t);
    console.log(row(`full run, --jobs ${jobs}`, t, bytes) + `  ${t.summary.chunks.toLocaleString('en-US')} chunks`);
  }
  console.log('  (one document is one task: a second thread cannot help it)');
}

try {
  console.log('corpus benchmark: the built `chunkscope corpus` (bin/chunkscope.js); timings on a shared machine are noisy, compare ratios');
  if (!existsSync(BUILT)) console.log('skipped: the CLI is not built (run `npm run build:lib` first)');
  else {
    await smallFiles();
    await oneLargeFile();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

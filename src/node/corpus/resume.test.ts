/**
 * Kill and resume: the corpus command is spawned as a person runs it and killed with SIGKILL at seeded random
 * moments while it works (after its journal shows finished documents), several times; a last run finishes. Its
 * files must equal a clean run's byte for byte, no partial line anywhere, and finished documents not redone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { seededRandom, writeTestCorpus } from '../../testing/corpus';
import { runCorpus } from './run';

const base = mkdtempSync(join(tmpdir(), 'chunkscope-resume-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const TSX = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const MAIN = new URL('../../cli/main.ts', import.meta.url).href;
const ENTRY = `const { main } = await import(${JSON.stringify(MAIN)}); process.exitCode = await main(process.argv.slice(1));`;

interface Spawned {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Run the CLI; with `killWhen`, SIGKILL it once the predicate holds, after `delayMs` more. */
function spawnCli(argv: string[], kill?: { when: () => boolean; delayMs: number }): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', ENTRY, '--', ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    if (kill) {
      timer = setInterval(() => {
        if (!kill.when()) return;
        clearInterval(timer);
        setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
      }, 5);
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}

const journalEntries = (out: string): number => {
  const path = join(out, '.chunkscope-work', 'all', 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 2 : 0;
};

it('a run killed at random moments resumes without redoing finished documents and ends as a clean run', async () => {
  const source = join(base, 'corpus');
  await writeTestCorpus(source, 99, 400);
  const clean = join(base, 'clean');
  await runCorpus({ inputs: [source], outDir: clean, options: { size: 200 }, jobs: 1 });
  const out = join(base, 'killed');
  const argv = ['corpus', source, '--out', out, '--size', '200', '--jobs', '1'];
  const random = seededRandom(2027);
  let kills = 0;
  for (let attempt = 0; attempt < 4; attempt++) {
    const already = journalEntries(out);
    // Killed once a few more documents are finished, at a random moment after that (mid-document, mid-write).
    const r = await spawnCli(argv, { when: () => journalEntries(out) >= already + 5 + Math.floor(random() * 40), delayMs: Math.floor(random() * 30) });
    if (r.signal === 'SIGKILL') kills++;
    else break; // finished before the kill landed
    // The chunk lines of the interrupted run may end mid-line; what survives is cut at the next start.
  }
  expect(kills).toBeGreaterThanOrEqual(2);
  const finished = journalEntries(out);
  const last = await spawnCli(argv);
  expect(last.code).toBe(0);
  expect(last.stderr).toMatch(/chunkscope: resumed: [\d,]+ documents were finished by the interrupted run/);
  const resumed = Number(/resumed: ([\d,]+)/.exec(last.stderr)![1]!.replace(/,/g, ''));
  expect(resumed).toBeGreaterThanOrEqual(finished - 1);
  for (const name of ['chunks.jsonl', 'manifest.json', 'changes.json']) expect(readFileSync(join(out, name), 'utf8')).toBe(readFileSync(join(clean, name), 'utf8'));
  expect(existsSync(join(out, '.chunkscope-work'))).toBe(false);
}, 120_000);

/**
 * The Dask example (examples/dask/chunk_with_dask.py, docs/distributed.md) on a real local Dask cluster of four
 * workers: a bag of generated documents, each partition piped through `chunkscope chunk - --input jsonl`; the
 * chunk lines equal a single run of the filter (after sorting). Needs Debian's python3-distributed for
 * /usr/bin/python3 (.ci/run installs it); skipped with that reason where it cannot be imported.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(REPO, 'examples/dask/chunk_with_dask.py');
const HAVE_DASK = spawnSync(PYTHON, ['-c', 'import dask.bag, distributed'], { stdio: 'ignore' }).status === 0;
const NEEDS_DASK = `(needs ${PYTHON} with dask and distributed: apt-get install python3-distributed)`;

describe('the Dask example', () => {
  it.skipIf(!HAVE_DASK)(`runs the filter over a bag on a 4-worker LocalCluster; the output equals one run of the filter ${NEEDS_DASK}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-dask-'));
    // chunkscope from these sources (tsx), as each Dask task runs it: a subprocess reading its partition's lines.
    const runner = join(dir, 'chunkscope.mjs');
    writeFileSync(runner, `const { main } = await import(${JSON.stringify(join(REPO, 'src/cli/main.ts'))});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
    const chunkscope = [process.execPath, '--import', 'tsx', runner];
    const topics = ['harbours', 'looms', 'comets', 'orchards', 'ledgers'];
    const lines = Array.from({ length: 120 }, (_, i) => {
      const text = Array.from({ length: 8 + (i % 11) }, (_, j) => `Line ${j} of note ${i} is on ${topics[(i + j) % 5]}. ${'More words follow. '.repeat(j % 3)}`).join(i % 2 ? '\n\n' : ' ');
      return JSON.stringify({ id: `notes/${i}.md`, text, ...(i % 3 === 0 ? { metadata: { batch: i % 4 } } : {}) });
    });
    const input = join(dir, 'docs.jsonl');
    const body = lines.join('\n') + '\n';
    writeFileSync(input, body);
    const flags = ['--size', '120', '--overlap', '20'];

    const single = spawnSync(chunkscope[0]!, [...chunkscope.slice(1), 'chunk', '-', '--input', 'jsonl', '--format', 'jsonl', ...flags], { cwd: REPO, input: body, encoding: 'utf8' });
    expect(single.stderr).toBe('');
    expect(single.status).toBe(0);

    const output = join(dir, 'chunks.jsonl');
    // Several partitions (blocksize a fifth of the input) over four workers; workers as threads: they start in a second, and each task's
    // work is its own chunkscope process either way.
    const blocksize = String(Math.floor(Buffer.byteLength(body) / 5));
    const dask = spawnSync(PYTHON, [EXAMPLE, input, output, '--workers', '4', '--threads', '--blocksize', blocksize, '--chunkscope', chunkscope.join(' '), '--', ...flags], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(dask.status, dask.stderr).toBe(0);
    const summary = /\b(\d+) partitions on 4 workers: \d+ chunks/.exec(dask.stderr);
    expect(summary, dask.stderr).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThanOrEqual(4);
    const sorted = (text: string) => text.split('\n').filter(Boolean).sort();
    const fromDask = sorted(readFileSync(output, 'utf8'));
    expect(fromDask.length).toBeGreaterThan(lines.length);
    expect(fromDask).toEqual(sorted(single.stdout));
  }, 180_000);
});

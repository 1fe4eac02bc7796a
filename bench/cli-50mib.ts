/**
 * The CLI on 50 MiB, every strategy (issue 28 point 6: all within 2 GiB of memory; markdown <= 10 s; semantic,
 * built-in model, <= 30 s). `npm run bench` runs the table:
 *   node --import tsx bench/cli-50mib.ts --table [--only=markdown,html] [--timeout=600]
 * Each row is `chunkscope chunk <file> --strategy <s> ... > /dev/null` run by the CLI's own `main` in a fresh child
 * process; time = from the call to its return (reading, decoding, chunking, writing JSON to /dev/null), peak = the
 * child's max RSS (process.resourceUsage; module loading included). Inputs, written once to the temp folder: the
 * corpus repeated (recursive, token, sentence, semantic), the corpus as markdown with a heading every 8 paragraphs
 * (markdown), the corpus as HTML with h1/h2 and <p> (html).
 *
 * One run with flags of your own (output to stdout: redirect it), as before:
 *   node --import tsx bench/cli-50mib.ts --strategy token --unit cl100k_base --size 512 --overlap 64 > /dev/null
 */
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeInput } from './scale-case';
import { CORPUS_FILE } from './markdown-docs';

const MIB = 50;
type Input = 'english' | 'distinct' | 'markdown' | 'html';
const ROWS: { strategy: string; input: Input; flags: string[]; target?: string }[] = [
  { strategy: 'recursive', input: 'english', flags: ['--size', '1000', '--overlap', '100'] },
  { strategy: 'token', input: 'english', flags: ['--unit', 'cl100k_base', '--size', '512', '--overlap', '64'] },
  { strategy: 'sentence', input: 'english', flags: ['--size', '1000'] },
  { strategy: 'markdown', input: 'markdown', flags: ['--size', '1000'], target: 'markdown <= 10 s' },
  { strategy: 'html', input: 'html', flags: ['--size', '1000'] },
  { strategy: 'semantic', input: 'english', flags: [], target: 'semantic <= 30 s' },
  // The repeated corpus holds 1 MiB of distinct sentences (the embedding cache sees each 50 times): here each copy
  // carries its number before every sentence's final punctuation, so every sentence is embedded.
  { strategy: 'semantic', input: 'distinct', flags: [], target: 'semantic <= 30 s' },
];

function inputFile(input: Input): string {
  const path = join(tmpdir(), `chunkscope-${MIB}mib-${input}.${input === 'markdown' ? 'md' : input === 'html' ? 'html' : 'txt'}`);
  const bytes = MIB * 2 ** 20;
  if (existsSync(path) && statSync(path).size >= bytes * 0.9) return path;
  if (input === 'html') {
    const paragraphs = readFileSync(CORPUS_FILE, 'utf8').split(/\n\s*\n/).filter((p) => p.trim() !== '');
    const parts = ['<html><head><title>Corpus</title></head><body>\n'];
    let length = parts[0]!.length;
    for (let i = 0; length < bytes; i++) {
      const heading = i % 40 === 0 ? `<h1>Chapter ${i / 40 + 1}</h1>\n` : i % 8 === 0 ? `<h2>Section ${i / 8 + 1}</h2>\n` : '';
      const part = `${heading}<p>${paragraphs[i % paragraphs.length]!.replace(/[<&]/g, ' ')}</p>\n`;
      parts.push(part);
      length += part.length;
    }
    parts.push('</body></html>\n');
    writeFileSync(path, parts.join(''));
  } else if (input === 'distinct') {
    const corpus = readFileSync(CORPUS_FILE, 'utf8');
    const copies: string[] = [];
    for (let i = 0, length = 0; length < bytes; i++) {
      const copy = corpus.replace(/([.!?])(\s)/g, ` ${i + 1}$1$2`) + '\n\n';
      copies.push(copy);
      length += copy.length;
    }
    writeFileSync(path, copies.join('').slice(0, bytes));
  } else writeFileSync(path, makeInput(input, MIB));
  return path;
}

/** One CLI run in this process; prints its figures as JSON on stderr's last line. */
async function one(args: string[]): Promise<void> {
  const { main } = await import('../src/cli/main');
  let lines = 0;
  // The CLI's own standard output (with its back-pressure), counting the JSONL lines on the way.
  const io = {
    stdout: (s: string) => {
      for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
      return process.stdout.write(s) ? undefined : new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
    },
    stderr: (s: string) => void process.stderr.write(s),
    readStdin: () => process.stdin,
  };
  const t = performance.now();
  const code = await main(['chunk', ...args], io);
  const ms = performance.now() - t;
  process.stderr.write(`\n${JSON.stringify({ code, ms, chunks: lines, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
}

const argv = process.argv.slice(2);
if (argv[0] === '--one') {
  await one(argv.slice(1));
} else if (argv.includes('--table')) {
  const only = argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
  const timeoutS = Number(argv.find((a) => a.startsWith('--timeout='))?.slice(10) ?? 600);
  console.log(`CLI on ${MIB} MiB, every strategy: \`chunkscope chunk <file> --strategy <s> > /dev/null\`, each in a fresh process (targets: all within 2 GiB; markdown <= 10 s; semantic <= 30 s)`);
  console.log(`  ${'strategy'.padEnd(10)} ${'input'.padEnd(9)} ${'flags'.padEnd(44)} ${'time'.padStart(9)} ${'peak RSS'.padStart(10)}  chunks written`);
  for (const row of ROWS.filter((r) => !only || only.includes(r.strategy))) {
    const file = inputFile(row.input);
    const args = [file, '--strategy', row.strategy, ...row.flags, '--format', 'jsonl'];
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
      timeout: timeoutS * 1000,
    });
    const lines = (child.stderr ?? '').trim().split('\n');
    const last = lines[lines.length - 1] ?? '';
    const flags = row.flags.join(' ');
    if (child.error || !last.startsWith('{')) {
      const why = child.error ? (child.signal ? `stopped after ${timeoutS} s` : child.error.message) : `failed: ${lines.find((l) => l.startsWith('chunkscope:')) ?? last}`;
      console.log(`  ${row.strategy.padEnd(10)} ${row.input.padEnd(9)} ${flags.padEnd(44)} ${why}`);
      continue;
    }
    const r = JSON.parse(last) as { code: number; ms: number; chunks: number; maxRssMiB: number };
    const over = [r.maxRssMiB > 2048 ? 'OVER 2 GiB' : '', row.target && !meets(row.target, r.ms) ? `over target (${row.target})` : ''].filter(Boolean).join(', ');
    console.log(
      `  ${row.strategy.padEnd(10)} ${row.input.padEnd(9)} ${flags.padEnd(44)} ${`${(r.ms / 1000).toFixed(1)} s`.padStart(9)} ${`${r.maxRssMiB.toFixed(0)} MiB`.padStart(10)}  ${r.chunks.toLocaleString('en-US')}${r.code !== 0 ? ` (exit ${r.code})` : ''}${over ? `  ${over}` : ''}`,
    );
    console.log(`::target cli-50mib.${row.strategy}${row.input === 'distinct' ? '-distinct' : ''} ${r.ms / 1000} s\n::target cli-50mib.peak-rss ${r.maxRssMiB} MiB`);
  }
} else {
  // As before: one run, the 50 MiB corpus, the chunks on stdout.
  const path = inputFile('english');
  const before = process.memoryUsage().rss;
  const t = performance.now();
  const { main } = await import('../src/cli/main');
  const code = await main(['chunk', path, ...argv]);
  process.stderr.write(`exit ${code}, ${((performance.now() - t) / 1000).toFixed(1)} s, max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (RSS before ${(before / 2 ** 20).toFixed(0)} MiB)\n`);
}

function meets(target: string, ms: number): boolean {
  const seconds = Number(/<= (\d+) s/.exec(target)?.[1] ?? Infinity);
  return ms <= seconds * 1000;
}

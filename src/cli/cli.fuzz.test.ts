/**
 * The CLI fuzzes itself (issue 29, docs/input.md): seeded, reproducible invocations from generated flags, values
 * and files (binary, BOM, UTF-16, CRLF, NULs, huge lines, empty, directories, missing paths, standard input). Every
 * run must exit 0 or 2; an error is exactly one stderr line with no stack trace; no run may pass its time limit;
 * and on success every chunk's text is `source.slice(start, end)` of the file as readFileSync reads it.
 *
 * Most cases run in-process through main(argv, io) (fast); a sample is spawned through the built bin as a person
 * runs it (npm test builds it first), which also catches what only a real process shows (unhandled rejections,
 * Node's own stack traces). CHUNKSCOPE_FUZZ_RUNS=n runs n in-process cases (default 400), CHUNKSCOPE_FUZZ_SEED
 * another seed; a failure prints its case number, argv and file, enough to reproduce it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../core/format';
import { EVAL_OPTIONS, type OptionSpec } from '../core/optionTable';
import { cliAliases, FLAG_OPTIONS } from './flags';
import { main } from './main';

const RUNS = Number(process.env.CHUNKSCOPE_FUZZ_RUNS ?? 400);
const SEED = Number(process.env.CHUNKSCOPE_FUZZ_SEED ?? 29);
const SPAWNED = Math.max(8, Math.round(RUNS / 12));
/** A run past this is a hang (in-process runs cannot be killed, so it is measured; spawned ones are killed). */
const LIMIT_MS = 15_000;

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-fuzz-'));
const BIN = new URL('../../bin/chunkscope.js', import.meta.url).pathname;

// ---- files -------------------------------------------------------------------------------------------------

type FileKind = 'text' | 'bom' | 'crlf' | 'utf16le' | 'utf16be' | 'nul' | 'binary' | 'latin1' | 'hugeLine' | 'empty' | 'markdown' | 'html' | 'code' | 'directory' | 'missing';
const FILE_KINDS: FileKind[] = ['text', 'bom', 'crlf', 'utf16le', 'utf16be', 'nul', 'binary', 'latin1', 'hugeLine', 'empty', 'markdown', 'html', 'code', 'directory', 'missing'];

const word = fc.constantFrom('alpha', 'beta', 'Grüße', 'naïve', '漢字', '𝄞', 'emoji😀', 'x', 'the', 'end.', 'Why?', '#', '##', '|', '<p>', '</p>', '```', '-', '*', 'def', 'return', '{', '}');
const separator = fc.constantFrom(' ', ' ', ' ', '\n', '\n\n', '\r\n', '\r\n\r\n', '\t', '. ', '\u00a0', '\u2028', '\r', '\ufeff');
const textArb = fc.array(fc.tuple(word, separator), { maxLength: 400 }).map((parts) => parts.map(([w, s]) => w + s).join(''));

interface FuzzFile {
  kind: FileKind;
  /** What goes on disk (or standard input); null for a directory or a missing path. */
  bytes: Uint8Array | null;
  ext: string;
}

const encodeUtf16 = (s: string, order: 'le' | 'be') => {
  const le = Buffer.from('\ufeff' + s, 'utf16le');
  return order === 'le' ? le : le.swap16();
};

const fileArb: fc.Arbitrary<FuzzFile> = fc
  .record({ kind: fc.constantFrom(...FILE_KINDS), text: textArb, noise: fc.uint8Array({ minLength: 1, maxLength: 3000 }), ext: fc.constantFrom('txt', 'md', 'html', 'py', 'ts', 'go', 'json', '', 'TXT', 'x.constructor') })
  .map(({ kind, text, noise, ext }): FuzzFile => {
    const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
    switch (kind) {
      case 'text':
        return { kind, bytes: utf8(text), ext };
      case 'bom':
        return { kind, bytes: utf8('\ufeff' + text), ext };
      case 'crlf':
        return { kind, bytes: utf8(text.replace(/\n/g, '\r\n')), ext };
      case 'utf16le':
      case 'utf16be':
        return { kind, bytes: new Uint8Array(encodeUtf16(text, kind === 'utf16le' ? 'le' : 'be')), ext };
      case 'nul':
        return { kind, bytes: utf8(text.slice(0, 50) + '\0' + text.slice(50)), ext };
      case 'binary':
        return { kind, bytes: noise, ext };
      case 'latin1':
        return { kind, bytes: new Uint8Array(Buffer.from('caf\u00e9 ' + text.replace(/[^\x00-\xff]/g, '?'), 'latin1')), ext };
      case 'hugeLine':
        return { kind, bytes: utf8('word'.repeat(25_000) + ' ' + text), ext };
      case 'empty':
        return { kind, bytes: new Uint8Array(), ext };
      case 'markdown':
        return { kind, bytes: utf8(`# Title\n\n${text}\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n${text}`), ext: 'md' };
      case 'html':
        return { kind, bytes: utf8(`<html><body><h1>T</h1><p>${text}</p><table><tr><td>1</td></tr></table></body></html>`), ext: 'html' };
      case 'code':
        return { kind, bytes: utf8(`def f(x):\n    return x\n\nclass A:\n    """${text.replace(/"/g, '')}"""\n    pass\n`), ext: 'py' };
      default:
        return { kind, bytes: null, ext };
    }
  });

// ---- flags -------------------------------------------------------------------------------------------------

const NO_NETWORK = new Set(['embedder']); // a generated hub model id would be fetched: the built-in one only
const hostileString = fc.constantFrom('', ',,,', ',', ' ', '-1', '0', '1', '2', '3.5', '1e309', 'NaN', 'Infinity', '-Infinity', '99999999999999999999', 'true', 'false', 'yes', '\\n', '\\u{110000}', '\\', '%', '{file}', '{section}', '<script>alert(1)</script>', '\u0000', '…', 'a'.repeat(300), '.*', '(', '[', '\\d+');

function valueArb(spec: OptionSpec): fc.Arbitrary<string> {
  const good: fc.Arbitrary<string>[] = [];
  if (spec.choices) good.push(fc.constantFrom(...spec.choices));
  if (spec.kind === 'integer') good.push(fc.integer({ min: -5, max: 2000 }).map(String));
  if (spec.kind === 'number') good.push(fc.double({ min: -1, max: 100, noNaN: true }).map((n) => String(Math.round(n * 100) / 100)));
  if (spec.kind === 'integers') good.push(fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 4 }).map((a) => a.join(',')));
  if (spec.name === 'language') good.push(fc.constantFrom('python', 'javascript', 'go', 'klingon'));
  if (spec.name === 'locale') good.push(fc.constantFrom('en', 'de', 'ja', 'xx-invalid', '@@'));
  return fc.oneof({ weight: 8, arbitrary: fc.oneof(...(good.length ? good : [fc.string()])) }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
}

const flagSpecs = [...FLAG_OPTIONS, ...EVAL_OPTIONS].filter((s) => !NO_NETWORK.has(s.name));

const flagArb: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...flagSpecs).chain((spec) => {
    const name = fc.constantFrom(spec.flag, ...cliAliases(spec));
    if (spec.kind === 'boolean' || spec.kind === 'template') {
      return fc.tuple(name, fc.option(fc.oneof(fc.constantFrom('true', 'false', '1', 'no', 'maybe', ''), hostileString), { nil: undefined }))
        .map(([n, v]) => (v === undefined ? [`--${n}`] : [`--${n}=${v}`]));
    }
    return fc.tuple(name, valueArb(spec), fc.boolean()).map(([n, v, joined]) => (joined ? [`--${n}=${v}`] : [`--${n}`, v]));
  }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...EXPORT_FORMATS, 'xml', '', 'JSON'), fc.boolean()).map(([f, joined]) => (joined ? [`--format=${f}`] : ['--format', f])) },
  { weight: 1, arbitrary: fc.constantFrom('1000', '10', '64MiB', '1', 'lots', '0', '600MiB', '1.5KiB').map((v) => ['--max-bytes', v]) },
  { weight: 1, arbitrary: fc.constantFrom<string[]>(['--help'], ['-v'], ['--drop-page-furniture'], ['--keep-headers'], ['--sise', '10'], ['-x'], ['--'], ['-'], ['extra-arg'], ['--size']) },
);

interface FuzzCase {
  command: 'chunk' | 'eval' | 'sweep';
  file: FuzzFile;
  stdin: boolean;
  flags: string[][];
}

const caseArb: fc.Arbitrary<FuzzCase> = fc.record({
  command: fc.constantFrom<FuzzCase['command']>('chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'eval', 'sweep'),
  file: fileArb,
  stdin: fc.boolean(),
  flags: fc.array(flagArb, { maxLength: 4 }),
});

// ---- running and judging -----------------------------------------------------------------------------------

type Verdict = 'clean' | 'crash' | 'hang' | 'stack trace' | 'offset mismatch' | 'not one line';

interface Outcome {
  code: number | null;
  out: string;
  err: string;
  ms: number;
}

let fileCounter = 0;
function materialise(c: FuzzCase): { argv: string[]; path: string; stdin: Uint8Array } {
  const n = fileCounter++;
  const base = join(dir, `f${n}${c.file.ext ? '.' + c.file.ext : ''}`);
  if (c.file.kind === 'directory') mkdirSync(base);
  else if (c.file.bytes) writeFileSync(base, c.file.bytes);
  const useStdin = c.stdin && c.file.bytes !== null;
  const input = useStdin ? '-' : base;
  let argv: string[];
  if (c.command === 'chunk') argv = ['chunk', input, ...c.flags.flat()];
  else {
    const questions = join(dir, `q${n}.jsonl`);
    writeFileSync(questions, JSON.stringify({ question: 'alpha beta', references: [{ start: 0, end: 5 }] }) + '\n');
    argv = [c.command, base, '--questions', questions, ...c.flags.flat()];
  }
  return { argv, path: base, stdin: useStdin ? c.file.bytes! : new Uint8Array() };
}

/** The file as other tools read it: readFileSync(f, 'utf8'), or UTF-16 decoded with its BOM kept. */
function sourceOf(c: FuzzCase, path: string): string {
  if (c.file.kind === 'utf16le') return readFileSync(path, 'utf16le');
  if (c.file.kind === 'utf16be') return Buffer.from(readFileSync(path)).swap16().toString('utf16le');
  return readFileSync(path, 'utf8');
}

function judge(c: FuzzCase, path: string, argv: string[], r: Outcome): Verdict {
  if (r.ms > LIMIT_MS || r.code === null) return 'hang';
  if (/\n\s+at |^\s+at |node:internal|Error: .*\n.*\n/m.test(r.err)) return 'stack trace';
  if (r.code !== 0 && r.code !== 2) return 'crash';
  if (r.code === 2) return r.err.endsWith('\n') && r.err.trimEnd().split('\n').length === 1 && r.err.startsWith('chunkscope: ') ? 'clean' : 'not one line';
  // Success: notes may go to stderr; the offsets must hold for the formats that carry them.
  if (c.command !== 'chunk' || argv.includes('--help') || argv.includes('-h') || argv.includes('-v')) return 'clean';
  const format = formatOf(argv);
  if (format !== 'json' && format !== 'jsonl') return 'clean';
  const source = sourceOf(c, path);
  const chunks = (format === 'json' ? JSON.parse(r.out) : r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l))) as { start: number; end: number; text: string }[];
  return chunks.every((ch) => ch.text === source.slice(ch.start, ch.end)) ? 'clean' : 'offset mismatch';
}

/** The last --format given (parseArgs keeps the last), json when none. */
function formatOf(argv: string[]): string {
  let format = 'json';
  argv.forEach((a, i) => {
    if (a === '--format' && argv[i + 1] !== undefined) format = argv[i + 1]!;
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
  });
  return format;
}

async function runInProcess(argv: string[], stdin: Uint8Array): Promise<Outcome> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), readStdin: async () => stdin });
  return { code, out, err, ms: performance.now() - started };
}

function runSpawned(argv: string[], stdin: Uint8Array): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: performance.now() - started });
    });
  });
}

function tally(verdicts: { verdict: Verdict; report: string }[]): Record<Verdict | 'cases', number> {
  const counts = { cases: verdicts.length, clean: 0, crash: 0, hang: 0, 'stack trace': 0, 'offset mismatch': 0, 'not one line': 0 };
  for (const v of verdicts) counts[v.verdict]++;
  return counts;
}

describe(`CLI fuzz (seed ${SEED})`, () => {
  it(`${RUNS} generated invocations in-process: exit 0 or 2, one line, no stack trace, offsets hold`, async () => {
    const cases = fc.sample(caseArb, { seed: SEED, numRuns: RUNS });
    const verdicts: { verdict: Verdict; report: string }[] = [];
    const exits = { 0: 0, 2: 0 } as Record<number, number>;
    for (const [i, c] of cases.entries()) {
      const { argv, path, stdin } = materialise(c);
      const r = await runInProcess(argv, stdin);
      exits[r.code ?? -1] = (exits[r.code ?? -1] ?? 0) + 1;
      const verdict = judge(c, path, argv, r);
      verdicts.push({ verdict, report: `case ${i} (${c.file.kind}${c.stdin ? ', stdin' : ''}): chunkscope ${argv.map((a) => JSON.stringify(a)).join(' ')} → exit ${r.code}, ${Math.round(r.ms)} ms, stderr ${JSON.stringify(r.err.slice(0, 300))}` });
    }
    const counts = tally(verdicts);
    console.log(`CLI fuzz in-process, seed ${SEED}: ${JSON.stringify(counts)}; exits ${JSON.stringify(exits)}`);
    const bad = verdicts.filter((v) => v.verdict !== 'clean');
    expect(bad.map((v) => `${v.verdict}: ${v.report}`)).toEqual([]);
    // The generator reaches both outcomes often (a fuzz that only ever fails early tests little).
    expect(exits[0]).toBeGreaterThan(RUNS / 10);
    expect(exits[2]).toBeGreaterThan(RUNS / 10);
  }, 600_000);

  it(`${SPAWNED} of them through the built bin, 4 at a time`, async () => {
    const cases = fc.sample(caseArb, { seed: SEED + 1, numRuns: SPAWNED });
    const verdicts: { verdict: Verdict; report: string }[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      // An argument cannot hold a NUL in a real process (the OS ends it there): such a value is passed as "\\0".
      const batch = cases.slice(i, i + 4).map((c, j) => {
        const m = materialise(c);
        return { c, j: i + j, ...m, argv: m.argv.map((a) => a.replace(/\0/g, '\\0')) };
      });
      const outcomes = await Promise.all(batch.map((b) => runSpawned(b.argv, b.stdin)));
      outcomes.forEach((r, k) => {
        const { c, j, path, argv } = batch[k]!;
        verdicts.push({ verdict: judge(c, path, argv, r), report: `spawned case ${j} (${c.file.kind}): chunkscope ${argv.map((a) => JSON.stringify(a)).join(' ')} → exit ${r.code}, stderr ${JSON.stringify(r.err.slice(0, 300))}` });
      });
    }
    const counts = tally(verdicts);
    console.log(`CLI fuzz spawned, seed ${SEED + 1}: ${JSON.stringify(counts)}`);
    expect(verdicts.filter((v) => v.verdict !== 'clean').map((v) => `${v.verdict}: ${v.report}`)).toEqual([]);
  }, 600_000);
});

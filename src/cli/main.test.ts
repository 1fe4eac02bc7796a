import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { formatChunks } from '../core/format';
import { main } from './main';
import { parseEscapes } from './input';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-cli-'));
function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function runCli(argv: string[], stdin = '') {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readStdin: async () => new TextEncoder().encode(stdin),
  });
  return { code, out, err };
}

const doc = 'Chunkscope shows where chunks start and end.\n\nIt counts sizes in characters, words or tokens.\n\n' +
  'Overlap is measured from offsets, never assumed from the setting. '.repeat(6);

describe('chunkscope chunk', () => {
  it('prints chunks whose text is the exact source span', async () => {
    const r = await runCli(['chunk', file('doc.txt', doc), '--strategy', 'recursive', '--size', '80', '--overlap', '10']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = JSON.parse(r.out);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['index', 'start', 'end', 'text', 'size', 'id']));
      expect(c.text).toBe(doc.slice(c.start, c.end));
      expect(c.size).toBeLessThanOrEqual(80);
    }
  });

  it('gives the same output as the library for the same options', async () => {
    const options = { strategy: 'sentence', size: 20, overlap: 5, unit: 'cl100k_base' } as const;
    const r = await runCli(['chunk', file('lib.txt', doc), '--strategy', 'sentence', '--size', '20', '--overlap', '5', '--unit', 'cl100k_base']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(formatChunks(await chunk(doc, options), 'json'));
  });

  it('reads standard input and writes JSON lines', async () => {
    const r = await runCli(['chunk', '-', '--size', '60', '--overlap', '0', '--format', 'jsonl'], doc);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l));
    const array = JSON.parse((await runCli(['chunk', '-', '--size', '60', '--overlap', '0'], doc)).out);
    expect(lines).toEqual(array);
  });

  it('reads separators with escapes', async () => {
    const r = await runCli(['chunk', '-', '--strategy', 'character', '--separator', '\\n\\n', '--size', '60', '--overlap', '0'], 'a b c\n\nd e f\n\ng h i');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((c: { text: string }) => c.text)).toEqual(['a b c\n\nd e f\n\ng h i']);
    const small = await runCli(['chunk', '-', '--strategy', 'character', '--separator', '\\n\\n', '--size', '6', '--overlap', '0'], 'a b c\n\nd e f\n\ng h i');
    expect(JSON.parse(small.out).map((c: { text: string }) => c.text)).toEqual(['a b c', 'd e f', 'g h i']);
  });

  it('prints [] for an empty file', async () => {
    const r = await runCli(['chunk', file('empty.txt', '')]);
    expect(r).toEqual({ code: 0, out: '[]\n', err: '' });
  });

  const bad: [string, string[], RegExp][] = [
    ['a missing file', ['chunk', join(dir, 'nope.txt')], /no such file/],
    ['size 0', ['chunk', '-', '--size', '0'], /size/],
    ['a size that is not a number', ['chunk', '-', '--size', 'ten'], /--size must be a whole number/],
    ['overlap >= size', ['chunk', '-', '--size', '10', '--overlap', '10'], /overlap/],
    ['an unknown strategy', ['chunk', '-', '--strategy', 'magic'], /strategy/],
    ['an unknown unit', ['chunk', '-', '--unit', 'bytes'], /unit/],
    ['an unknown language', ['chunk', '-', '--language', 'klingon'], /language/],
    ['an unknown flag', ['chunk', '-', '--sise', '10'], /sise/],
    ['an unknown format', ['chunk', '-', '--format', 'xml'], /format/],
    ['no command', [], /missing command/],
  ];
  for (const [what, argv, message] of bad) {
    it(`refuses ${what} with one line and a non-zero exit`, async () => {
      const r = await runCli(argv, 'some text');
      expect(r.code).not.toBe(0);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err.startsWith('chunkscope: ')).toBe(true);
    });
  }

  it('refuses a binary file', async () => {
    const r = await runCli(['chunk', file('image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]))]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/binary/);
  });

  it('refuses a file that is not UTF-8', async () => {
    const r = await runCli(['chunk', file('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x21]))]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/UTF-8/);
  });
});

describe('parseEscapes', () => {
  it('reads the usual escapes and leaves other text alone', () => {
    expect(parseEscapes('\\n\\n')).toBe('\n\n');
    expect(parseEscapes('\\r\\n\\t')).toBe('\r\n\t');
    expect(parseEscapes('a\\\\n')).toBe('a\\n');
    expect(parseEscapes('\\u00e9\\u{1F600}')).toBe('é😀');
    expect(parseEscapes('. ')).toBe('. ');
  });
});

describe('the installed command', () => {
  it('runs as bin/chunkscope.js after the prepare build', () => {
    const r = spawnSync(process.execPath, ['bin/chunkscope.js', 'chunk', '-', '--size', '40', '--overlap', '0'], {
      input: doc,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const chunks = JSON.parse(r.stdout);
    expect(chunks.map((c: { text: string }) => c.text).join('')).toBe(chunks.map((c: { start: number; end: number }) => doc.slice(c.start, c.end)).join(''));
  });

  it('exits non-zero with one line for a missing file', () => {
    const r = spawnSync(process.execPath, ['bin/chunkscope.js', 'chunk', 'does-not-exist.txt'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/**
 * Bounded input (src/cli/read.ts), the built CLI spawned as a person runs it: devices, endless standard input,
 * huge files, FIFOs; memory measured with /usr/bin/time -v. Needs `npm run build:lib` (npm test runs it first).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, formatBytes, parseMaxBytes, readError } from './read';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-read-'));
const BIN = new URL('../../bin/chunkscope.js', import.meta.url).pathname;
const TIME = '/usr/bin/time';

interface Spawned {
  code: number | null;
  stderr: string;
  seconds: number;
  /** Maximum resident set size in KiB, from /usr/bin/time -v. */
  maxRssKiB: number;
}

/** Spawn the built CLI under /usr/bin/time -v, stdin from `stdin` (a file path) or an endless text writer. */
function spawnCli(argv: string[], stdin: 'endless-text' | string | null, limitMs = 20_000): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(TIME, ['-v', process.execPath, BIN, ...argv], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdin.on('error', () => undefined); // EPIPE once the CLI lets go of its input
    if (stdin === 'endless-text') {
      const line = Buffer.from('an endless stream of valid text, line after line\n'.repeat(1000));
      const pump = () => {
        while (!child.stdin.destroyed && child.stdin.write(line));
        if (!child.stdin.destroyed) child.stdin.once('drain', pump);
      };
      pump();
    } else if (stdin !== null) {
      void open(stdin, 'r').then((h) => {
        const stream = h.createReadStream();
        stream.pipe(child.stdin);
        child.on('exit', () => stream.destroy());
      });
    } else child.stdin.end();
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      // time's own report follows the CLI's lines ("Command exited with non-zero status", then the tab-indented table).
      const own = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('\t') && !l.startsWith('Command exited'));
      resolve({ code, stderr: own.join('\n'), seconds: (performance.now() - started) / 1000, maxRssKiB: rss ? Number(rss[1]) : NaN });
    });
  });
}

const hasTime = existsSync(TIME);
const measured: string[] = [];

describe.skipIf(!hasTime)('hostile input ends within seconds, in one line, exit 2, under 1 GiB (built CLI, /usr/bin/time -v)', () => {
  const cases: [string, string[], 'endless-text' | string | null, RegExp][] = [
    ['chunk /dev/zero', ['chunk', '/dev/zero'], null, /"\/dev\/zero" looks like a binary file/],
    ['chunk /dev/urandom', ['chunk', '/dev/urandom'], null, /"\/dev\/urandom" (looks like a binary file|is not valid UTF-8)/],
    ['chunk - < /dev/zero', ['chunk', '-'], '/dev/zero', /"standard input" looks like a binary file/],
    ['chunk - < /dev/urandom', ['chunk', '-'], '/dev/urandom', /"standard input" (looks like a binary file|is not valid UTF-8)/],
    ['chunk - < endless text', ['chunk', '-'], 'endless-text', /"standard input" is larger than the limit, 64 MiB; stopped reading there \(raise it with --max-bytes\)/],
    ['eval /dev/zero', ['eval', '/dev/zero', '--questions', '/dev/zero'], null, /"\/dev\/zero" looks like a binary file/],
  ];
  for (const [what, argv, stdin, message] of cases) {
    it(what, async () => {
      const r = await spawnCli(argv, stdin);
      measured.push(`${what}: exit ${r.code}, ${r.seconds.toFixed(2)} s, max RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB`);
      console.log(measured.at(-1));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n')).toHaveLength(1);
      expect(r.seconds).toBeLessThan(10);
      expect(r.maxRssKiB).toBeLessThan(1024 * 1024);
    }, 30_000);
  }

  it('a 3 GiB file (sparse) is refused from its size, unread', async () => {
    const big = join(dir, 'big.txt');
    const h = await open(big, 'w');
    await h.truncate(3 * 1024 ** 3 + 100 * 1024 ** 2);
    await h.close();
    const r = await spawnCli(['chunk', big], null);
    measured.push(`3.1 GiB file: exit ${r.code}, ${r.seconds.toFixed(2)} s, max RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB`);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`chunkscope: "${big}" is 3.1 GiB; the limit is 64 MiB (raise it with --max-bytes)`);
    expect(r.maxRssKiB).toBeLessThan(256 * 1024);
  }, 30_000);
});

describe('--max-bytes and the read errors', () => {
  it('parses sizes with units and refuses what is not one', () => {
    expect(parseMaxBytes('1000')).toBe(1000);
    expect(parseMaxBytes('100MB')).toBe(100_000_000);
    expect(parseMaxBytes('128MiB')).toBe(128 * 1024 ** 2);
    expect(parseMaxBytes('1.5 kib')).toBe(1536);
    for (const bad of ['', 'ten', '-5', '0', '1GiB', '1e9', '12 parsecs']) expect(() => parseMaxBytes(bad), bad).toThrow(/--max-bytes/);
    expect(DEFAULT_MAX_BYTES).toBeGreaterThan(50 * 1024 ** 2);
    expect(formatBytes(3.1 * 1024 ** 3)).toBe('3.1 GiB');
    expect(formatBytes(64 * 1024 ** 2)).toBe('64 MiB');
  });

  it('turns every file-system error code into a sentence naming the file', () => {
    const codes = ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG', 'EMFILE', 'ENXIO', 'EIO', 'EAGAIN', 'ERR_FS_FILE_TOO_LARGE'];
    for (const code of codes) {
      const message = readError('x.txt', Object.assign(new Error(`${code}: raw`), { code })).message;
      expect(message, code).toMatch(/^cannot read "x\.txt": [a-z]/);
      expect(message, code).not.toContain(code);
    }
    expect(readError('x', Object.assign(new Error('EWHAT: odd\nsecond line'), { code: 'EWHAT' })).message).toBe('cannot read "x": EWHAT: EWHAT: odd');
  });

  it('a file over --max-bytes, and standard input over it, are one line each; at the limit they are read', async () => {
    const text = 'Words and more words.\n'.repeat(50); // 1,100 bytes
    const path = join(dir, 'small.txt');
    writeFileSync(path, text);
    expect(await runCli(['chunk', path, '--max-bytes', '1000'])).toEqual({ code: 2, out: '', err: `chunkscope: "${path}" is 1.1 KiB; the limit is 1000 bytes (raise it with --max-bytes)\n` });
    expect((await runCli(['chunk', path, '--max-bytes', '1100'])).code).toBe(0);
    const stdin = await runCli(['chunk', '-', '--max-bytes', '1000'], text);
    expect(stdin).toEqual({ code: 2, out: '', err: 'chunkscope: "standard input" is larger than the limit, 1000 bytes; stopped reading there (raise it with --max-bytes)\n' });
    expect((await runCli(['chunk', path, '--max-bytes', 'lots'])).err).toMatch(/^chunkscope: --max-bytes must be a size/);
  });

  it('reads a FIFO (a named pipe) as a stream', async () => {
    const fifo = join(dir, 'pipe.txt');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const text = 'From a pipe.\n\nSecond paragraph, a little longer than the first.';
    const writer = spawn('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', text, fifo]);
    const r = await runCli(['chunk', fifo, '--size', '30', '--overlap', '0']);
    writer.kill();
    expect(r.err).toBe('');
    for (const c of JSON.parse(r.out)) expect(c.text).toBe(text.slice(c.start, c.end));
  });

  it('missing files, directories and links in a loop are sentences, exit 2', async () => {
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    expect((await runCli(['chunk', join(dir, 'nope.txt')])).err).toBe(`chunkscope: cannot read "${join(dir, 'nope.txt')}": no such file\n`);
    expect((await runCli(['chunk', dir])).err).toBe(`chunkscope: cannot read "${dir}": it is a directory\n`);
    expect((await runCli(['chunk', loop])).err).toBe(`chunkscope: cannot read "${loop}": too many symbolic links (a link loop?)\n`);
    expect((await runCli(['chunk', join(dir, 'nope.txt', 'x')])).code).toBe(2);
  });
});

describe('the encoding rule through the CLI', () => {
  it('a UTF-8 BOM stays as character 0, outside every chunk: offsets hold against readFileSync(f, "utf8"); a note says so', async () => {
    const path = join(dir, 'bom.md');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Title\r\n\r\nBody text, long enough to cut.\r\n\r\n## Sub\r\n\r\nMore.\r\n')]));
    const source = readFileSync(path, 'utf8');
    for (const strategy of ['recursive', 'markdown', 'sentence', 'paragraph', 'character']) {
      const r = await runCli(['chunk', path, '--strategy', strategy, '--size', '20', '--overlap', '0']);
      expect(r.code, strategy).toBe(0);
      expect(r.err).toMatch(/^chunkscope: note: The file starts with a UTF-8 byte-order mark/);
      const chunks = JSON.parse(r.out) as { start: number; end: number; text: string }[];
      for (const c of chunks) {
        expect(c.text).toBe(source.slice(c.start, c.end));
        expect(c.text).not.toContain('\ufeff');
      }
    }
  });

  it('reads UTF-16 with a BOM and says which encoding was read', async () => {
    const text = 'Grüße aus UTF-16.\n\nZweiter Absatz.';
    const path = join(dir, 'utf16.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const r = await runCli(['chunk', path, '--size', '20', '--overlap', '0']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/note: Read as UTF-16 little-endian/);
    const source = readFileSync(path, 'utf16le');
    for (const c of JSON.parse(r.out)) expect(c.text).toBe(source.slice(c.start, c.end));
  });
});

describe('sweep and eval: list values, the directory walk, the corpus cap', () => {
  mkdirSync(join(dir, 'corpus'));
  writeFileSync(join(dir, 'corpus', 'a.txt'), 'Alpha bravo charlie.\n\nDelta echo foxtrot.');
  const questions = join(dir, 'q.jsonl');
  writeFileSync(questions, JSON.stringify({ question: 'echo', references: [{ start: 22, end: 41, content: 'Delta echo foxtrot.' }] }) + '\n');

  it('refuses every all-empty list value with one line, exit 2 (each list-valued flag)', async () => {
    const flags = ['--size', '--overlap', '--strategy', '--unit', '--retriever', '--k', '--compat', '--min-size', '--threshold', '--separator-regex', '--levels'];
    for (const flag of flags) {
      for (const value of [',,,', ',', ' , ']) {
        const r = await runCli(['sweep', join(dir, 'corpus'), '--questions', questions, flag, value]);
        expect(r.code, `${flag} ${value}`).toBe(2);
        expect(r.out).toBe('');
        expect(r.err.trimEnd().split('\n'), `${flag} ${value}`).toHaveLength(1);
      }
    }
    expect((await runCli(['sweep', join(dir, 'corpus'), '--questions', questions, '--size', ',,,'])).err).toBe(
      'chunkscope: --size ",,," lists no values; give one or more, e.g. --size 128,256\n',
    );
  });

  it('a broken link in a corpus directory is left out with a note; the documents together are capped', async () => {
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'corpus', 'broken.txt'));
    const r = await runCli(['eval', join(dir, 'corpus'), '--questions', questions, '--size', '30', '--overlap', '0']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`chunkscope: note: left out "${join(dir, 'corpus', 'broken.txt')}": no such file\n`);
    const a = join(dir, 'corpus', 'a.txt'); // 40 bytes, three times; the golden set is 89 bytes
    const capped = await runCli(['eval', join(dir, 'corpus'), a, a, '--questions', questions, '--max-bytes', '100']);
    expect(capped.code).toBe(2);
    expect(capped.err).toMatch(/^chunkscope: note: left out .*\nchunkscope: the documents together are larger than 100 bytes \(at ".*a\.txt"\); the limit is 100 bytes \(raise it with --max-bytes\)\n$/);
  });
});

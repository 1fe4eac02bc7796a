import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { chunk } from '../core/index';
import { createEmbedder } from '../embed/index';
import { formatChunks } from '../core/format';
import { main } from './main';
import { parseEscapes } from './input';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-cli-'));
function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
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
    ['an unknown unit', ['chunk', '-', '--unit', 'graphemes'], /unit/],
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

describe('chunkscope chunk --strategy semantic', () => {
  const topics = readFileSync(new URL('../embed/fixtures/topics.txt', import.meta.url), 'utf8');
  const topicsFile = file('topics.txt', topics);

  it('gives the same output as chunk() with the built-in embedder, with each boundary\'s distance', async () => {
    const r = await runCli(['chunk', topicsFile, '--strategy', 'semantic', '--chunks', '3', '--buffer', '0']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const embedder = await createEmbedder();
    const expected = await chunk(topics, { strategy: 'semantic', chunks: 3, buffer: 0 }, { embed: (t) => embedder.embed(t) });
    await embedder.dispose();
    expect(r.out).toBe(formatChunks(expected, 'json'));
    const chunks = JSON.parse(r.out);
    expect(chunks).toHaveLength(3);
    expect(chunks[0].metadata.distanceBefore).toBeUndefined();
    for (const c of chunks.slice(1)) expect(c.metadata.distanceBefore).toBeGreaterThan(0);
  });

  it('passes every semantic flag through to the options', async () => {
    const argv = ['--breakpoint', 'absolute', '--threshold', '0.2', '--buffer', '2', '--min-size', '50', '--max-size', '400', '--unit', 'words'];
    const r = await runCli(['chunk', topicsFile, '--strategy', 'semantic', '--compat', 'llamaindex', ...argv, '--sentences', 'regex']);
    expect(r.code).toBe(0);
    const embedder = await createEmbedder();
    const options = { strategy: 'semantic', compat: 'llamaindex', breakpoint: 'absolute', amount: 0.2, buffer: 2, minSize: 50, maxSize: 400, unit: 'words', sentences: 'regex' } as const;
    const expected = await chunk(topics, options, { embed: (t) => embedder.embed(t) });
    await embedder.dispose();
    expect(r.out).toBe(formatChunks(expected, 'json'));
  });

  const badSemantic: [string, string[], RegExp][] = [
    ['a percentile over 100', ['--threshold', '150'], /between 0 and 100/],
    ['a threshold that is not a number', ['--threshold', 'high'], /--threshold must be a number/],
    ['absolute without a threshold', ['--breakpoint', 'absolute'], /absolute breakpoint needs a threshold/],
    ['an unknown breakpoint mode', ['--breakpoint', 'median'], /breakpoint/],
    ['zero chunks', ['--chunks', '0'], /chunks/],
    ['a size (semantic chunks have a maximum instead)', ['--size', '300'], /use maxSize \(--max-size\)/],
    ['llamaindex compat for another strategy', ['--strategy', 'recursive', '--compat', 'llamaindex'], /llamaindex applies to sentence, token, semantic, markdown only/],
  ];
  for (const [what, argv, message] of badSemantic) {
    it(`refuses ${what} with one line`, async () => {
      const r = await runCli(['chunk', '-', '--strategy', 'semantic', ...argv], 'some text');
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('explains a one-sentence or unknown-words document on stderr, chunks still on stdout', async () => {
    const one = await runCli(['chunk', '-', '--strategy', 'semantic'], 'The boat left the harbour at dawn.');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out).map((c: { text: string }) => c.text)).toEqual(['The boat left the harbour at dawn.']);
    expect(one.err).toBe('chunkscope: note: one sentence: nothing to compare, the text is one chunk\n');
    const unknown = 'Zqxv blorp\nFnord wibblet\nQwzx plugh';
    const r = await runCli(['chunk', '-', '--strategy', 'semantic'], unknown);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((c: { text: string }) => c.text)).toEqual([unknown]);
    expect(r.err).toMatch(/^chunkscope: note: 2 of 2 sentence gaps have no distance .*only unknown words/);
  });

  it('says in one line that a hub model cannot be loaded offline', async () => {
    const r = await runCli(['chunk', topicsFile, '--strategy', 'semantic', '--embedder', 'Xenova/not-a-real-model-for-tests']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^chunkscope: could not load embedding model "Xenova\/not-a-real-model-for-tests"/);
    expect(r.err).toMatch(/models:fetch/);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('chunkscope chunk --format csv | langchain | llamaindex', () => {
  const text = 'Crème brûlée, "quoted", and 😀 emoji.\r\n\r\nA second paragraph, with a comma.\n\nA third one.';
  const argv = ['chunk', '-', '--size', '40', '--overlap', '0'];

  it('writes CSV whose text column gives back each chunk', async () => {
    const r = await runCli([...argv, '--format', 'csv'], text);
    expect(r.code).toBe(0);
    const chunks = JSON.parse((await runCli(argv, text)).out) as { text: string; id: string }[];
    const lines = r.out.split('\r\n');
    expect(lines[0]).toBe('index,start,end,size,id,text,content,heading_path,content_type,pages,parent_id,metadata');
    // One record per chunk (+ header, + the empty string after the last CRLF); quoted fields double their quotes.
    expect(r.out.endsWith('\r\n')).toBe(true);
    for (const c of chunks) {
      const quoted = /[",\r\n]/.test(c.text) ? '"' + c.text.replaceAll('"', '""') + '"' : c.text;
      expect(r.out).toContain(`,${c.id},${quoted},`);
    }
  });

  it('writes LangChain Documents with the page content and the start index', async () => {
    const r = await runCli([...argv, '--format', 'langchain'], text);
    expect(r.code).toBe(0);
    const docs = JSON.parse(r.out) as { pageContent: string; metadata: { start_index: number; source: string } }[];
    const chunks = JSON.parse((await runCli(argv, text)).out) as { content: string; start: number }[];
    expect(docs.map((d) => d.pageContent)).toEqual(chunks.map((c) => c.content));
    expect(docs.map((d) => d.metadata.start_index)).toEqual(chunks.map((c) => c.start));
    expect(docs[0]!.metadata.source).toBe('stdin');
  });

  it('writes LlamaIndex TextNodes linked in order, with code-point offsets', async () => {
    const r = await runCli([...argv, '--format', 'llamaindex'], text);
    expect(r.code).toBe(0);
    const nodes = JSON.parse(r.out) as { id_: string; text: string; start_char_idx: number; end_char_idx: number; relationships: Record<string, { node_id: string }> }[];
    const codePoints = Array.from(text);
    for (const n of nodes) expect(codePoints.slice(n.start_char_idx, n.end_char_idx).join('')).toBe(n.text);
    nodes.slice(1).forEach((n, i) => expect(n.relationships['2']!.node_id).toBe(nodes[i]!.id_));
  });
});

describe('chunkscope chunk: structure, headers and retrieval units', () => {
  const md = '# Guide\n\nIntro text here.\n\n## Setup\n\n' + 'Install the tool and run it. '.repeat(12) + '\n\n## Usage\n\nRun it daily.\n';

  it('--strategy markdown gives breadcrumbs; --headers puts them before the content, as chunk() does', async () => {
    const path = file('guide.md', md);
    const r = await runCli(['chunk', path, '--strategy', 'markdown', '--size', '200', '--headers']);
    expect(r.err).toBe('');
    const chunks = JSON.parse(r.out);
    expect(chunks.map((c: { metadata: { headingPath: string[] } }) => c.metadata.headingPath)).toContainEqual(['Guide', 'Usage']);
    const usage = chunks.find((c: { text: string }) => c.text.includes('Run it daily'));
    expect(usage.content).toBe('Guide > Usage\n\n' + usage.text);
    const library = await chunk(md, { strategy: 'markdown', size: 200, headers: true, path });
    expect(r.out).toBe(formatChunks(library, 'json'));
  });

  it('--header-template takes a template with escapes; --heading-depth and --rows-as-text pass through', async () => {
    const r = await runCli(['chunk', file('g2.md', md), '--strategy', 'markdown', '--header-template', '[{path}]\\n', '--heading-depth', '1']);
    const chunks = JSON.parse(r.out);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].content.startsWith('[Guide]\n')).toBe(true);
  });

  it('--parent-size, --window and --levels make retrieval units with levels and parent ids', async () => {
    const path = file('g3.md', md);
    const pc = JSON.parse((await runCli(['chunk', path, '--strategy', 'markdown', '--size', '100', '--parent-size', '400'])).out);
    const parents = pc.filter((c: { metadata: { level: number } }) => c.metadata.level === 0);
    const children = pc.filter((c: { metadata: { level: number } }) => c.metadata.level === 1);
    expect(parents.length).toBeGreaterThan(0);
    expect(children.length).toBeGreaterThan(parents.length);
    for (const c of children) {
      const parent = pc.find((p: { id: string }) => p.id === c.metadata.parentId);
      expect(parent.start <= c.start && c.end <= parent.end).toBe(true);
    }
    const win = JSON.parse((await runCli(['chunk', path, '--strategy', 'sentence', '--window', '1'])).out);
    for (const c of win) expect(c.metadata.window.start <= c.start && c.end <= c.metadata.window.end).toBe(true);
    const levels = JSON.parse((await runCli(['chunk', path, '--levels', '300,100'])).out);
    expect(new Set(levels.map((c: { metadata: { level: number } }) => c.metadata.level))).toEqual(new Set([0, 1]));
  });

  it('refuses bad structure flags with one line and exit 2', async () => {
    for (const args of [['--levels', '100,300'], ['--heading-depth', '9'], ['--parent-size', '400', '--window', '2'], ['--header-template', 'plain']]) {
      const r = await runCli(['chunk', file('g4.md', md), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.out).toBe('');
    }
  });
});

describe('chunkscope chunk <pdf>', () => {
  const pdf = new URL('../../e2e/files/travel-policy.pdf', import.meta.url).pathname;

  it('reads the PDF, drops repeated page furniture and gives each chunk its pages', async () => {
    const r = await runCli(['chunk', pdf, '--size', '400', '--drop-page-furniture']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/note: Dropped \d+ repeated header\/footer lines/);
    const chunks = JSON.parse(r.out);
    const pages = chunks.map((c: { metadata: { pages: number[] } }) => c.metadata.pages);
    expect(pages[0]).toEqual([1]);
    expect(pages[pages.length - 1].at(-1)).toBe(4);
    // In order, and a chunk's pages are consecutive.
    for (let i = 0; i < pages.length; i++) {
      const p = pages[i];
      expect(p).toEqual(Array.from({ length: p.length }, (_, k) => p[0] + k));
      if (i > 0) expect(p[0]).toBeGreaterThanOrEqual(pages[i - 1][0]);
    }
    expect(chunks.some((c: { text: string }) => /Page \d+ of 4/.test(c.text))).toBe(false);
    const kept = JSON.parse((await runCli(['chunk', pdf, '--size', '400'])).out);
    expect(kept.some((c: { text: string }) => /Page \d+ of 4/.test(c.text))).toBe(true);
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

  it('chunks semantically from the bundle: transformers.js loads and the built-in model is found from dist/lib', async () => {
    const topics = readFileSync(new URL('../embed/fixtures/topics.txt', import.meta.url), 'utf8');
    const argv = ['chunk', '-', '--strategy', 'semantic', '--chunks', '3'];
    const r = spawnSync(process.execPath, ['bin/chunkscope.js', ...argv], { input: topics, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe((await runCli(argv, topics)).out);
  });

  it("--version prints package.json's version, from the sources and from the bundle", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await runCli(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
    const r = spawnSync(process.execPath, ['bin/chunkscope.js', '-v'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${version}\n`);
  });

  it('stops quietly when the reader of its output goes away (chunkscope chunk big.txt | head)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/chunkscope.js', 'chunk', '-', '--size', '40', '--overlap', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    child.stdin.end(doc.repeat(400));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first block of output, then close the pipe as `head` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('exits non-zero with one line for a missing file', () => {
    const r = spawnSync(process.execPath, ['bin/chunkscope.js', 'chunk', 'does-not-exist.txt'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('chunkscope: every bad input is one line and exit 2', () => {
  const oneLine = (r: { code: number; err: string }) => {
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  };

  it('negative numbers are validated, not "argument is ambiguous"', async () => {
    const path = file('neg.txt', doc);
    const size = await runCli(['chunk', path, '--size', '-5']);
    oneLine(size);
    expect(size.err).toBe('chunkscope: size must be a positive whole number (got -5)\n');
    const overlap = await runCli(['chunk', path, '--overlap', '-1']);
    oneLine(overlap);
    expect(overlap.err).toContain('overlap must not be negative (got -1)');
    oneLine(await runCli(['chunk', path, '--size', '-0.5']));
    oneLine(await runCli(['chunk', path, '--size']));
    oneLine(await runCli(['chunk', path, '--bogus']));
    oneLine(await runCli(['eval', path, '--k', '-3']));
  });

  it('an unknown code language (even a prototype key) and an undetectable one exit 2', async () => {
    for (const language of ['zzz', 'constructor', 'toString', '__proto__', 'kotlin']) {
      const r = await runCli(['chunk', file('a.py', 'def f():\n    return 1\n'), '--strategy', 'code', '--language', language]);
      oneLine(r);
      expect(r.err).toMatch(/language/);
    }
    const r = await runCli(['chunk', file('a.zzz', 'x = 1\n'), '--strategy', 'code']);
    oneLine(r);
    expect(r.err).toContain('cannot tell the code language');
  });

  it('refuses a run that could make more chunks than the cap, fast, in one line', async () => {
    const t0 = performance.now();
    const r = await runCli(['chunk', file('big.txt', 'a'.repeat(3_000_000)), '--strategy', 'fixed', '--size', '1', '--overlap', '0']);
    oneLine(r);
    expect(r.err).toContain('at most 2,000,000');
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('writes json and jsonl in batches with the same bytes as formatChunks', async () => {
    const text = 'word '.repeat(3000);
    const path = file('many.txt', text);
    const chunks = await chunk(text, { strategy: 'fixed', size: 5, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1024);
    for (const format of ['json', 'jsonl'] as const) {
      const writes: string[] = [];
      const code = await main(['chunk', path, '--strategy', 'fixed', '--size', '5', '--overlap', '0', '--format', format], {
        stdout: (s) => void writes.push(s),
        stderr: () => undefined,
        readStdin: async () => new Uint8Array(),
      });
      expect(code).toBe(0);
      expect(writes.length).toBeGreaterThan(2);
      expect(writes.join('')).toBe(formatChunks(chunks, format));
    }
    expect((await runCli(['chunk', file('blank.txt', '   \n'), '--format', 'json'])).out).toBe(formatChunks([], 'json'));
  });
});

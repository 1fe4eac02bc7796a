import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import { STRATEGY_NAMES } from '../strategies';
import { resolveCodeLanguage } from '../strategies/code/languages';
import { validateOptions } from '../options';
import type { ChunkOptions, ResolvedOptions } from '../types';
import { CODE_TARGET_RUNTIME, codeFor, loadCopyAsCode, jsString, pyString, reproducesExactly, targetsFor } from './copyAsCode';

// The programs load on first use (the registry keeps them behind dynamic imports).
beforeAll(() => loadCopyAsCode());

const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;
const DIR = mkdtempSync(join(tmpdir(), 'chunkscope-code-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const NASTY = ['', '"', "'", '\\', '\n', '\r\n', '\t', '\0', '\x7f', '\u2028', '\u0085', '😀', '\ud83d', '\ude00x', '\\n', '${x}', '`', 'é日本', '"""', "\\'"];

describe('string literals', () => {
  it('jsString evaluates back to the same string (lone surrogates and line separators included)', () => {
    for (const s of NASTY) expect(runInNewContext(jsString(s))).toBe(s);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => runInNewContext(jsString(s)) === s));
  });

  it.skipIf(!HAS_PYTHON)('pyString evaluates back to the same string in Python 3', () => {
    const samples = [...NASTY, ...fc.sample(fc.string({ unit: 'binary', maxLength: 20 }), 200)];
    const program = `import json\nprint(json.dumps([${samples.map(pyString).join(',\n')}]))\n`;
    const file = join(DIR, 'literals.py');
    writeFileSync(file, program, 'utf8');
    // ensure_ascii (the default) escapes lone surrogates as \\udXXX, which JSON.parse reads back as themselves.
    expect(JSON.parse(execFileSync('python3', [file], { encoding: 'utf8' }))).toEqual(samples);
  });
});

/** One configuration per strategy plus the awkward ones (presets, regex, 'end', words, tokens). */
const CONFIGS: ChunkOptions[] = [
  ...STRATEGY_NAMES.filter((s) => s !== 'semantic').map((strategy) => ({ strategy })),
  { strategy: 'semantic', breakpoint: 'gradient', amount: 90, maxSize: 300, embedder: 'Xenova/all-MiniLM-L6-v2' },
  { strategy: 'semantic', breakpoint: 'absolute', amount: 0.3, minSize: 20, chunks: 4 },
  { strategy: 'recursive', language: 'python', size: 300, overlap: 30, compat: 'langchain' },
  { strategy: 'recursive', language: 'ts', unit: 'cl100k_base', size: 100, overlap: 10 },
  { strategy: 'recursive', separators: ['\\n{2,}', '[.!?]\\s'], separatorsAreRegex: true, keepSeparator: 'end' },
  { strategy: 'character', separators: ['"\'\\\r\n😀'], unit: 'words', size: 50, overlap: 5 },
  { strategy: 'fixed', unit: 'o200k_base', size: 64, overlap: 8 },
  { strategy: 'fixed', unit: 'words', size: 64, overlap: 8 },
  { strategy: 'fixed', unit: 'bytes', size: 64, overlap: 8 },
  { strategy: 'recursive', unit: 'bytes', size: 200, overlap: 20 },
  { strategy: 'sentence', unit: 'words', size: 40, overlap: 4 },
  { strategy: 'markdown', headingDepth: 2, unit: 'words', size: 120, overlap: 10 },
  { strategy: 'markdown', compat: 'langchain', stripHeaders: false, returnEachLine: true },
  { strategy: 'markdown', compat: 'llamaindex', headers: true },
  { strategy: 'html', headingDepth: 4, unit: 'cl100k_base', size: 300, rowsAsText: true },
  { strategy: 'recursive', compat: 'chonkie' },
  { strategy: 'token', compat: 'chonkie', unit: 'cl100k_base', size: 64, overlap: 8 },
  { strategy: 'sentence', compat: 'chonkie', size: 300, overlap: 40 },
];
/** Code strategy configurations (resolved by codeOptions). */
const CODE_CONFIGS: ChunkOptions[] = [
  { language: 'python', size: 600, overlap: 60 },
  { path: 'src/lib/main.rs', unit: 'cl100k_base', size: 200 },
  { path: 'README', size: 500 },
];

/**
 * Resolved options for the code strategy: validated when the strategy is registered; until then built on the
 * recursive strategy's resolution (codeFor reads only strategy, size, overlap, unit, language and path).
 */
function codeOptions(extra: ChunkOptions): ResolvedOptions {
  if ((STRATEGY_NAMES as string[]).includes('code')) return validateOptions({ strategy: 'code', ...extra });
  const base = validateOptions({ strategy: 'recursive', size: extra.size, overlap: extra.overlap ?? 0, unit: extra.unit });
  return { ...base, strategy: 'code', language: extra.language ?? null, path: extra.path ?? null };
}

describe('codeFor', () => {
  it('every target gives a program for every configuration, and it parses', () => {
    let n = 0;
    const pyFiles: string[] = [];
    for (const resolved of [...CONFIGS.map((o) => validateOptions(o)), ...CODE_CONFIGS.map(codeOptions)]) {
      const options = resolved;
      for (const target of targetsFor(resolved)) {
        const code = codeFor(resolved, target);
        expect(code).toContain(`strategy ${resolved.strategy}`);
        const file = join(DIR, `p${n++}.${CODE_TARGET_RUNTIME[target] === 'node' ? 'mjs' : 'py'}`);
        writeFileSync(file, code, 'utf8');
        if (CODE_TARGET_RUNTIME[target] === 'node') {
          const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
          expect(check.status, `${JSON.stringify(options)}\n${code}\n${check.stderr}`).toBe(0);
        } else pyFiles.push(file);
      }
    }
    if (HAS_PYTHON) {
      const compileAll = `import sys\nfor p in sys.argv[1:]:\n    compile(open(p, encoding="utf-8").read(), p, "exec")\n`;
      const r = spawnSync('python3', ['-c', compileAll, ...pyFiles], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
  });

  it('property: random configurations give programs that parse, separators evaluating back to themselves', () => {
    const separator = fc.oneof(fc.constantFrom(...NASTY.filter((x) => x !== '')), fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }));
    const options = fc.record({
      strategy: fc.constantFrom(...STRATEGY_NAMES.filter((x) => x !== 'semantic')),
      unit: fc.constantFrom('chars', 'words', 'bytes', 'cl100k_base', 'gpt2'),
      keepSeparator: fc.constantFrom('start', 'end', 'none'),
      separators: fc.array(separator, { minLength: 1, maxLength: 4 }),
      language: fc.option(fc.constantFrom('python', 'markdown', 'ts', 'latex', 'c'), { nil: undefined }),
    })
      .filter((o) => o.strategy !== 'token' || (o.unit !== 'chars' && o.unit !== 'words' && o.unit !== 'bytes'))
      // The code strategy's language is a grammar name (python, ts, c ...), not a separator preset such as latex.
      .filter((o) => o.strategy !== 'code' || o.language === undefined || resolveCodeLanguage(o.language) !== null);
    const samples = fc.sample(options, 25);
    const pyFiles: string[] = [];
    samples.forEach((given, n) => {
      const resolved = validateOptions(given as ChunkOptions);
      for (const target of targetsFor(resolved)) {
        const code = codeFor(resolved, target);
        const file = join(DIR, `r${n}-${target}.${CODE_TARGET_RUNTIME[target] === 'node' ? 'mjs' : 'py'}`);
        writeFileSync(file, code, 'utf8');
        if (CODE_TARGET_RUNTIME[target] === 'node') {
          const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
          expect(check.status, `${code}\n${check.stderr}`).toBe(0);
          if (target !== 'langchain-js') continue;
          // The separators written into the program are the configured ones, character for character.
          const listed = /separators: (\[.*\]),/.exec(code);
          if (listed) expect(runInNewContext(listed[1]!)).toEqual(resolved.strategy === 'recursive' ? resolved.separators : expect.anything());
          const single = /separator: (".*"),/.exec(code);
          if (single && resolved.strategy === 'character') expect(runInNewContext(single[1]!)).toBe(resolved.separators[0]);
        } else pyFiles.push(file);
      }
    });
    if (HAS_PYTHON) {
      const compileAll = `import sys\nfor p in sys.argv[1:]:\n    compile(open(p, encoding="utf-8", errors="surrogatepass").read(), p, "exec")\n`;
      const r = spawnSync('python3', ['-c', compileAll, ...pyFiles], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
  }, 60_000);

  it('uses the language preset by name where the library has it', () => {
    const compat = validateOptions({ strategy: 'recursive', language: 'markdown', compat: 'langchain', size: 200, overlap: 20 });
    expect(codeFor(compat, 'langchain-js')).toContain("RecursiveCharacterTextSplitter.fromLanguage(\"markdown\"");
    expect(codeFor(compat, 'langchain-python')).toContain('get_separators_for_language(Language.MARKDOWN)');
    // ts is Chunkscope's own list: LangChain JS gets the separators written out.
    const ts = validateOptions({ strategy: 'recursive', language: 'ts' });
    const js = codeFor(ts, 'langchain-js');
    expect(js).not.toContain('fromLanguage');
    expect(js).toContain('"\\nexport "');
    expect(js).toContain('has no "ts" preset');
  });

  it('carries size, overlap, keepSeparator and the unit', () => {
    const o = validateOptions({ strategy: 'recursive', size: 123, overlap: 45, keepSeparator: 'none', unit: 'cl100k_base' });
    const js = codeFor(o, 'langchain-js');
    expect(js).toContain('chunkSize: 123');
    expect(js).toContain('chunkOverlap: 45');
    expect(js).toContain('keepSeparator: false');
    expect(js).toContain('getEncoding("cl100k_base")');
    const py = codeFor(o, 'langchain-python');
    expect(py).toContain('from_tiktoken_encoder(');
    expect(py).toContain('chunk_size=123');
    expect(py).toContain('keep_separator=False');
    expect(codeFor(validateOptions({ strategy: 'recursive', keepSeparator: 'end' }), 'langchain-python')).toContain('keep_separator="end"');
    expect(codeFor(validateOptions({ strategy: 'token', size: 100, overlap: 10 }), 'chonkie')).toContain('TokenChunker("cl100k_base", chunk_size=100, chunk_overlap=10)');
  });

  it('says where a library lacks the strategy or a feature', () => {
    expect(codeFor(validateOptions({ strategy: 'semantic' }), 'langchain-js')).toContain('LangChain JS has no semantic splitter');
    expect(codeFor(validateOptions({ strategy: 'sentence' }), 'langchain-js')).toContain('has no sentence splitter');
    expect(codeFor(validateOptions({ strategy: 'recursive', keepSeparator: 'end' }), 'langchain-js')).toContain("cannot keep a separator at the end");
    expect(codeFor(validateOptions({ strategy: 'paragraph' }), 'chonkie')).toContain('Chonkie has no paragraph chunker');
    expect(codeFor(validateOptions({ strategy: 'semantic', breakpoint: 'interquartile' }), 'llamaindex')).toContain('percentile only');
    expect(codeFor(validateOptions({ strategy: 'semantic', breakpoint: 'absolute', amount: 0.3 }), 'langchain-python')).toContain('no absolute distance threshold');
  });

  it('claims exactness only for LangChain JS, LlamaIndex TS and Chonkie TS in their compat modes', () => {
    for (const resolved of [...CONFIGS.map((o) => validateOptions(o)), ...CODE_CONFIGS.map(codeOptions)]) {
      for (const target of targetsFor(resolved)) {
        const exact = reproducesExactly(resolved, target);
        const exactly = (target === 'langchain-js' && resolved.compat === 'langchain' && resolved.strategy !== 'markdown') || (target === 'chonkie-ts' && resolved.compat === 'chonkie') || (target === 'llamaindex-ts' && resolved.compat === 'llamaindex');
        expect(exact).toBe(exactly);
        expect(codeFor(resolved, target).includes("exactly Chunkscope's chunks")).toBe(exact);
      }
    }
  });
});

describe('codeFor: structure strategies', () => {
  it('markdown: LangChain Python header splitter down to the depth, then the size splitter; JS and Chonkie say what differs', () => {
    const o = validateOptions({ strategy: 'markdown', headingDepth: 2, size: 400, overlap: 40 });
    const py = codeFor(o, 'langchain-python');
    expect(py).toContain('MarkdownHeaderTextSplitter(headers_to_split_on=[("#", "Header 1"), ("##", "Header 2")], strip_headers=False)');
    expect(py).toContain('chunk_size=400');
    expect(py).toContain('splitter.split_documents(sections)');
    const js = codeFor(o, 'langchain-js');
    expect(js).toContain('RecursiveCharacterTextSplitter.fromLanguage("markdown"');
    expect(js).toContain('LangChain JS has no MarkdownHeaderTextSplitter');
    expect(js).toContain('headings of depth <= 2');
    const llama = codeFor(o, 'llamaindex');
    expect(llama).toContain('MarkdownNodeParser().get_nodes_from_documents');
    expect(llama).toContain('SentenceSplitter(');
    expect(codeFor(o, 'chonkie')).toContain('RecursiveChunker.from_recipe("markdown", "en", None, "character", chunk_size=400)');
    expect(codeFor(o, 'chonkie')).toContain('chonkie[hub]');
  });

  it('markdown compat modes: the reproduced splitter alone, with the options given', () => {
    const lc = codeFor(validateOptions({ strategy: 'markdown', compat: 'langchain', headingDepth: 4, stripHeaders: false, returnEachLine: true }), 'langchain-python');
    expect(lc).toContain('("####", "Header 4")');
    expect(lc).toContain('strip_headers=False');
    expect(lc).toContain('return_each_line=True');
    expect(lc).not.toContain('RecursiveCharacterTextSplitter');
    const li = codeFor(validateOptions({ strategy: 'markdown', compat: 'llamaindex' }), 'llamaindex');
    expect(li).toContain('nodes = MarkdownNodeParser().get_nodes_from_documents');
    expect(li).not.toContain('SentenceSplitter');
    expect(codeFor(validateOptions({ strategy: 'markdown', compat: 'langchain' }), 'langchain-js')).toContain('the langchain-python target');
  });

  it('html: HTMLHeaderTextSplitter h1..hN, fromLanguage("html"), HTMLNodeParser, Chonkie recursive levels at headings', () => {
    const o = validateOptions({ strategy: 'html', headingDepth: 2, size: 300, overlap: 0, unit: 'cl100k_base' });
    const py = codeFor(o, 'langchain-python');
    expect(py).toContain('HTMLHeaderTextSplitter(headers_to_split_on=[("h1", "Header 1"), ("h2", "Header 2")])');
    expect(py).toContain('from_tiktoken_encoder(');
    expect(py).toContain('tags removed');
    expect(codeFor(o, 'langchain-js')).toContain('RecursiveCharacterTextSplitter.fromLanguage("html"');
    expect(codeFor(o, 'llamaindex')).toContain('HTMLNodeParser(tags=');
    const chonkie = codeFor(o, 'chonkie');
    expect(chonkie).toContain('Chonkie has no HTML chunker');
    expect(chonkie).toContain('RecursiveLevel(delimiters=["<h1", "<h2"], include_delim="next")');
  });

  it('code: the grammar from the language option or the file name, mapped to each library', () => {
    const python = codeOptions({ language: 'python', size: 600, overlap: 60 });
    expect(codeFor(python, 'langchain-js')).toContain('fromLanguage("python"');
    expect(codeFor(python, 'langchain-python')).toContain('language=Language.PYTHON');
    expect(codeFor(python, 'llamaindex')).toContain('CodeSplitter(language="python", max_chars=600)');
    expect(codeFor(python, 'chonkie')).toContain('CodeChunker("character", chunk_size=600, language="python")');
    const ts = codeOptions({ path: 'web/app.tsx', size: 300 });
    expect(codeFor(ts, 'langchain-js')).toContain('fromLanguage("js"');
    expect(codeFor(ts, 'langchain-js')).toContain('no tsx list');
    expect(codeFor(ts, 'langchain-python')).toContain('Language.TS');
    expect(codeFor(ts, 'chonkie')).toContain('language="tsx"');
    const unknown = codeOptions({ path: 'Makefile', size: 300 });
    expect(codeFor(unknown, 'langchain-js')).toContain('new RecursiveCharacterTextSplitter({');
    expect(codeFor(unknown, 'chonkie')).toContain('language="auto"');
    for (const target of targetsFor(python)) expect(codeFor(python, target)).toMatch(/adds no prefix/);
  });

  it('says which Chunkscope features a program does not reproduce', () => {
    const o = validateOptions({ strategy: 'html', headers: true, rowsAsText: true, parentSize: 2000 });
    for (const target of targetsFor(o)) {
      const line = codeFor(o, target).split('\n').find((l) => l.includes('Not reproduced here'))!;
      expect(line).toContain('contextual headers');
      expect(line).toContain('parent-child retrieval units');
      expect(line).toContain('"column: value" table rows');
    }
  });
});

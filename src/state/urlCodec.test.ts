import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { decodeConfig, decodeStructure, encodeConfig, encodeStructure, hasConfig } from './urlCodec';

/** What a configuration link without any structure key means. */
const STRUCTURE_DEFAULTS = decodeStructure(new URLSearchParams());

const known = {
  strategies: ['fixed', 'token', 'character', 'sentence', 'paragraph', 'recursive'],
  units: ['chars', 'words', 'cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'],
};

describe('configuration in the URL', () => {
  it('uses the CLI flag names, one sep per separator in order', () => {
    const config: Config = { ...DEFAULT_CONFIG, size: 120, overlap: 20, unit: 'words', separators: ['\n\n', '\n', '.'], keepSeparator: 'end' };
    const q = new URLSearchParams(encodeConfig(config));
    expect(q.get('strategy')).toBe('recursive');
    expect(q.get('size')).toBe('120');
    expect(q.get('overlap')).toBe('20');
    expect(q.get('unit')).toBe('words');
    expect(q.getAll('sep')).toEqual(['\n\n', '\n', '.']);
    expect(q.get('keep')).toBe('end');
    expect(q.has('compat')).toBe(false);
  });

  it('round-trips every control', () => {
    const arbConfig = fc.record({
      strategy: fc.constantFrom(...(known.strategies as Config['strategy'][])),
      size: fc.integer({ min: 1, max: 100_000 }),
      overlap: fc.integer({ min: 0, max: 100_000 }),
      unit: fc.constantFrom(...(known.units as Config['unit'][])),
      separators: fc.option(fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 }), { nil: null }),
      separatorsAreRegex: fc.boolean(),
      keepSeparator: fc.constantFrom('start' as const, 'end' as const, 'none' as const, null),
      language: fc.constantFrom('python', 'markdown', null),
      locale: fc.constantFrom('de', 'ja', 'zh-Hans', null),
      compat: fc.boolean(),
      contextWindow: fc.integer({ min: 1, max: 1_000_000 }),
      chunksInContext: fc.integer({ min: 1, max: 100 }),
    }).map((c): Config => ({ ...DEFAULT_CONFIG, ...c }));
    fc.assert(
      fc.property(arbConfig, (config) => {
        const decoded = { ...DEFAULT_CONFIG, ...decodeConfig('?' + encodeConfig(config), known) };
        expect(decoded).toEqual(config);
      }),
    );
  });

  it('round-trips the semantic controls under the CLI flag names', () => {
    const arbSemantic = fc.record({
      breakpoint: fc.constantFrom('percentile' as const, 'standard_deviation' as const, 'interquartile' as const, 'gradient' as const, 'absolute' as const),
      amount: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
      targetChunks: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
      buffer: fc.integer({ min: 0, max: 5 }),
      minSize: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
      maxSize: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
      embedder: fc.constantFrom('builtin', 'Xenova/all-MiniLM-L6-v2'),
      sentences: fc.constantFrom('intl' as const, 'regex' as const),
      llamaindex: fc.boolean(),
    });
    fc.assert(
      fc.property(arbSemantic, (semantic) => {
        const config: Config = { ...DEFAULT_CONFIG, strategy: 'semantic', ...semantic };
        const decoded = { ...DEFAULT_CONFIG, ...decodeConfig('?' + encodeConfig(config), { ...known, strategies: [...known.strategies, 'semantic'] }) };
        expect(decoded).toEqual(config);
      }),
    );
    const q = new URLSearchParams(encodeConfig({ ...DEFAULT_CONFIG, strategy: 'semantic', breakpoint: 'absolute', amount: 0.35, targetChunks: 4 }));
    expect([q.get('breakpoint'), q.get('threshold'), q.get('chunks'), q.get('embedder')]).toEqual(['absolute', '0.35', '4', 'builtin']);
  });

  it('carries regular-expression separators as regex=1, absent when off', () => {
    const config: Config = { ...DEFAULT_CONFIG, strategy: 'character', separators: ['[.!?]\\s+', '\\n{2,}'], separatorsAreRegex: true };
    const encoded = encodeConfig(config);
    const q = new URLSearchParams(encoded);
    expect(q.get('regex')).toBe('1');
    // Backslashes survive the query string: the pattern is what the regex engine gets.
    expect(q.getAll('sep')).toEqual(['[.!?]\\s+', '\\n{2,}']);
    expect({ ...DEFAULT_CONFIG, ...decodeConfig('?' + encoded, known) }).toEqual(config);

    const literal = encodeConfig({ ...config, separatorsAreRegex: false });
    expect(new URLSearchParams(literal).has('regex')).toBe(false);
    // A link without regex=1 means literal separators, even over a stored setting that had them on.
    const stored: Config = { ...DEFAULT_CONFIG, separatorsAreRegex: true };
    expect({ ...stored, ...decodeConfig('?' + literal, known) }.separatorsAreRegex).toBe(false);
    expect(hasConfig('?regex=1')).toBe(true);
  });

  it('ignores unknown or malformed values so defaults apply', () => {
    const decoded = decodeConfig('?strategy=nope&size=abc&unit=bytes&keep=sideways&overlap=10', known);
    expect(decoded).toEqual({ overlap: 10, separatorsAreRegex: false, ...STRUCTURE_DEFAULTS });
  });

  it('knows when a query carries a configuration', () => {
    expect(hasConfig('')).toBe(false);
    expect(hasConfig('?utm=x')).toBe(false);
    expect(hasConfig('?size=100')).toBe(true);
  });

  it('a link without structure keys means their defaults', () => {
    const d = DEFAULT_CONFIG;
    expect(STRUCTURE_DEFAULTS).toEqual({
      rowsAsText: d.rowsAsText, stripHeaders: d.stripHeaders, returnEachLine: d.returnEachLine, headerMode: d.headerMode,
      retrieval: d.retrieval, path: d.path, codeLanguage: d.codeLanguage,
    });
  });
});

describe('structure, header and retrieval controls in the URL', () => {
  const ALL = new Set(['headingDepth', 'rowsAsText', 'stripHeaders', 'returnEachLine', 'headers', 'retrieval', 'path']);
  const encode = (config: Config, controls = ALL) => {
    const q = new URLSearchParams();
    encodeStructure(q, config, controls);
    return q;
  };

  it('uses the short keys documented in urlCodec', () => {
    const q = encode({
      ...DEFAULT_CONFIG, headingDepth: 2, rowsAsText: true, compat: true, stripHeaders: false, returnEachLine: true,
      headerMode: 'custom', headerTemplate: '{file}: {path}', retrieval: 'hierarchical', levels: '1024, 256', path: 'docs/a.md',
    });
    expect(Object.fromEntries(q)).toEqual({ depth: '2', rows: '1', strip: '0', each: '1', hdr: '{file}: {path}', ret: 'hierarchical', levels: '1024, 256', path: 'docs/a.md' });
    expect(Object.fromEntries(encode({ ...DEFAULT_CONFIG, retrieval: 'parent-child', parentSize: 2000, headerMode: 'path' }))).toEqual({ depth: '3', hdr: 'path', ret: 'parent-child', psize: '2000' });
    expect(Object.fromEntries(encode({ ...DEFAULT_CONFIG, retrieval: 'window', window: 2 }))).toEqual({ depth: '3', ret: 'window', win: '2' });
    expect(Object.fromEntries(encode({ ...DEFAULT_CONFIG, strategy: 'code', codeLanguage: 'go' }, new Set(['path'])))).toEqual({ codelang: 'go' });
    for (const key of ['depth', 'rows', 'hdr', 'ret', 'psize', 'win', 'levels', 'path', 'codelang']) expect(hasConfig(`?${key}=1`)).toBe(true);
  });

  it('leaves out what the strategy does not use', () => {
    const config: Config = { ...DEFAULT_CONFIG, headingDepth: 2, rowsAsText: true, headerMode: 'path', retrieval: 'window' };
    expect([...encode(config, new Set()).keys()]).toEqual([]);
  });

  it('round-trips every structure control the strategy uses', () => {
    const arb = fc.record({
      headingDepth: fc.integer({ min: 1, max: 6 }),
      rowsAsText: fc.boolean(),
      compat: fc.boolean(),
      stripHeaders: fc.boolean(),
      returnEachLine: fc.boolean(),
      headerMode: fc.constantFrom('off' as const, 'path' as const, 'custom' as const),
      headerTemplate: fc.constantFrom('{title} — {path}', 'File {file}', '日本 {path} & ?=#'),
      retrieval: fc.constantFrom('chunks' as const, 'parent-child' as const, 'window' as const, 'hierarchical' as const),
      parentSize: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      window: fc.integer({ min: 0, max: 10 }),
      levels: fc.constantFrom('2048, 512, 128', '512,128', '512, 2048'),
      path: fc.constantFrom(null, 'src/a b.py', 'handbook.md'),
    });
    fc.assert(
      fc.property(arb, (fields) => {
        const config: Config = { ...DEFAULT_CONFIG, ...fields };
        const decoded: Config = { ...DEFAULT_CONFIG, ...decodeStructure(encode(config)) };
        // What the link carries is exactly what the strategy's chunks depend on.
        expect(decoded.headingDepth).toBe(config.headingDepth);
        expect(decoded.rowsAsText).toBe(config.rowsAsText);
        if (config.compat) expect([decoded.stripHeaders, decoded.returnEachLine]).toEqual([config.stripHeaders, config.returnEachLine]);
        const header = config.headerMode === 'custom' && config.headerTemplate.trim() === '' ? 'path' : config.headerMode;
        expect(decoded.headerMode).toBe(header);
        if (header === 'custom') expect(decoded.headerTemplate).toBe(config.headerTemplate);
        expect(decoded.retrieval).toBe(config.retrieval);
        if (config.retrieval === 'parent-child') expect(decoded.parentSize).toBe(config.parentSize);
        if (config.retrieval === 'window') expect(decoded.window).toBe(config.window);
        if (config.retrieval === 'hierarchical') expect(decoded.levels).toBe(config.levels);
        expect(decoded.path).toBe(config.path);
      }),
    );
  });
});

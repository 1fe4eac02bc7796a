import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { decodeConfig, encodeConfig, hasConfig } from './urlCodec';

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
    expect(decoded).toEqual({ overlap: 10, separatorsAreRegex: false });
  });

  it('knows when a query carries a configuration', () => {
    expect(hasConfig('')).toBe(false);
    expect(hasConfig('?utm=x')).toBe(false);
    expect(hasConfig('?size=100')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LANGUAGE_NAMES, STRATEGIES, type OptionSpec } from '../core/describe';
import { CONFIG_OPTIONS, DEFAULT_CONFIG, type Config } from './configSlice';
import { canonicalFor, optionApplies, optionInUse, strategyDefinition, usableFor } from './strategyInfo';
import { decodeConfig, encodeConfig, hasConfig } from './urlCodec';

const known = {
  strategies: ['fixed', 'token', 'character', 'sentence', 'paragraph', 'recursive'],
  units: ['chars', 'words', 'cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'],
};
const allKnown = { ...known, strategies: [...known.strategies, 'semantic', 'markdown', 'html', 'code'] };

/** What a configuration link without structure keys means (markdown in LangChain mode: every structure control). */
const STRUCTURE_DEFAULTS = (() => {
  const d = decodeConfig('?strategy=markdown&compat=langchain', allKnown);
  return { rowsAsText: d.rowsAsText, stripHeaders: d.stripHeaders, returnEachLine: d.returnEachLine, headers: d.headers, retrieval: d.retrieval, headingDepth: d.headingDepth };
})();

/** The query of a configuration as a plain object (repeated keys as lists). */
function params(config: Config): Record<string, string | string[]> {
  const q = new URLSearchParams(encodeConfig(config));
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(q.keys())) {
    const all = q.getAll(key);
    out[key] = all.length > 1 ? all : all[0]!;
  }
  return out;
}

describe('configuration in the URL', () => {
  it('uses the CLI flag names, one separators key per separator in order', () => {
    const config: Config = { ...DEFAULT_CONFIG, size: 120, overlap: 20, unit: 'words', separators: ['\n\n', '\n', '.'], keepSeparator: 'end' };
    const q = new URLSearchParams(encodeConfig(config));
    expect(q.get('strategy')).toBe('recursive');
    expect(q.get('size')).toBe('120');
    expect(q.get('overlap')).toBe('20');
    expect(q.get('unit')).toBe('words');
    expect(q.getAll('separators')).toEqual(['\n\n', '\n', '.']);
    expect(q.get('keep-separator')).toBe('end');
    expect(q.has('compat')).toBe(false);
  });

  it('round-trips every control (every row of the option table, values drawn from its kind and range)', () => {
    fc.assert(fc.property(anyConfig(), expectRoundTrip));
  });

  // So that no row is covered by chance only: each one, with a value other than the page's default, in a
  // configuration whose link writes it (its strategy uses it under the other values), comes back from the link.
  for (const spec of CONFIG_OPTIONS) {
    it(`round-trips ${spec.flag} (${spec.kind}) in a link that carries it`, () => {
      const carried = fc.sample(anyConfig(spec), { numRuns: 400, seed: 24 }).filter((c) => new URLSearchParams(encodeConfig(c)).has(spec.flag));
      expect(carried.length, `no configuration drawn writes ${spec.flag}`).toBeGreaterThan(0);
      for (const config of carried.slice(0, 50)) expectRoundTrip(config);
    });
  }

  it('round-trips the semantic controls under the CLI flag names', () => {
    const arbSemantic = fc.record({
      breakpoint: fc.constantFrom('percentile' as const, 'standard_deviation' as const, 'interquartile' as const, 'gradient' as const, 'absolute' as const),
      amount: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
      chunks: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
      buffer: fc.integer({ min: 0, max: 5 }),
      minSize: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
      maxSize: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
      embedder: fc.constantFrom('builtin', 'Xenova/all-MiniLM-L6-v2'),
      sentences: fc.constantFrom('intl' as const, 'regex' as const),
      compat: fc.constantFrom('none' as const, 'langchain' as const, 'llamaindex' as const),
    });
    fc.assert(
      fc.property(arbSemantic, (semantic) => {
        const config: Config = { ...DEFAULT_CONFIG, strategy: 'semantic', ...semantic };
        const decoded = { ...DEFAULT_CONFIG, ...decodeConfig('?' + encodeConfig(config), allKnown) };
        expect(visible(decoded)).toEqual(visible(config));
      }),
    );
    const q = new URLSearchParams(encodeConfig({ ...DEFAULT_CONFIG, strategy: 'semantic', breakpoint: 'absolute', amount: 0.35 }));
    expect([q.get('breakpoint'), q.get('amount'), q.get('chunks')]).toEqual(['absolute', '0.35', null]);
    // A target number of chunks replaces the amount: the unused amount is not written.
    const target = new URLSearchParams(encodeConfig({ ...DEFAULT_CONFIG, strategy: 'semantic', breakpoint: 'absolute', amount: 0.35, chunks: 4 }));
    expect([target.get('chunks'), target.has('amount')]).toEqual(['4', false]);
  });

  it('carries regular-expression separators as separators-are-regex=1, absent when off', () => {
    const config: Config = { ...DEFAULT_CONFIG, strategy: 'character', separators: ['[.!?]\\s+', '\\n{2,}'], separatorsAreRegex: true };
    const encoded = encodeConfig(config);
    const q = new URLSearchParams(encoded);
    expect(q.get('separators-are-regex')).toBe('1');
    // Backslashes survive the query string: the pattern is what the regex engine gets.
    expect(q.getAll('separators')).toEqual(['[.!?]\\s+', '\\n{2,}']);
    expect({ ...DEFAULT_CONFIG, ...decodeConfig('?' + encoded, known) }).toEqual(config);

    const literal = encodeConfig({ ...config, separatorsAreRegex: false });
    expect(new URLSearchParams(literal).has('separators-are-regex')).toBe(false);
    // A link without the flag means literal separators, even over a stored setting that had them on.
    const stored: Config = { ...DEFAULT_CONFIG, separatorsAreRegex: true };
    expect({ ...stored, ...decodeConfig('?' + literal, known) }.separatorsAreRegex).toBe(false);
    expect(hasConfig('?separators-are-regex=1')).toBe(true);
    // Not written in a compat mode (LangChain splits on literal separators).
    expect(new URLSearchParams(encodeConfig({ ...config, compat: 'langchain' })).has('separators-are-regex')).toBe(false);
  });

  it('ignores unknown or malformed values so defaults or stored values apply', () => {
    const stored: Config = { ...DEFAULT_CONFIG, size: 300, unit: 'words', keepSeparator: 'end' };
    const decoded = { ...stored, ...decodeConfig('?strategy=nope&size=abc&unit=bytes&keep-separator=sideways&overlap=10', known) };
    // Malformed: the stored value stays; well-formed: taken; left out: the default.
    expect(decoded).toEqual({ ...DEFAULT_CONFIG, size: 300, unit: 'words', keepSeparator: 'end', overlap: 10 });
    expect(decodeConfig('?strategy=recursive&separators-are-regex=maybe&context-window=0&chunks-in-context=x', known)).not.toHaveProperty('contextWindow');
  });

  it('knows when a query carries a configuration', () => {
    expect(hasConfig('')).toBe(false);
    expect(hasConfig('?utm=x')).toBe(false);
    expect(hasConfig('?size=100')).toBe(true);
  });

  it('a link without structure keys means their defaults', () => {
    const d = DEFAULT_CONFIG;
    expect(STRUCTURE_DEFAULTS).toEqual({
      rowsAsText: d.rowsAsText, stripHeaders: d.stripHeaders, returnEachLine: d.returnEachLine, headers: d.headers,
      retrieval: d.retrieval, headingDepth: d.headingDepth,
    });
    // Over stored settings that had them changed.
    const stored: Config = { ...DEFAULT_CONFIG, strategy: 'markdown', rowsAsText: true, headers: true, retrieval: 'window', headingDepth: 1, stripHeaders: false };
    expect({ ...stored, ...decodeConfig('?strategy=markdown&compat=langchain', allKnown) }).toMatchObject(STRUCTURE_DEFAULTS);
  });

  it('writes only what differs from the default, besides the strategy', () => {
    expect(encodeConfig(DEFAULT_CONFIG)).toBe('strategy=recursive');
    expect(encodeConfig({ ...DEFAULT_CONFIG, strategy: 'markdown' })).toBe('strategy=markdown');
    // A local model folder cannot travel in a link.
    expect(encodeConfig({ ...DEFAULT_CONFIG, strategy: 'semantic', embedder: 'local/my-model' })).toBe('strategy=semantic');
    expect(decodeConfig('?strategy=semantic&embedder=local/x', allKnown)).not.toHaveProperty('embedder');
  });
});

describe('structure, header and retrieval controls in the URL', () => {
  const md: Config = { ...DEFAULT_CONFIG, strategy: 'markdown' };

  it('uses the flags of the option table', () => {
    expect(
      params({ ...md, headingDepth: 2, rowsAsText: true, compat: 'langchain', stripHeaders: false, returnEachLine: true, headers: '{file}: {path}' }),
    ).toEqual({ strategy: 'markdown', 'heading-depth': '2', 'rows-as-text': '1', compat: 'langchain', 'strip-headers': '0', 'return-each-line': '1', headers: '{file}: {path}' });
    expect(params({ ...md, retrieval: 'hierarchical', levels: '1024, 256' })).toEqual({ strategy: 'markdown', retrieval: 'hierarchical', levels: '1024, 256' });
    expect(params({ ...md, retrieval: 'parent-child', parentSize: 2000, headers: true })).toEqual({ strategy: 'markdown', headers: '1', retrieval: 'parent-child', 'parent-size': '2000' });
    expect(params({ ...md, retrieval: 'window', window: 2 })).toEqual({ strategy: 'markdown', retrieval: 'window', window: '2' });
    expect(params({ ...DEFAULT_CONFIG, strategy: 'code', language: 'go', path: 'src/a.go' })).toEqual({ strategy: 'code', language: 'go', path: 'src/a.go' });
    for (const key of ['heading-depth', 'rows-as-text', 'headers', 'retrieval', 'parent-size', 'window', 'levels', 'path', 'language']) expect(hasConfig(`?${key}=1`)).toBe(true);
  });

  it('leaves out what the strategy does not use', () => {
    const config: Config = { ...DEFAULT_CONFIG, strategy: 'fixed', headingDepth: 2, rowsAsText: true, compat: 'langchain', path: 'a.md', language: 'python' };
    expect(params(config)).toEqual({ strategy: 'fixed' });
    // Sub-options only under the value that uses them.
    expect(params({ ...md, stripHeaders: false, parentSize: 900, window: 1 })).toEqual({ strategy: 'markdown' });
  });

  it('round-trips every structure control the strategy uses', () => {
    const arb = fc.record({
      strategy: fc.constantFrom('markdown' as const, 'html' as const, 'code' as const),
      headingDepth: fc.integer({ min: 1, max: 6 }),
      rowsAsText: fc.boolean(),
      compat: fc.constantFrom('none' as const, 'langchain' as const, 'llamaindex' as const),
      stripHeaders: fc.boolean(),
      returnEachLine: fc.boolean(),
      headers: fc.constantFrom(null, true as const, '{title} — {path}', 'File {file}', '日本 {path} & ?=#'),
      retrieval: fc.constantFrom('chunks' as const, 'parent-child' as const, 'window' as const, 'hierarchical' as const),
      parentSize: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      window: fc.integer({ min: 0, max: 10 }),
      levels: fc.constantFrom('2048, 512, 128', '512,128', '512, 2048'),
      path: fc.constantFrom(null, 'src/a b.py', 'handbook.md'),
      language: fc.constantFrom(null, 'python', 'tsx', 'javascript'),
    });
    fc.assert(
      fc.property(arb, (fields) => {
        const config: Config = { ...DEFAULT_CONFIG, ...fields };
        const decoded: Config = { ...DEFAULT_CONFIG, ...decodeConfig('?' + encodeConfig(config), allKnown) };
        expect(visible(decoded)).toEqual(visible(config));
      }),
    );
  });
});

/** Strategies and units a link may name: the option table's own choices. */
const tableKnown = { strategies: optionRow('strategy').choices!, units: optionRow('unit').choices! };

function optionRow(name: string): OptionSpec {
  return CONFIG_OPTIONS.find((spec) => spec.name === name)!;
}

/**
 * Values a row may take in a link, from its kind and its control's range. The escape hatch, for values the row does
 * not list: `language` (the separator presets and every strategy's own languages, such as the code grammars).
 * A new kind fails here until it gets its values.
 */
function linkValues(spec: OptionSpec): fc.Arbitrary<unknown> {
  if (spec.name === 'language') return fc.constantFrom(...LANGUAGE_NAMES, ...STRATEGIES.flatMap((s) => s.language?.names ?? []));
  const text = fc.string({ minLength: 1, maxLength: 24 }).filter((t) => t.trim() !== '');
  switch (spec.kind) {
    case 'integer':
      return fc.integer({ min: spec.control?.min ?? 0, max: spec.control?.max ?? 100_000 });
    case 'number':
      return fc.double({ min: spec.control?.min ?? -1e6, max: spec.control?.max ?? 1e6, noNaN: true }).filter((n) => !Object.is(n, -0));
    case 'boolean':
      return fc.boolean();
    case 'choice':
      return fc.constantFrom(...spec.choices!);
    case 'string':
      // A local model folder's id never goes into a link (see 'writes only what differs from the default').
      return text.filter((t) => !t.startsWith('local/'));
    case 'strings':
      return fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 });
    case 'integers':
      return fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 4 }).map((list) => list.join(', '));
    case 'template':
      // true is the default template (headers=1); '1', '0', 'true', 'false' are the switch's own words.
      return fc.oneof(fc.constant(true), text.filter((t) => !['1', '0', 'true', 'false'].includes(t)));
    default:
      throw new Error(`urlCodec.test.ts: no link values for the kind "${spec.kind}" of ${spec.name}; add them to linkValues`);
  }
}

/** A value of the row other than the page's default (so the link has to carry it). */
function changedValue(spec: OptionSpec): fc.Arbitrary<unknown> {
  const pageDefault = DEFAULT_CONFIG[spec.name as keyof Config];
  return linkValues(spec).filter((v) => !(v === pageDefault || (Array.isArray(v) && Array.isArray(pageDefault) && v.join('\0') === pageDefault.join('\0'))));
}

/** A configuration of every row: each at its default or (more often) changed; `changed`, if given, always changed. */
function anyConfig(changed?: OptionSpec): fc.Arbitrary<Config> {
  const fields = Object.fromEntries(
    CONFIG_OPTIONS.map((spec) => {
      const pageDefault = fc.constant(DEFAULT_CONFIG[spec.name as keyof Config] as unknown);
      return [spec.name, spec === changed ? changedValue(spec) : fc.oneof({ arbitrary: pageDefault, weight: 1 }, { arbitrary: changedValue(spec), weight: 3 })];
    }),
  );
  return fc.record(fields).map((c) => ({ ...DEFAULT_CONFIG, ...c }) as Config);
}

/** What the link carries comes back as the strategy names it (a code grammar's alias as its name); the rest as it was. */
function expectRoundTrip(config: Config): void {
  const strategy = strategyDefinition(config.strategy);
  const decoded: Config = { ...DEFAULT_CONFIG, ...decodeConfig('?' + encodeConfig(config), tableKnown) };
  const canonical = Object.fromEntries(CONFIG_OPTIONS.map((spec) => [spec.name, canonicalFor(spec, config[spec.name as keyof Config], strategy)]));
  expect(visible(decoded)).toEqual(visible({ ...config, ...canonical } as Config));
}

/** The fields a link carries for this configuration: those its strategy uses under its values. */
function visible(config: Config): Partial<Config> {
  const strategy = strategyDefinition(config.strategy);
  const out: Record<string, unknown> = {};
  for (const spec of CONFIG_OPTIONS) {
    const value = config[spec.name as keyof Config];
    // A value the strategy cannot take (a compat mode it lacks) is as good as the default.
    if (optionApplies(spec, strategy) && optionInUse(spec, config)) out[spec.name] = usableFor(spec, value, strategy) ? value : DEFAULT_CONFIG[spec.name as keyof Config];
  }
  return out as Partial<Config>;
}

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPTION_TABLE, STRATEGY_NAMES, UNIT_NAMES, validateOptions } from '../core/describe';
import { toChunkOptions } from './chunkOptions';
import { CONFIG_OPTIONS, DEFAULT_CONFIG, type Config } from './configSlice';
import { parseSettings } from './storedSettings';
import { decodeConfig, encodeConfig, hasConfig } from './urlCodec';
import { migrateQuery, migrateStoredSettings, OLD_URL_KEYS } from './urlMigration';
import { optionApplies, optionInUse, strategyDefinition, usableFor } from './strategyInfo';

const known = { strategies: STRATEGY_NAMES, units: UNIT_NAMES };
const open = (search: string, stored: Config = DEFAULT_CONFIG): Config => ({ ...stored, ...decodeConfig(search, known) });

describe('old share links', () => {
  it('every old key is an alias of the option it is renamed to', () => {
    for (const [old, flag] of Object.entries(OLD_URL_KEYS)) {
      const spec = OPTION_TABLE.find((o) => o.flag === flag);
      expect(spec, flag).toBeDefined();
      expect(spec!.aliases, `${old} → ${flag}`).toContain(old);
      expect(hasConfig(`?${old}=1`), old).toBe(true);
    }
  });

  it('open as they did: each old key', () => {
    // The separator keys: repeated, literal unless regex=1; keep, lang, locale, compat.
    expect(open('?strategy=recursive&size=120&overlap=20&unit=words&sep=%0A%0A&sep=%0A&sep=.&keep=end&lang=python&compat=langchain&ctx=4096&k=3')).toEqual({
      ...DEFAULT_CONFIG, size: 120, overlap: 20, unit: 'words', separators: ['\n\n', '\n', '.'], keepSeparator: 'end', language: 'python',
      compat: 'langchain', contextWindow: 4096, chunksInContext: 3,
    });
    expect(open('?strategy=sentence&locale=de').locale).toBe('de');
    expect(open('?strategy=character&sep=%5B.!%3F%5D%5Cs%2B&regex=1')).toMatchObject({ separators: ['[.!?]\\s+'], separatorsAreRegex: true });
    expect(open('?strategy=character&sep=x', { ...DEFAULT_CONFIG, separatorsAreRegex: true }).separatorsAreRegex).toBe(false);
    // Semantic keys: threshold is today's amount.
    expect(open('?strategy=semantic&breakpoint=absolute&threshold=0.35&buffer=2&min-size=50&max-size=400&embedder=Xenova%2Fall-MiniLM-L6-v2&sentences=regex&compat=llamaindex')).toMatchObject({
      strategy: 'semantic', breakpoint: 'absolute', amount: 0.35, buffer: 2, minSize: 50, maxSize: 400, embedder: 'Xenova/all-MiniLM-L6-v2', sentences: 'regex', compat: 'llamaindex',
    });
    expect(open('?strategy=semantic&breakpoint=percentile&chunks=4')).toMatchObject({ chunks: 4 });
    // Structure keys.
    expect(open('?strategy=markdown&depth=2&rows=1&compat=langchain&strip=0&each=1&hdr=path')).toMatchObject({
      headingDepth: 2, rowsAsText: true, compat: 'langchain', stripHeaders: false, returnEachLine: true, headers: true,
    });
    expect(open('?strategy=markdown&hdr=%7Bfile%7D%3A%20%7Bpath%7D%5Cn').headers).toBe('{file}: {path}\\n');
    expect(open('?strategy=markdown&ret=parent-child&psize=600')).toMatchObject({ retrieval: 'parent-child', parentSize: 600 });
    expect(open('?strategy=markdown&ret=window&win=1')).toMatchObject({ retrieval: 'window', window: 1 });
    expect(open('?strategy=markdown&ret=hierarchical&levels=1024,%20256')).toMatchObject({ retrieval: 'hierarchical', levels: '1024, 256' });
    expect(open('?strategy=code&path=billing%2Finvoices.py&codelang=go')).toMatchObject({ strategy: 'code', path: 'billing/invoices.py', language: 'go' });
  });

  it('lang and codelang: the one the link\'s strategy read', () => {
    expect(open('?strategy=code&lang=python&codelang=go').language).toBe('go');
    expect(open('?strategy=code&lang=python').language).toBeNull();
    expect(open('?strategy=recursive&lang=markdown&codelang=go').language).toBe('markdown');
    // An explicit JavaScript / TypeScript / TSX grammar (refused by the old page) is a language the code strategy lists.
    for (const grammar of ['javascript', 'typescript', 'tsx']) {
      const config = open(`?strategy=code&codelang=${grammar}`);
      expect(config.language).toBe(grammar);
      expect(validateOptions(toChunkOptions(config)).language).toBe(grammar);
    }
  });

  it('missing keys mean their defaults, as the old links did', () => {
    const stored: Config = { ...DEFAULT_CONFIG, strategy: 'markdown', rowsAsText: true, headers: '{path}', retrieval: 'window', keepSeparator: 'end' };
    expect(open('?strategy=markdown&depth=3&size=512', stored)).toMatchObject({ rowsAsText: false, headers: null, retrieval: 'chunks' });
    expect(open('?strategy=recursive&size=512', { ...stored, strategy: 'recursive' }).keepSeparator).toBeNull();
  });

  it('today\'s keys win over old ones, and an old link is rewritten to today\'s keys', () => {
    expect(migrateQuery(new URLSearchParams('depth=1&heading-depth=2')).getAll('heading-depth')).toEqual(['2']);
    expect(migrateQuery(new URLSearchParams('strategy=markdown&hdr=path&psize=9&utm=x')).toString()).toBe('strategy=markdown&utm=x&headers=1&parent-size=9');
    // Re-encoding an old link gives today's form.
    const config = open('?strategy=markdown&depth=2&hdr=path&ret=window&win=1&ctx=4096');
    expect(encodeConfig(config)).toBe('strategy=markdown&heading-depth=2&headers=1&window=1&retrieval=window&context-window=4096');
  });
});

describe('old stored settings', () => {
  const old = {
    strategy: 'markdown', size: 800, overlap: 0, unit: 'chars', separators: null, separatorsAreRegex: false, keepSeparator: null, language: null,
    locale: null, compat: false, contextWindow: 8192, chunksInContext: 5, breakpoint: 'percentile', amount: null, targetChunks: 6, buffer: 1,
    minSize: null, maxSize: null, embedder: 'builtin', sentences: 'intl', llamaindex: true, headingDepth: 2, rowsAsText: true, stripHeaders: true,
    returnEachLine: false, headerMode: 'custom', headerTemplate: '{title}: {path}', path: null, codeLanguage: 'rust', retrieval: 'window',
    parentSize: null, window: 2, levels: '2048, 512, 128',
  };

  it('migrate every renamed field', () => {
    expect(parseSettings(JSON.stringify(old))).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, strategy: 'markdown', size: 800, overlap: 0, chunks: 6, compat: 'llamaindex', headingDepth: 2, rowsAsText: true, headers: '{title}: {path}', retrieval: 'window', window: 2 },
      dropped: [],
    });
    const value = (patch: Record<string, unknown>) => (parseSettings(JSON.stringify({ ...old, ...patch })) as { config: Config }).config;
    expect(value({ compat: true }).compat).toBe('langchain');
    expect(value({ llamaindex: false }).compat).toBe('none');
    expect(value({ headerMode: 'off' }).headers).toBeNull();
    expect(value({ headerMode: 'path' }).headers).toBe(true);
    expect(value({ headerMode: 'custom', headerTemplate: ' ' }).headers).toBe(true);
    // The code strategy's grammar becomes its language; the recursive preset it replaces is gone.
    expect(value({ strategy: 'code', language: 'python', codeLanguage: 'rust' }).language).toBe('rust');
    expect(value({ strategy: 'code', language: 'python', codeLanguage: null }).language).toBeNull();
    expect(value({ strategy: 'recursive', language: 'python', codeLanguage: 'rust' }).language).toBe('python');
  });

  it('a malformed old field rejects the whole; a malformed new one is dropped alone', () => {
    for (const patch of [{ headerMode: 'sideways' }, { headerMode: true }, { compat: 'yes', llamaindex: true }, { headerTemplate: 5 }]) {
      expect(parseSettings(JSON.stringify({ ...old, ...patch }))?.ok, JSON.stringify(patch)).toBe(false);
    }
    // targetChunks becomes today's chunks, which is then checked like any field.
    expect(parseSettings(JSON.stringify({ ...old, targetChunks: 'six' }))).toMatchObject({ ok: true, dropped: ['chunks'] });
  });

  it("today's settings pass through unchanged", () => {
    const today = { ...DEFAULT_CONFIG, compat: 'langchain' };
    expect(migrateStoredSettings(today)).toEqual({ ok: true, value: today });
  });
});

/** Arbitrary values of an option, by its kind (what its controls can produce). */
function arbValue(name: string): fc.Arbitrary<unknown> {
  const spec = CONFIG_OPTIONS.find((o) => o.name === name)!;
  const nullable = DEFAULT_CONFIG[name as keyof Config] === null;
  const orNull = (a: fc.Arbitrary<unknown>) => (nullable ? fc.option(a, { nil: null }) : a);
  switch (spec.kind) {
    case 'integer':
      // k has a hard maximum of its own (MAX_K = 1000).
      return orNull(fc.integer({ min: spec.control?.min ?? 0, max: spec.control?.max ?? (name === 'chunksInContext' ? 1000 : 100_000) }));
    case 'number':
      return orNull(fc.double({ min: spec.control?.min ?? 0, max: spec.control?.max ?? 100, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'choice':
      return orNull(fc.constantFrom(...(name === 'strategy' ? STRATEGY_NAMES : name === 'unit' ? UNIT_NAMES : spec.choices!)));
    case 'string':
      if (name === 'language') return fc.constantFrom(null, 'python', 'markdown', 'go', 'tsx', 'js');
      if (name === 'locale') return fc.constantFrom(null, 'de', 'ja', 'zh-Hans');
      if (name === 'embedder') return fc.constantFrom('builtin', 'Xenova/all-MiniLM-L6-v2');
      return orNull(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''));
    case 'strings':
      return fc.option(fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 }), { nil: null });
    case 'integers':
      return fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }).map((l) => l.join(', '));
    case 'template':
      return fc.constantFrom(null, true, '{path}\\n\\n', '{title} — {file} & ?=#');
    default:
      throw new Error(`no arbitrary for ${spec.kind}`);
  }
}

const arbConfig: fc.Arbitrary<Config> = fc.record(Object.fromEntries(CONFIG_OPTIONS.map((o) => [o.name, arbValue(o.name)]))) as unknown as fc.Arbitrary<Config>;

/** The fields the configuration's strategy uses under its values (what a link and the worker receive). */
function inUse(config: Config): Record<string, unknown> {
  const strategy = strategyDefinition(config.strategy);
  const out: Record<string, unknown> = {};
  for (const spec of CONFIG_OPTIONS) {
    let value = config[spec.name as keyof Config];
    // A grammar's alias (js) is its name (javascript) to the strategy.
    if (spec.name === 'language' && typeof value === 'string' && strategy.language) value = strategy.language.resolve(value) ?? value;
    // A value the strategy cannot take (a code grammar for the recursive presets) is as good as the default.
    if (optionApplies(spec, strategy) && optionInUse(spec, config)) out[spec.name] = usableFor(spec, value, strategy) ? value : DEFAULT_CONFIG[spec.name as keyof Config];
  }
  return out;
}

describe('every option of the table', () => {
  it('Config has one field per option (document data aside), under its name', () => {
    expect(Object.keys(DEFAULT_CONFIG).sort()).toEqual(OPTION_TABLE.filter((o) => !o.document).map((o) => o.name).sort());
  });

  it('round-trips encode → decode for generated configurations of every strategy', () => {
    fc.assert(
      fc.property(arbConfig, (config) => {
        const link = encodeConfig(config);
        const decoded = open('?' + link);
        expect(inUse(decoded), link).toEqual(inUse(config));
        // The same options reach the worker.
        expect(toChunkOptions(decoded)).toEqual(toChunkOptions(config));
        // And stored settings keep every field.
        expect(parseSettings(JSON.stringify(config))).toEqual({ ok: true, config, dropped: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('toChunkOptions sends only options the strategy lists (or their sub-options), and the CLI accepts their names', () => {
    const engineNames = new Set(OPTION_TABLE.filter((o) => o.engine !== false).map((o) => o.name));
    const subOptions: Record<string, string> = { separatorsAreRegex: 'separators', parentSize: 'retrieval', window: 'retrieval', levels: 'retrieval' };
    fc.assert(
      fc.property(arbConfig, (config) => {
        const strategy = strategyDefinition(config.strategy);
        const sent = toChunkOptions(config, { name: 'doc.md' });
        for (const key of Object.keys(sent)) {
          expect(engineNames.has(key as never), key).toBe(true);
          if (key === 'strategy' || key === 'path') continue;
          const listed = (strategy.controls as string[]).includes(subOptions[key] ?? key);
          expect(listed, `${config.strategy} sent ${key}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

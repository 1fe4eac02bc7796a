import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkOptionsError, validateOptions } from '../core/describe';
import { toChunkOptions } from './chunkOptions';
import { CONFIG_OPTIONS, DEFAULT_CONFIG, type Config } from './configSlice';
import { checkConfig, fieldProblem } from './configValidation';
import { languageUsable, strategyDefinition } from './strategyInfo';
import { checkedConfigFromUrl, pinnedFromUrl } from './urlSync';

const PROTOTYPE_NAMES = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'];
const NAMES = CONFIG_OPTIONS.map((s) => s.name as string);

/** Values of every shape, with the strings a stranger's link or a damaged store would hold. */
const anyValue = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, '../../x', '../../../etc/passwd', '', ' ', 'NaN', '-1', 'recursive', 'semantic', 'code', 'python', 'javascript', 'Xenova/all-MiniLM-L6-v2'),
  fc.string(),
  fc.integer({ min: -10, max: 100_000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

describe('checkConfig', () => {
  it('property: never throws, keeps only values that fit their row, and the result validates', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES, ...PROTOTYPE_NAMES), anyValue, { maxKeys: 8 }), (candidate) => {
        const { config, dropped } = checkConfig(candidate, DEFAULT_CONFIG, { combinations: true });
        for (const spec of CONFIG_OPTIONS) expect(fieldProblem(spec, config[spec.name as keyof Config]), spec.name).toBeNull();
        const stored = checkConfig(candidate);
        for (const spec of CONFIG_OPTIONS) expect(fieldProblem(spec, stored.config[spec.name as keyof Config]), spec.name).toBeNull();
        // What is left passes the table's validation, or fails only on a value the candidate did not give (size 1
        // with the default overlap): a one-line "Settings invalid", never another error.
        try {
          validateOptions(toChunkOptions(config));
        } catch (error) {
          expect(error).toBeInstanceOf(ChunkOptionsError);
          const field = (error as ChunkOptionsError).field as keyof Config;
          const changedByCandidate = Object.hasOwn(candidate, field) && JSON.stringify(candidate[field]) !== JSON.stringify(DEFAULT_CONFIG[field]);
          expect(changedByCandidate && !dropped.includes(field)).toBe(false);
        }
        expect(new Set(dropped).size).toBe(dropped.length);
        for (const name of dropped) expect(NAMES).toContain(name);
      }),
      { numRuns: 300 },
    );
  });

  it('a value that reads through the prototype is dropped, never applied', () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(checkConfig({ language: name }).dropped, name).toEqual(['language']);
      expect(checkConfig({ strategy: name }).dropped, name).toEqual(['strategy']);
      expect(checkConfig({ unit: name }).dropped, name).toEqual(['unit']);
      expect(languageUsable(name, strategyDefinition('recursive')), name).toBe(false);
      expect(languageUsable(name, strategyDefinition('code')), name).toBe(false);
    }
  });

  it('a combination the table refuses drops the value that breaks it', () => {
    const link = { combinations: true };
    expect(checkConfig({ size: 100, overlap: 500 }, DEFAULT_CONFIG, link)).toMatchObject({ dropped: ['overlap'], config: { size: 100, overlap: DEFAULT_CONFIG.overlap } });
    expect(checkConfig({ separatorsAreRegex: true, separators: ['(a+)+$'] }, DEFAULT_CONFIG, link).dropped).toEqual(['separators']);
    // Stored settings keep the person's own invalid combination (shown as "Settings invalid", as before a reload).
    expect(checkConfig({ size: 100, overlap: 500 }).dropped).toEqual([]);
  });

  it('keeps a well-formed configuration whole', () => {
    const config: Config = { ...DEFAULT_CONFIG, strategy: 'code', language: 'typescript', size: 800, overlap: 0, path: 'src/x.ts' };
    expect(checkConfig(config)).toEqual({ config, dropped: [] });
  });
});

describe('links', () => {
  it('lang=toString (and friends) leaves the rest of the link applied, with one notice', () => {
    for (const name of PROTOTYPE_NAMES) {
      const { config, notice } = checkedConfigFromUrl(`?strategy=recursive&size=321&lang=${encodeURIComponent(name)}`, DEFAULT_CONFIG);
      expect(config.language, name).toBeNull();
      expect(config.size).toBe(321);
      expect(notice).toMatch(/not valid and were ignored: language\.$/);
    }
  });

  it('a link naming a strategy brings what picking it brings, under what the link itself sets', () => {
    const token = checkedConfigFromUrl('?strategy=token&size=256', DEFAULT_CONFIG);
    expect(token.notice).toBeNull();
    expect(token.config).toMatchObject({ strategy: 'token', size: 256 });
    expect(token.config.unit).not.toBe('chars');
    expect(() => validateOptions(toChunkOptions(token.config, { name: null, pageStarts: null }))).not.toThrow();
    expect(checkedConfigFromUrl('?strategy=token&unit=o200k_base', DEFAULT_CONFIG).config.unit).toBe('o200k_base');
  });

  it('code language keys, strategy and embedder paths from a link', () => {
    expect(checkedConfigFromUrl('?strategy=code&codelang=constructor', DEFAULT_CONFIG)).toMatchObject({ config: { strategy: 'code', language: null } });
    expect(checkedConfigFromUrl('?strategy=code&language=javascript', DEFAULT_CONFIG).config.language).toBe('javascript');
    expect(checkedConfigFromUrl('?strategy=../../x&size=200', DEFAULT_CONFIG)).toMatchObject({ config: { strategy: 'recursive', size: 200 }, notice: expect.stringContaining('strategy') });
    const hub = checkedConfigFromUrl('?strategy=semantic&embedder=../../../etc/passwd', DEFAULT_CONFIG);
    expect(hub.config.embedder).toBe('builtin');
    expect(hub.notice).toContain('embedder');
    expect(checkedConfigFromUrl('?strategy=recursive&size=200', DEFAULT_CONFIG).notice).toBeNull();
    expect(checkedConfigFromUrl('?utm_source=x&__proto__=1', DEFAULT_CONFIG)).toEqual({ config: DEFAULT_CONFIG, notice: null });
  });

  it('property: any query decodes to a configuration that validates', () => {
    const keys = fc.constantFrom('strategy', 'size', 'overlap', 'unit', 'lang', 'language', 'codelang', 'sep', 'separators', 'embedder', 'keep-separator', 'headers', 'levels', 'retrieval', 'k', 'pin', ...PROTOTYPE_NAMES);
    const values = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, '../../x', '-1', '1e400', 'NaN', 'semantic', 'code', 'markdown', '0'), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, values), { maxLength: 8 }), (pairs) => {
        const search = '?' + new URLSearchParams(pairs).toString();
        const { config } = checkedConfigFromUrl(search, DEFAULT_CONFIG);
        for (const spec of CONFIG_OPTIONS) expect(fieldProblem(spec, config[spec.name as keyof Config]), spec.name).toBeNull();
        // At worst a one-line "Settings invalid" (size=1 with the default overlap 64), never another error.
        try {
          validateOptions(toChunkOptions(config));
        } catch (error) {
          expect(error).toBeInstanceOf(ChunkOptionsError);
        }
        expect(() => pinnedFromUrl(search)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

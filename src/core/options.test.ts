import { describe, expect, it } from 'vitest';
import { ChunkOptionsError, validateOptions } from './options';
import { LANGUAGE_PRESETS } from './languages';
import { checkSeparatorRegex } from './separator-regex';
import type { ChunkOptions } from './types';

function errorOf(options: unknown): ChunkOptionsError {
  try {
    validateOptions(options as ChunkOptions);
  } catch (e) {
    expect(e).toBeInstanceOf(ChunkOptionsError);
    const error = e as ChunkOptionsError;
    expect(error.message).not.toContain('\n'); // one human line
    return error;
  }
  throw new Error(`expected ${JSON.stringify(options)} to be rejected`);
}

describe('validateOptions defaults', () => {
  it('defaults to recursive, 512 chars, overlap 64, LangChain-style separators kept at the start', () => {
    expect(validateOptions({})).toEqual({
      strategy: 'recursive',
      size: 512,
      overlap: 64,
      unit: 'chars',
      separators: ['\n\n', '\n', ' ', ''],
      separatorsAreRegex: false,
      keepSeparator: 'start',
      language: null,
      compat: 'none',
      documentId: null,
      locale: 'en',
      // The semantic strategy's options, resolved for every strategy (unused by the others).
      breakpoint: 'percentile',
      amount: null,
      chunks: null,
      buffer: 1,
      minSize: null,
      maxSize: null,
      embedder: 'builtin',
      sentences: 'intl',
      // Structure, contextual header, retrieval and page options (used by some strategies only).
      headingDepth: 3,
      rowsAsText: false,
      minFragment: null,
      rawHtml: false,
      stripHeaders: true,
      returnEachLine: false,
      headers: null,
      path: null,
      retrieval: 'chunks',
      parentSize: null,
      window: 3,
      levels: [2048, 512, 128],
      pageStarts: null,
    });
  });

  it('gives each strategy its own defaults', () => {
    expect(validateOptions({ strategy: 'token' }).unit).toBe('cl100k_base');
    const character = validateOptions({ strategy: 'character' });
    expect(character.separators).toEqual(['\n\n']);
    expect(character.keepSeparator).toBe('none');
    expect(validateOptions({ strategy: 'paragraph' }).overlap).toBe(0);
  });

  it('lowers the default overlap for small sizes so a lone size stays valid', () => {
    expect(validateOptions({ size: 40 }).overlap).toBe(5);
    expect(validateOptions({ size: 1 }).overlap).toBe(0);
    expect(validateOptions({ size: 4000 }).overlap).toBe(64);
  });

  it('accepts whole numbers written as strings (URL query, CLI flags)', () => {
    const r = validateOptions({ size: '300', overlap: '30' } as unknown as ChunkOptions);
    expect([r.size, r.overlap]).toEqual([300, 30]);
  });

  it('fills separators from a language preset unless separators are given', () => {
    expect(validateOptions({ language: 'python' }).separators).toEqual(LANGUAGE_PRESETS.python);
    expect(validateOptions({ language: 'python', separators: ['\n'] }).separators).toEqual(['\n']);
    expect(validateOptions({ language: '' }).language).toBeNull();
  });

  it('maps LangChain boolean keepSeparator to start / none', () => {
    expect(validateOptions({ keepSeparator: true } as unknown as ChunkOptions).keepSeparator).toBe('start');
    expect(validateOptions({ keepSeparator: false } as unknown as ChunkOptions).keepSeparator).toBe('none');
  });

  it('canonicalises the locale', () => {
    expect(validateOptions({ locale: 'DE-ch' }).locale).toBe('de-CH');
  });
});

describe('validateOptions errors', () => {
  it.each([
    [{ size: 0 }, 'size', 'size must be a positive whole number (got 0)'],
    [{ size: -5 }, 'size', 'size must be a positive whole number (got -5)'],
    [{ size: 1.5 }, 'size', 'size must be a whole number (got 1.5)'],
    [{ size: 'abc' }, 'size', 'size must be a whole number (got "abc")'],
    [{ size: Number.NaN }, 'size', 'size must be a whole number (got NaN)'],
    [{ size: 100, overlap: 200 }, 'overlap', 'overlap (200) must be smaller than size (100)'],
    [{ size: 100, overlap: 100 }, 'overlap', 'overlap (100) must be smaller than size (100)'],
    [{ overlap: -1 }, 'overlap', 'overlap must not be negative (got -1)'],
    [{ strategy: 'late' }, 'strategy', 'unknown strategy "late" (expected one of recursive, character, sentence, paragraph, fixed, token, semantic, markdown, html, code)'],
    [{ unit: 'graphemes' }, 'unit', 'unknown unit "graphemes" (expected one of chars, words, bytes, cl100k_base, o200k_base, p50k_base, r50k_base, gpt2)'],
    [{ language: 'cobol' }, 'language', expect.stringContaining('unknown language "cobol" (expected one of cpp, go,')],
    [{ keepSeparator: 'middle' }, 'keepSeparator', 'keepSeparator must be one of start, end, none (got "middle")'],
    [{ compat: 'llamaindex' }, 'compat', 'compat llamaindex applies to sentence, token, semantic, markdown only (got recursive)'],
    [{ compat: 'haystack' }, 'compat', 'unknown compat mode "haystack" (expected one of none, langchain, llamaindex, chonkie)'],
    [{ compat: 'chonkie', strategy: 'paragraph' }, 'compat', 'compat chonkie applies to recursive, sentence, fixed, token only (got paragraph)'],
    [{ compat: 'chonkie', overlap: 10 }, 'overlap', "Chonkie's RecursiveChunker has no overlap (leave overlap out, or turn compat mode off)"],
    [{ compat: 'chonkie', strategy: 'token', unit: 'words' }, 'unit', 'Chonkie\'s tokenizers are its character tokenizer (unit chars) or a token encoding (cl100k_base, o200k_base, ...) (got "words")'],
    [{ strategy: 'token', unit: 'words' }, 'unit', expect.stringContaining('the token strategy counts tokens')],
    [{ separators: '\n' }, 'separators', 'separators must be a list of strings'],
    [{ separators: [] }, 'separators', 'the recursive strategy needs at least one separator'],
    [{ strategy: 'character', separators: [] }, 'separators', 'the character strategy needs at least one separator'],
    [{ locale: 'not a locale!' }, 'locale', expect.stringContaining('is not a valid language tag')],
    [{ documentId: 42 }, 'documentId', 'documentId must be a string'],
  ])('%j is rejected on %s', (options, field, message) => {
    const error = errorOf(options);
    expect(error.field).toBe(field);
    expect(error.message).toEqual(message);
  });

  it('rejects a non-object', () => {
    expect(errorOf(42).field).toBe('options');
  });
});

describe('compat langchain validation', () => {
  it('is available for character, recursive, token, semantic and markdown only', () => {
    for (const strategy of ['character', 'recursive', 'token', 'semantic', 'markdown'] as const) {
      expect(validateOptions({ strategy, compat: 'langchain' }).compat).toBe('langchain');
    }
    for (const strategy of ['fixed', 'sentence', 'paragraph'] as const) {
      const error = errorOf({ strategy, compat: 'langchain' });
      expect(error.field).toBe('compat');
      expect(error.message).toBe(`compat langchain applies to recursive, character, token, semantic, markdown only (got ${strategy})`);
    }
  });

  it('refuses the four presets LangChain JS does not have, accepts its own', () => {
    for (const language of ['ts', 'kotlin', 'csharp', 'c']) {
      const error = errorOf({ compat: 'langchain', language });
      expect(error.field).toBe('language');
      expect(error.message).toContain(`LangChain JS has no "${language}" preset`);
    }
    expect(validateOptions({ compat: 'langchain', language: 'markdown' }).separators).toEqual(LANGUAGE_PRESETS.markdown);
  });

  it('refuses options LangChain cannot express', () => {
    expect(errorOf({ compat: 'langchain', keepSeparator: 'end' }).field).toBe('keepSeparator');
    expect(errorOf({ compat: 'langchain', separators: ['\\n+'], separatorsAreRegex: true }).field).toBe('separators');
  });
});

describe('regular-expression separators', () => {
  const regexOptions = (pattern: string): ChunkOptions => ({ separators: [pattern, ''], separatorsAreRegex: true });

  it('accepts ordinary patterns', () => {
    for (const pattern of ['\\n{2,}', '[.!?] ', '(?:\\r\\n|\\n)+', '\\s+', '^#{1,6} ', '(?<=\\.) ', '[\\p{P}]']) {
      expect(validateOptions(regexOptions(pattern)).separatorsAreRegex).toBe(true);
    }
  });

  it.each([
    ['(a+)+', 'nested quantifiers'],
    ['(.*)*', 'nested quantifiers'],
    ['(a*b?)+', 'nested quantifiers'],
    ['(x+x+)+y', 'nested quantifiers'],
    ['(a|a)*', 'overlap'],
    ['(a|ab)+', 'overlap'],
    ['(\\s|.)+', 'plain literal strings'],
    ['\\s*\\s*x', 'adjacent repeated parts'],
    ['.*.*=', 'adjacent repeated parts'],
    ['(a)\\1', 'backreferences'],
    ['(?<q>a)\\k<q>', 'backreferences'],
    ['(?=(a+)+)b', 'nested quantifiers'],
    ['\\n*', 'matches the empty string'],
    ['(', 'not a valid regular expression'],
    ['x'.repeat(201), 'longer than 200 characters'],
  ])('refuses %s (%s)', (pattern, reason) => {
    const error = errorOf(regexOptions(pattern));
    expect(error.field).toBe('separators');
    expect(error.message).toContain(reason);
  });

  it('hands back the compiled global unicode regex for an accepted pattern', () => {
    const check = checkSeparatorRegex('\\n{2,}');
    expect(check.ok && check.regex.flags).toBe('gu');
    expect(check.ok && 'a\n\n\nb'.split(check.regex)).toEqual(['a', 'b']);
  });

  it('treats plain separators literally when separatorsAreRegex is off', () => {
    expect(validateOptions({ separators: ['(a+)+'] }).separators).toEqual(['(a+)+']);
  });
});

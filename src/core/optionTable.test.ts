import { describe, expect, it } from 'vitest';
import { optionsKey } from './index';
import { BASE_DEFAULTS, ENGINE_OPTIONS, OPTION_TABLE, optionByFlag } from './optionTable';
import { validateOptions } from './options';
import { STRATEGIES } from './strategies';

describe('the option table', () => {
  it('names each option once, with a kebab-case flag made from its name and aliases that clash with no flag', () => {
    const names = OPTION_TABLE.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const flags = new Set(OPTION_TABLE.map((o) => o.flag));
    for (const spec of OPTION_TABLE) {
      expect(spec.flag).toBe(spec.name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));
      for (const alias of spec.aliases ?? []) {
        expect(flags.has(alias), `${alias} is also a flag`).toBe(false);
        expect(optionByFlag(alias)).toBe(spec);
      }
      expect(spec.help.length).toBeGreaterThan(10);
      if (spec.kind === 'choice') expect(spec.choices?.length).toBeGreaterThan(0);
    }
  });

  it('resolves every chunking option for every strategy, the defaults coming from the table or the strategy', () => {
    for (const strategy of STRATEGIES) {
      const resolved = validateOptions({ strategy: strategy.id }) as unknown as Record<string, unknown>;
      expect(Object.keys(resolved).sort()).toEqual(ENGINE_OPTIONS.map((o) => o.name).sort());
      for (const spec of ENGINE_OPTIONS) {
        if (spec.name === 'strategy' || spec.name === 'overlap') continue; // overlap: lowered to size/8 when not given
        const own = (strategy.defaults as Record<string, unknown>)[spec.name];
        expect(resolved[spec.name], `${strategy.id}.${spec.name}`).toEqual(own ?? (BASE_DEFAULTS as unknown as Record<string, unknown>)[spec.name]);
      }
    }
  });

  it('every control a strategy lists is an option of the table', () => {
    const names = new Set<string>(OPTION_TABLE.map((o) => o.name));
    for (const strategy of STRATEGIES) for (const control of strategy.controls) expect(names.has(control), `${strategy.id}: ${control}`).toBe(true);
  });

  it('the options key holds only what shapes the chunks: a control the strategy lacks never changes it', () => {
    const base = validateOptions({ strategy: 'fixed' });
    expect(optionsKey({ ...base, separators: ['x'] })).toBe(optionsKey(base));
    expect(optionsKey({ ...base, headingDepth: 1 })).toBe(optionsKey(base));
    expect(optionsKey({ ...base, size: base.size + 1 })).not.toBe(optionsKey(base));
    const semantic = validateOptions({ strategy: 'semantic' });
    expect(optionsKey({ ...semantic, size: 1 })).toBe(optionsKey(semantic));
    expect(optionsKey({ ...semantic, amount: 80 })).not.toBe(optionsKey(semantic));
    const markdown = validateOptions({ strategy: 'markdown' });
    // MarkdownHeaderTextSplitter's flags shape chunks only in LangChain mode.
    expect(optionsKey({ ...markdown, stripHeaders: false })).toBe(optionsKey(markdown));
    const lc = validateOptions({ strategy: 'markdown', compat: 'langchain' });
    expect(optionsKey({ ...lc, stripHeaders: false })).not.toBe(optionsKey(lc));
    // Retrieval settings shape chunks only in their mode.
    const pc = validateOptions({ parentSize: 2000 });
    expect(optionsKey({ ...pc, window: 9 })).toBe(optionsKey(pc));
    expect(optionsKey({ ...pc, parentSize: 3000 })).not.toBe(optionsKey(pc));
  });

  it('fixes the code strategy with an explicit JavaScript, TypeScript or TSX grammar (no separator preset is looked up)', () => {
    for (const language of ['javascript', 'typescript', 'tsx', 'js', 'ts']) {
      const resolved = validateOptions({ strategy: 'code', language });
      expect(['javascript', 'typescript', 'tsx']).toContain(resolved.language);
    }
  });
});

describe('embedder ids', () => {
  it('accepts builtin, hub ids owner/name and local/<folder>; refuses paths and odd characters', async () => {
    const { validateOptions, ChunkOptionsError } = await import('./options');
    const ok = (embedder: string) => validateOptions({ strategy: 'semantic', embedder }).embedder;
    for (const id of ['builtin', 'Xenova/all-MiniLM-L6-v2', 'sentence-transformers/all-mpnet-base-v2', 'BAAI/bge-small-en-v1.5', 'local/my-model', ' Xenova/gte-small ']) {
      expect(ok(id)).toBe(id.trim());
    }
    for (const id of ['../../../etc/passwd', '/etc/passwd', 'a/../b', 'owner/..', 'local/../../x', 'owner/name/extra', 'https://evil.example/x', 'owner/na me', 'owner/<script>', 'toString', '', ' ', 'a\\b', 'owner/.hidden', '-x/y', 'a'.repeat(300) + '/b']) {
      expect(() => ok(id), id).toThrow(ChunkOptionsError);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { chunk, STRATEGIES, validateOptions } from '../core/index';
import { toChunkOptions, parseLevels, templateEscapes } from './chunkOptions';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { strategyPatch } from './strategyInfo';

const md: Config = { ...DEFAULT_CONFIG, strategy: 'markdown', size: 200, overlap: 0 };
const DOC = '# Guide\n\nIntro text here.\n\n## Setup\n\nInstall it.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n### Deep\n\nMore words.\n';

describe('options sent for the structure controls', () => {
  it('pass the document name as path unless the user gave one, and page starts when the document has them', () => {
    expect(toChunkOptions(md, { name: 'guide.md', pageStarts: [0, 40] })).toMatchObject({ path: 'guide.md', pageStarts: [0, 40] });
    expect(toChunkOptions({ ...md, strategy: 'code', path: 'src/other.py' }, { name: 'guide.py' }).path).toBe('src/other.py');
    // A path typed for another strategy's box does not leak into one without that box.
    expect(toChunkOptions({ ...md, path: 'src/other.py' }, { name: 'guide.md' }).path).toBe('guide.md');
    const pasted = toChunkOptions(md, { name: null, pageStarts: null });
    expect('path' in pasted || 'pageStarts' in pasted).toBe(false);
  });

  it('a file name over 1,000 characters never invalidates the settings: it is shortened, extension kept (issue 29)', () => {
    const name = `${'very-long-name-'.repeat(90)}.py`;
    expect(name.length).toBeGreaterThan(1000);
    for (const config of [md, { ...DEFAULT_CONFIG, strategy: 'code' as const }, { ...DEFAULT_CONFIG, headers: true as const }]) {
      const options = toChunkOptions(config, { name });
      expect(() => validateOptions(options)).not.toThrow();
      expect((options.path as string).length).toBeLessThanOrEqual(1000);
      expect(options.path as string).toMatch(/^very-long-name-.*….*\.py$/);
    }
    expect(() => chunk('# A\n\nbody\n', toChunkOptions({ ...md, headers: true as const }, { name }))).not.toThrow();
  });

  it('send what the strategy lists, and the LangChain markdown flags only in LangChain compatibility', () => {
    const config: Config = { ...md, headingDepth: 2, rowsAsText: true, stripHeaders: false, returnEachLine: true };
    expect(toChunkOptions(config)).toMatchObject({ headingDepth: 2, rowsAsText: true });
    expect(toChunkOptions(config)).not.toHaveProperty('stripHeaders');
    expect(toChunkOptions({ ...config, compat: 'langchain' })).toMatchObject({ compat: 'langchain', stripHeaders: false, returnEachLine: true });
    expect(toChunkOptions({ ...md, compat: 'llamaindex' }).compat).toBe('llamaindex');
    // Each strategy gets exactly the ones its registry entry lists.
    for (const strategy of STRATEGIES) {
      const sent = toChunkOptions({ ...config, strategy: strategy.id, retrieval: 'window', headers: true });
      for (const [key, control] of [['headingDepth', 'headingDepth'], ['rowsAsText', 'rowsAsText'], ['headers', 'headers'], ['retrieval', 'retrieval']] as const) {
        expect(key in sent, `${strategy.id} ${key}`).toBe(strategy.controls.includes(control));
      }
    }
  });

  it('headers and retrieval units', () => {
    expect(toChunkOptions({ ...md, headers: true }).headers).toBe(true);
    expect(toChunkOptions({ ...md, headers: '{title}: {path}\\n\\n' }).headers).toBe('{title}: {path}\n\n');
    expect(toChunkOptions({ ...md, headers: '  ' }).headers).toBe(true);
    expect(toChunkOptions({ ...md, retrieval: 'parent-child', parentSize: 800 })).toMatchObject({ retrieval: 'parent-child', parentSize: 800 });
    expect(toChunkOptions({ ...md, retrieval: 'parent-child' })).not.toHaveProperty('parentSize');
    expect(toChunkOptions({ ...md, retrieval: 'window', window: 2 })).toMatchObject({ retrieval: 'window', window: 2 });
    expect(toChunkOptions({ ...md, retrieval: 'hierarchical', levels: '1024, 256 ,64' }).levels).toEqual([1024, 256, 64]);
    expect(templateEscapes('a\\tb\\\\n')).toBe('a\tb\\n');
  });

  it('levels the engine refuses reach it as typed, so its one-line message names them', () => {
    expect(parseLevels('512, x1')).toEqual([512, 'x1']);
    expect(() => validateOptions(toChunkOptions({ ...md, retrieval: 'hierarchical', levels: '512, 2048' }))).toThrow(/levels/i);
    expect(() => validateOptions(toChunkOptions({ ...md, retrieval: 'hierarchical', levels: '512, x1' }))).toThrow(/levels/i);
  });

  it('every control value the page can send is accepted by core and changes the chunks', async () => {
    const base = await chunk(DOC, toChunkOptions(md, { name: 'guide.md' }));
    const variants: Partial<Config>[] = [
      { headingDepth: 1 },
      { headers: true },
      { headers: '{file} | {path}\\n' },
      { retrieval: 'parent-child', parentSize: 100 },
      { retrieval: 'window', window: 1 },
      { retrieval: 'hierarchical', levels: '200, 40' },
      { compat: 'langchain' },
    ];
    for (const patch of variants) {
      const options = toChunkOptions({ ...md, size: 40, ...patch }, { name: 'guide.md' });
      const chunks = await chunk(DOC, options);
      expect(JSON.stringify(chunks.map((c) => [c.start, c.end, c.content])), JSON.stringify(patch)).not.toBe(JSON.stringify(base.map((c) => [c.start, c.end, c.content])));
    }
  });
});

describe('compat modes in the page', () => {
  it('every strategy in every compat mode it has gets options the engine accepts (a refused control is not sent)', () => {
    for (const strategy of STRATEGIES) {
      for (const compat of ['none', ...strategy.compat] as const) {
        // As the page does it: the strategy chosen in the select, then the compat checkbox.
        const picked = { ...DEFAULT_CONFIG, ...strategyPatch(DEFAULT_CONFIG, strategy.id) };
        const config: Config = { ...picked, compat, size: 400, overlap: 40 };
        const options = toChunkOptions(config, { name: 'doc.py' });
        expect(() => validateOptions(options), `${strategy.id} / ${compat}: ${JSON.stringify(options)}`).not.toThrow();
        for (const refused of Object.keys(strategy.compatProfiles?.[compat]?.refuses ?? {})) {
          expect(options, `${strategy.id} / ${compat} sends ${refused}`).not.toHaveProperty(refused);
        }
      }
    }
  });
});

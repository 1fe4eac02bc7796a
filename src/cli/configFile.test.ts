import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { json } from '../core/export/exporters/json';
import { jsonl } from '../core/export/exporters/jsonl';
import { toChunkOptions } from '../state/chunkOptions';
import { DEFAULT_CONFIG, type Config } from '../state/configSlice';
import { makeShareFile } from '../state/shareLink';
import { encodeConfig } from '../state/urlCodec';
import { policyHandbook } from '../ui/samples/policyHandbook';
import { runCli } from '../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-config-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const handbook = file('handbook.md', policyHandbook);

describe('chunkscope chunk --config', () => {
  it("the page's JSON export of a chunking gives the same chunks (the strategy, compat mode and unit its chunks carry)", async () => {
    for (const options of [
      { strategy: 'markdown', compat: 'langchain', unit: 'chars' },
      { strategy: 'sentence', compat: 'llamaindex', unit: 'words' },
    ] as const) {
      // What the page exports: the engine's chunks for the document, rendered by the json exporter.
      const pageChunks = await chunk(policyHandbook, { ...options, path: handbook });
      const exported = file('export.json', json.render(pageChunks));
      const r = await runCli(['chunk', handbook, '--config', exported]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toEqual(pageChunks);
      // The JSONL export names the same options.
      const lines = await runCli(['chunk', handbook, '--config', file('export.jsonl', jsonl.render(pageChunks))]);
      expect(JSON.parse(lines.out)).toEqual(pageChunks);
    }
  });

  const tuned: Config = { ...DEFAULT_CONFIG, strategy: 'recursive', size: 300, overlap: 30, separators: ['\n\n', '. ', ' '] };
  const share = file('handbook.chunkscope.json', makeShareFile(encodeConfig(tuned), { text: policyHandbook, name: 'handbook.md' }));

  it("a share file's configuration gives the page's chunks; a flag given overrides it", async () => {
    const pageOptions = toChunkOptions(tuned, { name: 'handbook.md' });
    const r = await runCli(['chunk', handbook, '--config', share]);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual(await chunk(policyHandbook, { ...pageOptions, path: handbook }));

    const smaller = await runCli(['chunk', handbook, '--config', share, '--size', '120']);
    const expected = await chunk(policyHandbook, { ...pageOptions, size: 120, path: handbook });
    expect(JSON.parse(smaller.out)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(JSON.parse(r.out).length);

    // The page's "Copy link": the same configuration in its query.
    const link = await runCli(['chunk', handbook, '--config', `https://chunkscope.example/?${encodeConfig(tuned)}#v=2&doc=x`]);
    expect(link.err).toBe('');
    expect(link.out).toBe(r.out);
  });

  it('reads an options object, as the library or the flags spell the keys', async () => {
    const byLibrary = await runCli(['chunk', handbook, '--config', file('lib.json', JSON.stringify({ options: { strategy: 'markdown', headingDepth: 2, size: 400 } }))]);
    const byFlags = await runCli(['chunk', handbook, '--config', file('flags.json', JSON.stringify({ strategy: 'markdown', 'heading-depth': 2, size: 400 }))]);
    const expected = await chunk(policyHandbook, { strategy: 'markdown', headingDepth: 2, size: 400, path: handbook });
    expect(JSON.parse(byLibrary.out)).toEqual(expected);
    expect(JSON.parse(byFlags.out)).toEqual(expected);
  });

  it('a bad file is one line and exit 2', async () => {
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json'), /^chunkscope: --config ".*missing\.json" cannot be read \(ENOENT\)\n$/],
      [file('prose.txt', 'not json at all'), /^chunkscope: --config ".*prose\.txt" is not JSON: give a share file/],
      [file('list.json', '[1, 2]'), /holds no options object/],
      [file('typo.json', '{"sise": 5}'), /unknown option "sise"/],
      [file('bad.json', '{"size": -5}'), /^chunkscope: size must be/],
      ['https://chunkscope.example/?strategy=nope', /^chunkscope: --config "https:.*": its configuration has a malformed strategy\n$/],
    ];
    for (const [path, message] of cases) {
      const r = await runCli(['chunk', handbook, '--config', path]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChunkOptionsError, CHUNKER_VERSION, DEFAULT_HEADER_TEMPLATE, validateOptions } from './index';

function errorOf(options: Parameters<typeof validateOptions>[0]): ChunkOptionsError {
  try {
    validateOptions(options);
  } catch (e) {
    if (e instanceof ChunkOptionsError) return e;
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(options)}`);
}

describe('structure, header and retrieval options', () => {
  it('resolve the retrieval mode from the one field that implies it', () => {
    expect(validateOptions({ parentSize: 2000 }).retrieval).toBe('parent-child');
    expect(validateOptions({ window: 2 }).retrieval).toBe('window');
    expect(validateOptions({ levels: [1024, 256] }).retrieval).toBe('hierarchical');
    expect(validateOptions({}).retrieval).toBe('chunks');
    // Parent–child without a parent size: four times the chunk size.
    expect(validateOptions({ retrieval: 'parent-child', size: 300 }).parentSize).toBe(1200);
  });

  it('take the forms the URL and the CLI give (digit strings, comma lists, "true")', () => {
    const o = validateOptions({ headingDepth: '2' as unknown as number, levels: '1024, 256,64' as unknown as number[], rowsAsText: 'true' as unknown as boolean });
    expect(o.headingDepth).toBe(2);
    expect(o.levels).toEqual([1024, 256, 64]);
    expect(o.rowsAsText).toBe(true);
  });

  it('headers: true is the default template; a template needs a placeholder', () => {
    expect(validateOptions({ headers: true }).headers).toBe(DEFAULT_HEADER_TEMPLATE);
    expect(validateOptions({ headers: 'Doc: {title}\n' }).headers).toBe('Doc: {title}\n');
    expect(validateOptions({ headers: false }).headers).toBeNull();
    expect(errorOf({ headers: 'no placeholder' }).field).toBe('headers');
  });

  it('refuse bad values with one line naming the field', () => {
    const cases: [Parameters<typeof validateOptions>[0], string, RegExp][] = [
      [{ headingDepth: 7 }, 'headingDepth', /between 1 and 6/],
      [{ levels: [512, 2048] }, 'levels', /largest first/],
      [{ levels: [512] }, 'levels', /2 to 6 sizes/],
      [{ levels: 'a, b' as unknown as number[] }, 'levels', /whole number/],
      [{ parentSize: 100, size: 200 }, 'parentSize', /larger than size/],
      [{ window: -1 }, 'window', /between 0 and 50/],
      [{ parentSize: 2000, window: 2 }, 'retrieval', /choose one retrieval mode/],
      [{ retrieval: 'tree' as never }, 'retrieval', /unknown retrieval mode/],
      [{ strategy: 'recursive', compat: 'langchain', window: 2 }, 'retrieval', /compat mode off/],
      [{ pageStarts: [0, 10, 5] }, 'pageStarts', /increasing/],
      [{ rowsAsText: 'maybe' as unknown as boolean }, 'rowsAsText', /true or false/],
      [{ strategy: 'html', window: 2 }, 'window', /need prose/],
    ];
    for (const [options, field, message] of cases) {
      const e = errorOf(options);
      expect(e.field, JSON.stringify(options)).toBe(field);
      expect(e.message).toMatch(message);
      expect(e.message).not.toContain('\n');
    }
  });

  it('the chunker version written into metadata is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CHUNKER_VERSION).toBe(pkg.version);
  });
});

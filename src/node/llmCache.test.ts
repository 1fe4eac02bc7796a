import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../core/llm/cache';
import { DirectoryCache } from './llmCache';

describe('DirectoryCache', () => {
  it('keeps one file per key, written whole (no temporary file left), and reads it back in a new instance', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chunkscope-llmcache-')), 'nested', 'llm');
    const key = cacheKey({ provider: 'p', model: 'm', templateId: 't', templateVersion: 1, input: 'x' });
    const cache = new DirectoryCache(dir);
    expect(await cache.get(key)).toBeUndefined();
    await Promise.all([cache.set(key, '{"context": "a"}'), cache.set(key, '{"context": "a"}')]);
    expect(readdirSync(dir)).toEqual([`${key}.txt`]);
    expect(readFileSync(join(dir, `${key}.txt`), 'utf8')).toBe('{"context": "a"}');
    expect(await new DirectoryCache(dir).get(key)).toBe('{"context": "a"}');
  });

  it('refuses a key that is not a hash (no path outside the directory)', async () => {
    const cache = new DirectoryCache(mkdtempSync(join(tmpdir(), 'chunkscope-llmcache-')));
    await expect(cache.set('../escape', 'x')).rejects.toThrow(/bad cache key/);
  });
});

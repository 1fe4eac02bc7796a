import { describe, expect, it } from 'vitest';
import { DocumentCache, embedderKey } from './documentCache';

describe('DocumentCache', () => {
  it('returns what was stored per (text, key), and computes once', () => {
    const cache = new DocumentCache();
    let runs = 0;
    const compute = () => ({ run: ++runs });
    expect(cache.getOrCompute('doc a', 'outline', compute, () => 10)).toEqual({ run: 1 });
    expect(cache.getOrCompute('doc a', 'outline', compute, () => 10)).toEqual({ run: 1 });
    expect(cache.getOrCompute('doc b', 'outline', compute, () => 10)).toEqual({ run: 2 });
    expect(cache.get('doc a', 'sentences')).toBeUndefined();
    expect(cache.stats()).toEqual({ documents: 2, entries: 2, bytes: 2 * 10 + 2 * 'doc a'.length * 2 });
  });

  it('keeps at most maxDocuments documents, least recently used out first', () => {
    const cache = new DocumentCache({ maxDocuments: 2 });
    cache.set('one', 'k', 1, 1);
    cache.set('two', 'k', 2, 1);
    expect(cache.get('one', 'k')).toBe(1); // "two" is now the least recently used
    cache.set('three', 'k', 3, 1);
    expect(cache.get('two', 'k')).toBeUndefined();
    expect(cache.get('one', 'k')).toBe(1);
    expect(cache.get('three', 'k')).toBe(3);
    expect(cache.stats().documents).toBe(2);
  });

  it('keeps the estimated bytes under maxBytes: other documents go first, then the oldest entries of this one', () => {
    const cache = new DocumentCache({ maxBytes: 1000 });
    cache.set('a', 'x', 'old doc', 400);
    cache.set('b', 'p', 'first', 300);
    cache.set('b', 'q', 'second', 300); // 400 + 600 + text bytes > 1000: document "a" goes
    expect(cache.get('a', 'x')).toBeUndefined();
    expect(cache.get('b', 'p')).toBe('first');
    cache.set('b', 'r', 'third', 500); // over again, and "b" is the only document: its least recent entry goes ("q")
    expect(cache.get('b', 'q')).toBeUndefined();
    expect(cache.get('b', 'p')).toBe('first');
    expect(cache.get('b', 'r')).toBe('third');
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000);
    expect(cache.set('c', 'huge', 'too big', 5000)).toBe('too big'); // returned, not kept
    expect(cache.get('c', 'huge')).toBeUndefined();
    expect(cache.get('b', 'r')).toBe('third');
  });

  it('replacing an entry does not count it twice; lowering the limits evicts', () => {
    const cache = new DocumentCache();
    cache.set('t', 'k', 1, 100);
    cache.set('t', 'k', 2, 50);
    expect(cache.stats()).toEqual({ documents: 1, entries: 1, bytes: 52 });
    cache.set('u', 'k', 1, 100);
    cache.setLimits({ maxDocuments: 1 });
    expect(cache.stats().documents).toBe(1);
    cache.clear();
    expect(cache.stats()).toEqual({ documents: 0, entries: 0, bytes: 0 });
  });

  it('names each embed function apart', () => {
    const f = async () => [];
    const g = async () => [];
    expect(embedderKey(f)).toBe(embedderKey(f));
    expect(embedderKey(f)).not.toBe(embedderKey(g));
  });
});

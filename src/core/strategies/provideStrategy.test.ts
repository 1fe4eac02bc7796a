import { describe, expect, it } from 'vitest';
import { chunk } from '../chunk';
import { loadStrategy, provideStrategy } from './index';
import { implementation as recursive } from './recursive/split';

describe('provideStrategy (the chunk worker bundles its default strategy)', () => {
  it('loadStrategy gives the provided implementation with its description, and chunk() runs it', async () => {
    provideStrategy('recursive', recursive);
    const loaded = await loadStrategy('recursive');
    expect(loaded.split).toBe(recursive.split);
    expect(loaded.id).toBe('recursive');
    expect(loaded.label).toBe('Recursive');
    const text = 'One paragraph here.\n\nAnother one there, a little longer.\n\nAnd a third.';
    const chunks = await chunk(text, { strategy: 'recursive', size: 40, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
  });

  it('an unknown strategy is refused', () => {
    expect(() => provideStrategy('no-such-strategy', recursive)).toThrow(/unknown strategy/);
  });
});

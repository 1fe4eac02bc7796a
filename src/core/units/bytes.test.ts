import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, ChunkOptionsError } from '../index';
import { meterFor } from '../measure';
import { nodeLoadWasm } from '../../node/loadWasm';
import { embedTopics } from '../semantic/fixtures/topics';
import { STRATEGIES } from '../strategies';
import type { ChunkOptions } from '../types';
import { bytesUnit, utf8Length } from './bytes';
import { unitDescriptor, UNIT_NAMES } from './index';

/** Any UTF-16 string, lone surrogates included (TextEncoder writes each as U+FFFD, 3 bytes). */
const utf16 = fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x41, 0xe9, 0x4e2d, 0xd83d, 0xde00)), { maxLength: 400 }).map((codes) => String.fromCharCode(...codes));
const encoder = new TextEncoder();

describe('the bytes unit (UTF-8)', () => {
  it('is registered, additive, and not a length or a tokenizer', () => {
    expect(UNIT_NAMES).toContain('bytes');
    expect(unitDescriptor('bytes')).toMatchObject({ additive: true, isLength: false, label: 'bytes' });
    expect(unitDescriptor('bytes')!.tokenizer).toBeUndefined();
  });

  it('property: counts what TextEncoder writes', () => {
    fc.assert(fc.property(utf16, (text) => utf8Length(text) === encoder.encode(text).length), { numRuns: 500 });
    expect(bytesUnit.count('aé中😀')).toBe(1 + 2 + 3 + 4);
  });

  it('property: the meter of a source counts every slice of it exactly (pairs cut at either edge included)', () => {
    fc.assert(
      fc.property(utf16, fc.nat(), fc.nat(), (text, x, y) => {
        const meter = meterFor(bytesUnit, text);
        const a = Math.min(x, y) % (text.length + 1);
        const b = Math.max(a, Math.max(x, y) % (text.length + 1));
        return meter.exact(a, b) === encoder.encode(text.slice(a, b)).length && meter.estimate(a, b) === meter.exact(a, b);
      }),
      { numRuns: 500 },
    );
  });

  it('property: additive where a text is cut between code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), (a, b) => utf8Length(a + b) === utf8Length(a) + utf8Length(b)),
      { numRuns: 300 },
    );
  });
});

const DOC = [
  '# Überblick',
  '',
  'Zürich liegt am See. Le café coûte 3 €. 東京は大きい都市です。 Emoji 😀👍🏽 count four bytes each.',
  '',
  '## Code',
  '',
  '```python',
  'def grüße(name):',
  '    return f"Hallo {name} 👋"',
  '```',
  '',
  '<p>The boat has a deep keel. We sail at dawn.</p> Bread needs time. The oven must be hot.',
].join('\n');

/** Options for a strategy under a compat mode, in bytes (the code strategy needs a language). */
function bytesOptions(id: string, compat: string, size: number): ChunkOptions {
  const s = STRATEGIES.find((x) => x.id === id)!;
  const controls = s.controls as readonly string[];
  return {
    strategy: s.id,
    compat,
    unit: 'bytes',
    ...(controls.includes('size') ? { size } : { maxSize: size }),
    ...(controls.includes('overlap') && !s.compatProfiles?.[compat as 'none']?.refuses?.overlap ? { overlap: Math.floor(size / 5) } : {}),
    ...(s.id === 'code' ? { language: 'python' } : {}),
  } as ChunkOptions;
}

const UNIT_STRATEGIES = STRATEGIES.filter((s) => (s.controls as readonly string[]).includes('unit') && !s.tokenUnitOnly);

describe('every strategy that takes a unit, in bytes', () => {
  it('covers the strategies that take a unit', () => {
    expect(UNIT_STRATEGIES.map((s) => s.id).sort()).toEqual(['character', 'code', 'fixed', 'html', 'markdown', 'paragraph', 'recursive', 'semantic', 'sentence']);
  });

  for (const s of UNIT_STRATEGIES) {
    it(`${s.id}: property: exact offsets, sizes in UTF-8 bytes, none over the size unless marked oversize`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 8, max: 200 }), fc.integer({ min: 0, max: DOC.length }), async (size, cut) => {
          const text = DOC.slice(cut) + DOC.slice(0, cut);
          const chunks = await chunk(text, bytesOptions(s.id, 'none', size), { embed: embedTopics, loadWasm: nodeLoadWasm });
          expect(chunks.length).toBeGreaterThan(0);
          for (const c of chunks) {
            expect(c.text).toBe(text.slice(c.start, c.end));
            expect(c.size).toBe(encoder.encode(c.content).length);
            expect(c.metadata.unit).toBe('bytes');
            // The size is what the chunk holds (its content: html drops the markup around it).
            if (c.metadata.oversize !== true) expect(c.size).toBeLessThanOrEqual(size);
          }
        }),
        { numRuns: 25 },
      );
    });
  }

  // A compat mode counts in bytes (LangChain's length function, LlamaIndex's tokenizer) unless its profile lists the
  // units the library has (Chonkie's tokenizers): then it refuses bytes in one line.
  const COMPAT_CASES = UNIT_STRATEGIES.flatMap((s) =>
    s.compat.map((compat) => {
      const units = s.compatProfiles?.[compat]?.units;
      return [s.id, compat, units !== undefined && !units.allowed.includes('bytes')] as const;
    }),
  );
  it.each(COMPAT_CASES)('%s in compat mode %s (refused: %s)', async (id, compat, refused) => {
    const run = chunk(DOC, bytesOptions(id, compat, 60), { embed: embedTopics, loadWasm: nodeLoadWasm });
    if (refused) {
      await expect(run).rejects.toThrow(ChunkOptionsError);
      await expect(run).rejects.toMatchObject({ field: 'unit' });
      return;
    }
    const chunks = await run;
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) {
      expect(c.text).toBe(DOC.slice(c.start, c.end));
      expect(c.size).toBe(encoder.encode(c.content).length);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { chunk } from '../index';
import { formatChunks } from '../format';
import { STRATEGIES } from '../strategies';
import type { ChunkOptions } from '../types';
import { embedTopics, TOPIC_DOC } from '../semantic/fixtures/topics';
import { nodeLoadWasm } from '../../node/loadWasm';
import { parseChunkExport } from './reimport';

const DOC = `# Boats\n\n${TOPIC_DOC}\n\n## Bread\n\nBread needs time. The dough rises overnight.\n\nEnd.`;

/** What a strategy needs beyond its defaults to chunk DOC (the code strategy needs a language). */
const REQUIRED: Partial<Record<string, Partial<ChunkOptions>>> = { code: { language: 'python' } };

/** Every strategy in the registry under its native mode and each compat mode it declares. */
const CASES: ChunkOptions[] = STRATEGIES.flatMap((s) =>
  ['none' as const, ...s.compat].map(
    (compat) =>
      ({
        strategy: s.id,
        compat,
        ...((s.controls as readonly string[]).includes('size') ? { size: 60 } : {}),
        // An overlap small enough for size 60, unless the mode refuses one (Chonkie's RecursiveChunker has none).
        ...((s.controls as readonly string[]).includes('overlap') && !s.compatProfiles?.[compat]?.refuses?.overlap ? { overlap: 8 } : {}),
        ...REQUIRED[s.id],
      }) as ChunkOptions,
  ),
);

describe('re-import of an export, every compat mode of every strategy (the registry)', () => {
  it('covers a compat mode of each kind the registry declares', () => {
    expect(new Set(CASES.map((c) => c.compat))).toEqual(new Set(['none', 'langchain', 'llamaindex', 'chonkie']));
  });

  it.each(CASES.map((c) => [`${c.strategy} / ${c.compat}`, c] as const))('%s comes back with the same configuration', async (_, options) => {
    const chunks = await chunk(DOC, options, { embed: embedTopics, loadWasm: nodeLoadWasm });
    expect(chunks.length).toBeGreaterThan(0);
    for (const format of ['json', 'jsonl'] as const) {
      const back = parseChunkExport(formatChunks(chunks, format));
      expect(back).not.toBeNull();
      expect(back!.options).toEqual({ strategy: options.strategy, compat: options.compat, unit: chunks[0]!.metadata.unit });
      for (const c of chunks) expect(back!.document.slice(c.start, c.end)).toBe(c.text);
    }
  });
});

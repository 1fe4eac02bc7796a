import { beforeEach, describe, expect, it } from 'vitest';
import { chunk } from '../../core/index';
import { formatChunks } from '../../core/format';
import { STRATEGIES } from '../../core/strategies';
import { resetStore, useStore } from '../../state/store';
import { applyChunkImport } from './applyChunkImport';
import { parseChunkExport } from '../../core/export/reimport';

describe('opening a chunk export in the page', () => {
  beforeEach(() => resetStore());

  it('puts the rebuilt document in, takes the strategy the chunks name, and says what it did', async () => {
    const text = '# A\n\nOne two.\n\n\n## B\n\nThree four five.\n';
    const chunks = await chunk(text, { strategy: 'markdown', size: 12, overlap: 0 });
    const imported = parseChunkExport(formatChunks(chunks, 'jsonl'))!;
    expect(imported.gaps).toBeGreaterThan(0); // markdown drops the blank lines between sections
    applyChunkImport(imported, 'chunks.jsonl');
    const s = useStore.getState();
    expect(s.config.strategy).toBe('markdown');
    expect(s.text).toBe(imported.document);
    expect(s.notice).toContain('“chunks.jsonl”');
    expect(s.notice).toContain(`${imported.gaps} gap`);
    for (const c of chunks) expect(s.text.slice(c.start, c.end)).toBe(c.text);
  });

  // Every compat mode of every registered strategy that takes a size (the semantic and code strategies need an
  // embedder or a parser: core's reimport.registry.test.ts covers them up to the parsed configuration).
  const cases = STRATEGIES.filter((s) => (s.controls as readonly string[]).includes('size') && s.id !== 'code').flatMap((s) =>
    (['none', ...s.compat] as const).map((compat) => [s.id, compat, s.compatProfiles?.[compat]?.defaults?.unit ?? s.defaults.unit ?? 'chars'] as const),
  );
  it.each(cases)('a %s export in compat mode %s (unit %s) opens with that configuration', async (strategy, compat, unit) => {
    useStore.getState().setConfig({ strategy: 'fixed', compat: 'none', unit: 'words' });
    const chunks = await chunk('One two three. Four five six.\n\nSeven eight nine ten.', { strategy, compat, unit, size: 40 });
    applyChunkImport(parseChunkExport(formatChunks(chunks, 'json'))!, 'chunks.json');
    expect(useStore.getState().config).toMatchObject({ strategy, compat, unit });
  });
});

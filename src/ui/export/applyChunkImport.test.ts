import { beforeEach, describe, expect, it } from 'vitest';
import { chunk } from '../../core/index';
import { formatChunks } from '../../core/format';
import { resetStore, useStore } from '../../state/store';
import { applyChunkImport } from './applyChunkImport';
import { parseChunkExport } from './reimport';

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
});

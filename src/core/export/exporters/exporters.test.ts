import { describe, expect, it } from 'vitest';
import { chunk } from '../../index';
import { EXPORT_FORMATS, formatChunks } from '../../format';
import { parseChunkExport } from '../reimport';
import { EXPORTERS, getExporter, isNativeExporter } from './index';

const DOC = 'Alpha beta. Gamma delta.\n\nEpsilon 😀 zeta.';

describe('the exporter registry', () => {
  it('names each format once, with its own file name, and is what the CLI lists', () => {
    expect(new Set(EXPORTERS.map((e) => e.id)).size).toBe(EXPORTERS.length);
    expect(new Set(EXPORTERS.map((e) => e.fileName)).size).toBe(EXPORTERS.length);
    expect(EXPORT_FORMATS).toEqual(EXPORTERS.map((e) => e.id));
    expect(() => getExporter('xml')).toThrow('unknown export format "xml"');
  });

  it.each(EXPORTERS.map((e) => [e.id, e] as const))('%s: formatChunks is its render, and a native file re-imports', async (id, exporter) => {
    const chunks = await chunk(DOC, { strategy: 'recursive', size: 12, overlap: 0 });
    const about = { source: 'doc.txt', text: DOC };
    const text = formatChunks(chunks, id, about);
    expect(text).toBe(exporter.render(chunks, about));
    expect(text.endsWith('\n')).toBe(true);
    const back = parseChunkExport(text);
    if (isNativeExporter(exporter)) {
      expect(back?.chunks).toBe(chunks.length);
      for (const c of chunks) expect(back!.document.slice(c.start, c.end)).toBe(c.text);
    } else {
      expect(back).toBeNull();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import type { ChunkOptions } from '../core/types';
import { aheadResultFor, textKey } from '../state/firstChunks';
import { firstSampleJob } from '../ui/samples/firstJob';
import { FIRST_SAMPLE } from '../ui/samples/index';
import { ChunkService } from './chunkService';
import { chunkAhead } from './chunkAhead';

/** The generator vite.config.ts runs at build (firstChunks()): the first sample's chunks, as the worker answers. */

async function workerAnswer(text: string, options: ChunkOptions, jobId: number, version: number) {
  const service = new ChunkService({ progress: () => {}, embedder: () => {} });
  service.documents.apply(version, text);
  return service.runChunk({ jobId, version, options }, async () => null);
}

describe('chunks built ahead', () => {
  it("are core's chunk() of the first sample with the page's default options", async () => {
    const { text, options } = firstSampleJob();
    expect(text).toBe(FIRST_SAMPLE.text);
    expect(options).toMatchObject({ strategy: 'recursive', path: FIRST_SAMPLE.name });
    const ahead = await chunkAhead(text, options);
    const result = aheadResultFor(ahead, text, options, 7, 3)!;
    const expected = await chunk(text, options);
    expect(expected.length).toBeGreaterThan(5);
    expect(Array.from(result.starts)).toEqual(expected.map((c) => c.start));
    expect(Array.from(result.ends)).toEqual(expected.map((c) => c.end));
    expect(result.stats.count).toBe(expected.length);
    expect(result).toMatchObject({ jobId: 7, version: 3 });
  });

  it("are the worker's own answer, every field and typed array (structure included), less job id and timing", async () => {
    let structured = 0;
    const markdown = `# Title\n\nIntro paragraph.\n\n## Part\n\n${'Some words here. '.repeat(40)}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n`;
    for (const [text, options] of [
      firstSampleJob().text,
      markdown,
    ].flatMap((t) => [[t, firstSampleJob().options], [t, { strategy: 'markdown', size: 120, overlap: 0 }]] as [string, ChunkOptions][])) {
      const ahead = await chunkAhead(text, options);
      const { elapsedMs: _a, ...expected } = await workerAnswer(text, options, 4, 2);
      const { elapsedMs: _b, ...rebuilt } = aheadResultFor(JSON.parse(JSON.stringify(ahead)), text, options, 4, 2)!;
      expect(rebuilt).toEqual(expected);
      if (expected.structure) structured++;
      expect(rebuilt.starts).toBeInstanceOf(Int32Array);
      expect(rebuilt.sizes).toBeInstanceOf(Float64Array);
    }
    expect(structured).toBeGreaterThan(0);
  });

  it('stand for that text and those options only: any other document or option goes to the worker', async () => {
    const { text, options } = firstSampleJob();
    const ahead = await chunkAhead(text, options);
    expect(aheadResultFor(ahead, text, options, 1, 1)).not.toBeNull();
    expect(aheadResultFor(ahead, `${text} `, options, 1, 1)).toBeNull();
    expect(aheadResultFor(ahead, text.replace('a', 'b'), options, 1, 1)).toBeNull();
    expect(aheadResultFor(ahead, text, { ...options, size: (options.size ?? 0) + 1 }, 1, 1)).toBeNull();
    expect(aheadResultFor(ahead, text, { ...options, path: 'other.md' }, 1, 1)).toBeNull();
    expect(aheadResultFor(null, text, options, 1, 1)).toBeNull();
  });

  it('tell documents apart by their text (length and hashes)', () => {
    const seen = new Set<string>();
    const base = FIRST_SAMPLE.text;
    for (let i = 0; i < 200; i++) seen.add(textKey(base.slice(0, i * 10) + 'x' + base.slice(i * 10 + 1)));
    expect(seen.size).toBe(200);
    expect(textKey(base)).toBe(textKey(String(base)));
  });
});

import { describe, expect, test } from 'vitest';
import { chunk } from '../../index';
import type { ChunkOptions } from '../../types';

/** A document long enough for several progress steps: 400 paragraphs of a few sentences. */
const document = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}. ${'Some words to split. '.repeat(8)}`).join('\n\n');

const families: ChunkOptions[] = [
  { strategy: 'recursive', compat: 'langchain', size: 200, overlap: 20 },
  { strategy: 'character', compat: 'langchain', size: 200, overlap: 20 },
  { strategy: 'token', compat: 'langchain', unit: 'cl100k_base', size: 50, overlap: 5 },
];

describe('compat langchain runs report progress and can be cancelled', () => {
  for (const options of families) {
    test(`${options.strategy}: progress rises to 1`, async () => {
      const seen: number[] = [];
      const chunks = await chunk(document, options, { onProgress: (f) => seen.push(f) });
      expect(chunks.length).toBeGreaterThan(10);
      expect(seen.length).toBeGreaterThan(2);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
      expect(seen[seen.length - 1]).toBe(1);
    });

    test(`${options.strategy}: an aborted signal stops the run with an AbortError`, async () => {
      const signal = { aborted: false };
      let calls = 0;
      const run = chunk(document, options, {
        signal,
        onProgress: () => {
          // Cancel from inside the run, as a newer job would between two pieces of work.
          if (++calls === 1) signal.aborted = true;
        },
      });
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    });
  }
});

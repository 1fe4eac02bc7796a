import { beforeAll, describe, expect, test, vi } from 'vitest';
import { compatChunks, referenceSplitter } from './fixtures/harness';
import { UPSTREAM_CASES } from './fixtures/upstream-cases';

beforeAll(() => {
  // LangChain warns about oversize chunks on the console; the cases trigger it on purpose.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

/** createDocuments' loc.lines, computed from our offsets: the line of the first character, plus the chunk's newlines. */
function linesOf(source: string, start: number, content: string): [number, number] {
  const from = 1 + (source.slice(0, start).match(/\n/g)?.length ?? 0);
  return [from, from + (content.match(/\n/g)?.length ?? 0)];
}

describe('LangChain upstream unit cases, ported', () => {
  for (const c of UPSTREAM_CASES) {
    test(c.from, async () => {
      if (c.throws) {
        await expect(compatChunks(c.text, c.options)).rejects.toThrow();
        return;
      }
      const chunks = await compatChunks(c.text, c.options);
      expect(chunks.map((ch) => ch.content)).toEqual(c.expected);
      for (const ch of chunks) {
        // None of the upstream cases hits a quirk where LangChain's string is not a piece of the source.
        expect(ch.text).toBe(ch.content);
        expect(c.text.slice(ch.start, ch.end)).toBe(ch.content);
      }
      for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
      if (c.starts) expect(chunks.map((ch) => ch.start)).toEqual(c.starts);
      if (c.lines) expect(chunks.map((ch) => linesOf(c.text, ch.start, ch.content))).toEqual(c.lines);
    });
  }
});

describe('the restated cases still describe the real @langchain/textsplitters', () => {
  for (const c of UPSTREAM_CASES) {
    test(c.from, async () => {
      if (c.throws) {
        await expect(referenceSplitter(c.options)).rejects.toThrow('Cannot have chunkOverlap >= chunkSize');
        return;
      }
      const splitter = await referenceSplitter(c.options);
      expect(await splitter.splitText(c.text)).toEqual(c.expected);
    });
  }
});

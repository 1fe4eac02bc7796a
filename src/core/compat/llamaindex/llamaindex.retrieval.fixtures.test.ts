/**
 * SentenceWindowNodeParser's upstream unit case (packages/core/tests/node-parser/sentence-window.test.ts in
 * run-llama/LlamaIndexTS) and HierarchicalNodeParser's shape (LlamaIndex Python's tests/node_parser/
 * test_hierarchical.py: three levels, every node of a level a child of one of the level above, leaves the last
 * level) restated as fixtures, with the quirks compat mode reproduces. Every fixture is checked against compat mode
 * AND against the real package, so a fixture cannot drift from what the package does.
 */
import { describe, expect, test } from 'vitest';
import { toLlamaIndexNodes } from '../../export/formats';
import { chunk, validateOptions } from '../../index';
import { asUnits, compatUnits, referenceHierarchical, referenceWindows, type LlamaUnitsCase, type ReferenceUnit } from './fixtures/reference';

async function expectBoth(text: string, c: LlamaUnitsCase, expected: Partial<ReferenceUnit>[]): Promise<void> {
  const ours = asUnits(await compatUnits(text, c));
  const theirs = c.retrieval === 'window' ? referenceWindows(text, c.window) : referenceHierarchical(text, c.levels ?? [2048, 512, 128], c.overlap, c.unit);
  expect(ours).toEqual(theirs);
  expect(ours.map((u, i) => Object.fromEntries(Object.keys(expected[i] ?? {}).map((k) => [k, u[k as keyof ReferenceUnit]])))).toEqual(expected);
  expect(ours).toHaveLength(expected.length);
}

describe('SentenceWindowNodeParser (upstream case and quirks)', () => {
  test('upstream: "Hello. Cat Mouse. Dog." with windowSize 1', async () => {
    await expectBoth('Hello. Cat Mouse. Dog.', { retrieval: 'window', window: 1 }, [
      { text: 'Hello.', window: 'Hello. Cat Mouse.', originalText: 'Hello.' },
      { text: 'Cat Mouse.', window: 'Hello. Cat Mouse. Dog.', originalText: 'Cat Mouse.' },
      { text: 'Dog.', window: 'Cat Mouse. Dog.', originalText: 'Dog.' },
    ]);
  });

  test('exact offsets of trimmed sentences, and the window span beside the window string', async () => {
    const text = 'Hello.\n\nCat   Mouse.  Dog.';
    const chunks = await chunk(text, { strategy: 'sentence', compat: 'llamaindex', retrieval: 'window', window: 1 });
    expect(chunks.map((c) => [c.start, c.end, c.text])).toEqual([
      [0, 6, 'Hello.'],
      [8, 20, 'Cat   Mouse.'],
      [22, 26, 'Dog.'],
    ]);
    // The package joins the window's sentences with one space; the window span is the source between them.
    expect(chunks[1]!.metadata.windowText).toBe('Hello. Cat   Mouse. Dog.');
    expect(text.slice(chunks[1]!.metadata.window!.start, chunks[1]!.metadata.window!.end)).toBe(text);
    expect(chunks.every((c) => c.metadata.leaf === true && c.metadata.level === 0)).toBe(true);
  });

  test("the LlamaIndex export carries the package's keys: window (its string) and original_text", async () => {
    const text = 'Hello.\n\nCat   Mouse.  Dog.';
    const chunks = await chunk(text, { strategy: 'sentence', compat: 'llamaindex', retrieval: 'window', window: 1 });
    const nodes = toLlamaIndexNodes(chunks, { documentId: 'doc', sourceText: text });
    expect(nodes.map((n) => [n.text, n.metadata.window, n.metadata.original_text])).toEqual(
      referenceWindows(text, 1).map((u) => [u.text, u.window, u.originalText]),
    );
    expect(nodes[1]!.metadata.windowText).toBeUndefined();
  });

  test('quirk: whitespace after the last delimiter is an empty node (and "" gives none)', async () => {
    await expectBoth('Hello. ', { retrieval: 'window' }, [{ text: 'Hello.' }, { text: '', window: 'Hello. ' }]);
    await expectBoth('', { retrieval: 'window' }, []);
  });

  test('quirk: a repeated sentence is found where it is (the package\'s startCharIdx is its first occurrence)', async () => {
    const chunks = await chunk('Same. Same. Same.', { strategy: 'sentence', compat: 'llamaindex', retrieval: 'window' });
    expect(chunks.map((c) => c.start)).toEqual([0, 6, 12]);
  });

  test("quirk: a URI holding an abbreviation keeps the tokenizer's placeholder in the node's text", async () => {
    await expectBoth('See www.etc.com today. Bye.', { retrieval: 'window', window: 1 }, [
      { text: 'See www.{{ABBREV_0}}com today.', window: 'See www.{{ABBREV_0}}com today. Bye.' },
      { text: 'Bye.' },
    ]);
  });

  test('the default window is 3 sentences each side; windowSize 0 is refused, as the package refuses it', async () => {
    const text = 'A one. B two. C three. D four. E five.';
    await expectBoth(text, { retrieval: 'window' }, [{ window: 'A one. B two. C three. D four.' }, {}, {}, {}, { window: 'B two. C three. D four. E five.' }]);
    expect(() => validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'window', window: 0 })).toThrow(/windowSize must be above 0/);
  });
});

describe('HierarchicalNodeParser on SentenceSplitter', () => {
  const doc = Array.from({ length: 12 }, (_, i) => `Sentence number ${i + 1} says something about chunking.`).join(' ') + '\n\n\n' + 'A last short paragraph.';

  test('three levels: every node below the top has a parent one level up whose text contains it; leaves are the last level', async () => {
    const chunks = await compatUnits(doc, { retrieval: 'hierarchical', levels: [120, 40, 16], overlap: 4 });
    expect(asUnits(chunks)).toEqual(referenceHierarchical(doc, [120, 40, 16], 4));
    const byId = new Map(chunks.map((c) => [c.id, c]));
    for (const c of chunks) {
      const level = c.metadata.level!;
      expect(c.metadata.leaf).toBe(level === 2);
      if (level === 0) {
        expect(c.metadata.parentId).toBeUndefined();
        continue;
      }
      const parent = byId.get(c.metadata.parentId!)!;
      expect(parent.metadata.level).toBe(level - 1);
      expect(parent.content).toContain(c.content);
      expect(c.start).toBeGreaterThanOrEqual(parent.start);
      expect(c.end).toBeLessThanOrEqual(parent.end);
    }
    expect(new Set(chunks.map((c) => c.metadata.level))).toEqual(new Set([0, 1, 2]));
  });

  test('defaults: levels 2048 / 512 / 128 and overlap 20 (not SentenceSplitter\'s 200); a node that fits is its own only child', async () => {
    const chunks = await compatUnits('Short text. Two sentences.', { retrieval: 'hierarchical' });
    expect(asUnits(chunks)).toEqual([
      { text: 'Short text. Two sentences.', level: 0, parent: null },
      { text: 'Short text. Two sentences.', level: 1, parent: 0 },
      { text: 'Short text. Two sentences.', level: 2, parent: 1 },
    ]);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(3);
    const o = validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'hierarchical' });
    expect([o.levels, o.overlap, o.unit]).toEqual([[2048, 512, 128], 20, 'cl100k_base']);
  });

  test('nodes of a level overlap (whole trailing pieces that fit in the overlap), each level cut from the text above', async () => {
    const text = 'a b c d e f g h';
    await expectBoth(text, { retrieval: 'hierarchical', levels: [12, 6], overlap: 3, unit: 'chars' }, [
      { text: 'a b c d e f', level: 0 },
      { text: 'a b c', level: 1, parent: 0 },
      { text: 'c d e', level: 1, parent: 0 },
      { text: 'e f', level: 1, parent: 0 },
      { text: 'f g h', level: 0 },
      { text: 'f g h', level: 1, parent: 4 },
    ]);
  });

  test('an empty document gives one empty node per level', async () => {
    await expectBoth('', { retrieval: 'hierarchical', levels: [50, 10], overlap: 0 }, [
      { text: '', level: 0, parent: null },
      { text: '', level: 1, parent: 0 },
    ]);
  });

  test('a node whose string lost punctuation is cut as that string, its pieces placed exactly', async () => {
    const text = 'one,, two;; three,, four;; five';
    const chunks = await compatUnits(text, { retrieval: 'hierarchical', levels: [4, 2], overlap: 0, unit: 'words' });
    expect(asUnits(chunks)).toEqual(referenceHierarchical(text, [4, 2], 0, 'words'));
    for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
    expect(chunks.filter((c) => c.content !== c.text).length).toBeGreaterThan(0);
  });

  test('an overlap not below every level is refused up front (each level is a SentenceSplitter)', () => {
    expect(() => validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'hierarchical', levels: [64, 16] })).toThrow(/overlap \(20\) must be smaller than every level/);
    expect(() => referenceHierarchical('x', [64, 16], 20)).toThrow(/Chunk overlap must be less than chunk size/);
  });

  test('other retrieval modes and strategies stay refused in compat mode', () => {
    expect(() => validateOptions({ strategy: 'sentence', compat: 'llamaindex', retrieval: 'parent-child' })).toThrow(/turn compat mode off/);
    expect(() => validateOptions({ strategy: 'token', compat: 'llamaindex', retrieval: 'window' })).toThrow(/turn compat mode off/);
    expect(() => validateOptions({ strategy: 'sentence', compat: 'chonkie', retrieval: 'hierarchical' })).toThrow(/turn compat mode off/);
  });
});

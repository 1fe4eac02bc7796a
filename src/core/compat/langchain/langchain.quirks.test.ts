/**
 * LangChain JS behaviours that compat mode reproduces on purpose, one small case each, with the expected chunks
 * and offsets worked out by hand from LangChain's rules (see merge.ts, recursive.ts, token.ts). Each case is also
 * run through the real @langchain/textsplitters so that the worked-out strings are LangChain's.
 * These are the cases the README lists as differences from the native modes.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { compatChunks, offlineEncoder, referenceSplitter, type CompatCase } from './fixtures/harness';

beforeAll(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

interface Expected {
  content: string;
  start: number;
  end: number;
  oversize?: boolean;
}

async function expectChunks(text: string, options: CompatCase, expected: Expected[]): Promise<void> {
  const reference = await (await referenceSplitter(options)).splitText(text);
  expect(reference).toEqual(expected.map((e) => e.content));
  const chunks = await compatChunks(text, options);
  expect(
    chunks.map((c) => ({ content: c.content, start: c.start, end: c.end, ...(c.oversize ? { oversize: true } : {}) })),
  ).toEqual(expected);
  for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
}

describe('quirks where LangChain\'s string is not a piece of the source (content !== text)', () => {
  test('character, keepSeparator off: a run of separators comes back as ONE separator', async () => {
    // Pieces "foo" [0,3) and "bar" [5,8) (the empty piece between the two spaces is dropped); 3 + 3 + 1 <= 7,
    // so one chunk, joined with one space.
    await expectChunks('foo  bar', { strategy: 'character', separators: [' '], size: 7, overlap: 0 }, [
      { content: 'foo bar', start: 0, end: 8 },
    ]);
  });

  test('recursive, keepSeparator off: the same collapse at the " " level', async () => {
    // No "\n\n", no "\n": split on " " gives "aa" [0,2), "bb" [4,6); 2 + 2 + 1 <= 5.
    await expectChunks('aa  bb', { strategy: 'recursive', keepSeparator: 'none', size: 5, overlap: 0 }, [
      { content: 'aa bb', start: 0, end: 6 },
    ]);
  });

  test('token: a window that cuts a character decodes as U+FFFD; the span is the whole character', async () => {
    const encoder = await offlineEncoder('cl100k_base');
    // Premise: cl100k_base encodes 😀 (4 UTF-8 bytes) as two tokens, neither a whole character.
    expect(encoder.encode('😀', [], [])).toHaveLength(2);
    // Windows of one token: each decodes to U+FFFD; each span is the emoji its bytes belong to.
    await expectChunks('😀😀', { strategy: 'token', unit: 'cl100k_base', size: 1, overlap: 0 }, [
      { content: '\uFFFD', start: 0, end: 2 },
      { content: '\uFFFD', start: 0, end: 2 },
      { content: '\uFFFD', start: 2, end: 4 },
      { content: '\uFFFD', start: 2, end: 4 },
    ]);
  });
});

describe('quirks reproduced with content === text', () => {
  test('a piece left when the separators run out is emitted as it is: untrimmed, over the size', async () => {
    // "\n\n" splits into "aa" and "\n\n  bbbbbbbbbb  " (kept separator in front, 16 >= 10); "|" does not occur, so
    // that piece is split on "|" into itself and, with no separator left, emitted untrimmed.
    await expectChunks('aa\n\n  bbbbbbbbbb  ', { strategy: 'recursive', separators: ['\n\n', '|'], size: 10, overlap: 0 }, [
      { content: 'aa', start: 0, end: 2 },
      { content: '\n\n  bbbbbbbbbb  ', start: 2, end: 18, oversize: true },
    ]);
  });

  test('a whitespace-only chunk: single characters that reach the size are emitted untrimmed', async () => {
    // Split on " " (kept in front): "a", " b"; both measure >= 1, so each is split on "" and each unit is emitted.
    await expectChunks('a b', { strategy: 'recursive', size: 1, overlap: 0 }, [
      { content: 'a', start: 0, end: 1 },
      { content: ' ', start: 1, end: 2 },
      { content: 'b', start: 2, end: 3 },
    ]);
  });

  test('"" splits UTF-16 units: an emoji becomes two lone surrogates', async () => {
    await expectChunks('😀', { strategy: 'recursive', size: 1, overlap: 0 }, [
      { content: '\ud83d', start: 0, end: 1 },
      { content: '\ude00', start: 1, end: 2 },
    ]);
  });

  test('a single piece over the size is a chunk of its own (LangChain only warns)', async () => {
    await expectChunks('abcdef gh', { strategy: 'character', separators: [' '], size: 3, overlap: 0 }, [
      { content: 'abcdef', start: 0, end: 6, oversize: true },
      { content: 'gh', start: 7, end: 9 },
    ]);
  });

  test('separators count as characters even when the unit is tokens', async () => {
    const encoder = await offlineEncoder('cl100k_base');
    // Premise: the whole text is 3 tokens, so it would fit in 3.
    expect(encoder.encode('a\n\nb', [], [])).toHaveLength(3);
    // LangChain: 1 + 1 token + 1 separator x 2 characters = 4 > 3.
    await expectChunks('a\n\nb', { strategy: 'character', separators: ['\n\n'], unit: 'cl100k_base', size: 3, overlap: 0 }, [
      { content: 'a', start: 0, end: 1 },
      { content: 'b', start: 3, end: 4 },
    ]);
  });

  test('token counts are summed over untrimmed pieces: a chunk can exceed the size in real tokens', async () => {
    const options: CompatCase = { strategy: 'recursive', unit: 'cl100k_base', size: 3, overlap: 0 };
    const text = ' world   🙂  !!';
    const encoder = await offlineEncoder('cl100k_base');
    const reference = await (await referenceSplitter(options)).splitText(text);
    const chunks = await compatChunks(text, options);
    expect(chunks.map((c) => c.content)).toEqual(reference);
    // At least one chunk is over 3 tokens when counted as a whole, though LangChain's sum kept it within 3.
    expect(Math.max(...reference.map((c) => encoder.encode(c, [], []).length))).toBeGreaterThan(3);
  });

  test('keepSeparator splits before every occurrence, overlapping ones included; separator-only pieces vanish', async () => {
    // "\n\n" occurs at 1 and 2: pieces "x", "\n", "\n\ny"; "\n" trims to nothing; "\n\ny" trims to "y".
    await expectChunks('x\n\n\ny', { strategy: 'character', separators: ['\n\n'], keepSeparator: 'start', size: 1, overlap: 0 }, [
      { content: 'x', start: 0, end: 1 },
      { content: 'y', start: 4, end: 5 },
    ]);
  });

  test('CRLF: "\\n\\n" does not match "\\r\\n\\r\\n", the split happens at "\\n"', async () => {
    // Pieces "one\r", "\n\r", "\ntwo"; no two fit together in 5; the middle one trims to nothing.
    await expectChunks('one\r\n\r\ntwo', { strategy: 'recursive', size: 5, overlap: 0 }, [
      { content: 'one', start: 0, end: 3 },
      { content: 'two', start: 7, end: 10 },
    ]);
  });
});

describe('inputs LangChain refuses, refused alike', () => {
  test('a custom separator list without "" and keepSeparator off fails with a TypeError', async () => {
    const options: CompatCase = { strategy: 'recursive', separators: ['\n', ' '], keepSeparator: 'none', size: 3, overlap: 0 };
    await expect((await referenceSplitter(options)).splitText('aaaa bbbb cccc')).rejects.toThrow(TypeError);
    await expect(compatChunks('aaaa bbbb cccc', options)).rejects.toThrow(TypeError);
  });

  test('the token splitter refuses special-token text such as <|endoftext|>', async () => {
    const options: CompatCase = { strategy: 'token', unit: 'cl100k_base', size: 4, overlap: 1 };
    const message = 'The text contains a special token that is not allowed: <|endoftext|>';
    await expect((await referenceSplitter(options)).splitText('a <|endoftext|> b')).rejects.toThrow(message);
    await expect(compatChunks('a <|endoftext|> b', options)).rejects.toThrow(message);
  });
});

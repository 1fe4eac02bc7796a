/**
 * The upstream unit cases of LlamaIndex TS (packages/core/tests/node-parser/text-splitter.test.ts,
 * sentence-spiller.test.ts, markdown.test.ts in run-llama/LlamaIndexTS), restated as fixtures, and the quirks
 * compat mode `llamaindex` reproduces, each with a worked example. Every fixture is checked against compat mode AND
 * against the real package, so a fixture can never drift from what the package does.
 */
import { describe, expect, test, vi } from 'vitest';
import { chunk, validateOptions } from '../../index';
import type { ChunkContext } from '../../types';
import { getUnit } from '../../units';
import { splitBySentenceTokenizer } from '@llamaindex/core/node-parser';
import { compatChunks, referenceMarkdownMetadata, referenceTexts, type LlamaCase } from './fixtures/reference';
import { splitSentenceLlamaindex } from './sentenceSplitter';
import { literalSentences, llamaindexSentences } from './sentences';

interface Fixture {
  name: string;
  text: string;
  c: LlamaCase;
  expected: string[];
}

const sentence = (size: number, overlap?: number): LlamaCase => ({ strategy: 'sentence', size, ...(overlap !== undefined ? { overlap } : {}) });

const UPSTREAM: Fixture[] = [
  {
    name: 'paragraphs apart at the paragraph separator (size 9, overlap 0)',
    text: 'This is a paragraph.\n\n\nThis is another paragraph.',
    c: sentence(9, 0),
    expected: ['This is a paragraph.', 'This is another paragraph.'],
  },
  {
    name: 'sentences apart (size 9, overlap 0)',
    text: 'This is a sentence. This is another sentence.',
    c: sentence(9, 0),
    expected: ['This is a sentence.', 'This is another sentence.'],
  },
  {
    name: 'sentences apart (size 5, overlap 0)',
    text: 'This is a sentence. This is another sentence.',
    c: sentence(5, 0),
    expected: ['This is a sentence.', 'This is another sentence.'],
  },
  {
    name: 'a text that fits stays whole (size 1000, default overlap)',
    text: 'This is a sentence. This is another sentence.',
    c: sentence(1000),
    expected: ['This is a sentence. This is another sentence.'],
  },
  {
    name: 'the space is kept when nothing is split',
    text: 'The short sentence. The long long long long sentence.',
    c: sentence(1024, 0),
    expected: ['The short sentence. The long long long long sentence.'],
  },
  {
    name: 'a split exactly at the size: the size of one copy, two copies',
    text: 'The short sentence. The long long long long sentence. The short sentence. The long long long long sentence.',
    c: sentence(11, 0), // cl100k tokens of one copy
    expected: ['The short sentence. The long long long long sentence.', 'The short sentence. The long long long long sentence.'],
  },
  {
    name: 'decimals are not sentence ends',
    text: 'This is a sentence. This is another sentence. 1.0',
    c: sentence(5, 0),
    expected: ['This is a sentence.', 'This is another sentence.', '1.0'],
  },
  {
    name: 'abbreviations are not sentence ends ("Sr.")',
    text: 'This is a sentence of Broda Noel. This is the sentence of Sr. Broda Noel. This is a sentence of somebody else',
    c: sentence(15, 0),
    expected: ['This is a sentence of Broda Noel.', 'This is the sentence of Sr. Broda Noel.', 'This is a sentence of somebody else'],
  },
];

const QUIRKS: Fixture[] = [
  {
    name: 'empty text: one empty chunk',
    text: '',
    c: sentence(10, 0),
    expected: [''],
  },
  {
    name: 'whitespace-only text: no chunk',
    text: '  \n ',
    c: sentence(10, 0),
    expected: [],
  },
  {
    name: 'the secondary regex loses a second punctuation mark in a row',
    text: 'one,, two;; three',
    c: { strategy: 'sentence', size: 2, overlap: 0, unit: 'words' },
    expected: ['one, two;', 'three'],
  },
  {
    // Pieces "a", " b", " c", ... (the space kept at the start): overlap 3 fits one trailing piece, 4 fits two.
    name: 'overlap is whole trailing pieces whose summed size fits (3: one piece)',
    text: 'a b c d e f g h',
    c: { strategy: 'sentence', size: 6, overlap: 3, unit: 'chars' },
    expected: ['a b c', 'c d e', 'e f g', 'g h'],
  },
  {
    name: 'overlap is whole trailing pieces whose summed size fits (4: two pieces)',
    text: 'a b c d e f g h',
    c: { strategy: 'sentence', size: 6, overlap: 4, unit: 'chars' },
    expected: ['a b c', 'b c d', 'c d e', 'd e f', 'e f g', 'f g h'],
  },
  {
    // After the overlap the next piece is taken whatever its size: 2 + 7 chars in a chunk of size 8.
    name: 'a chunk can exceed the size by up to the overlap',
    text: 'aaaaaaa. b. ccccccc.',
    c: { strategy: 'sentence', size: 8, overlap: 3, unit: 'chars' },
    expected: referenceTextsOf('aaaaaaa. b. ccccccc.', { strategy: 'sentence', size: 8, overlap: 3, unit: 'chars' }),
  },
  {
    name: 'TokenTextSplitter packs words and never overlaps',
    text: 'alpha beta gamma delta epsilon zeta eta theta',
    c: { strategy: 'token', size: 4, overlap: 2 },
    expected: ['alpha beta gamma delta', 'epsilon zeta eta', 'theta'],
  },
  {
    name: 'TokenTextSplitter: "" gives one empty chunk',
    text: '',
    c: { strategy: 'token', size: 4, overlap: 0 },
    expected: [''],
  },
];

const MARKDOWN: { name: string; text: string; expected: string[]; metadata?: Record<string, string>[] }[] = [
  {
    name: 'header splits: the node starts with the header text, without its marks',
    text: '# Main Header\n\nHeader 1 content\n\n# Header 2\nHeader 2 content\n    ',
    expected: ['Main Header\n\nHeader 1 content', 'Header 2\nHeader 2 content'],
    metadata: [{ Header_1: 'Main Header' }, { Header_1: 'Header 2' }],
  },
  {
    name: 'not headers: no space after #, text before #, indented #',
    text: '# Header 1\n\n#Not a header\n\nAlso # not a header\n\n     # Still not a header\n    ',
    expected: ['Header 1\n\n#Not a header\n\nAlso # not a header\n\n     # Still not a header'],
  },
  {
    name: 'content before the first header is a node of its own',
    text: '\n\npre-header content\n\n# Header 1\n\nContent\n\n## Sub-header\n    ',
    expected: ['pre-header content', 'Header 1\n\nContent', 'Sub-header'],
  },
  {
    name: 'header metadata: ancestors and the header itself, Header_1 ... Header_n',
    text: '# Main Header\n\nContent\n\n## Sub-header\n\nContent\n\n### Sub-sub header\n\nContent\n\n# New title\n    ',
    expected: ['Main Header\n\nContent', 'Sub-header\n\nContent', 'Sub-sub header\n\nContent', 'New title'],
    metadata: [
      { Header_1: 'Main Header' },
      { Header_1: 'Main Header', Header_2: 'Sub-header' },
      { Header_1: 'Main Header', Header_2: 'Sub-header', Header_3: 'Sub-sub header' },
      { Header_1: 'New title' },
    ],
  },
  {
    name: 'QUIRK: an empty section still makes a node (empty text)',
    text: '# A\n# \n# B',
    expected: ['A', '', 'B'],
  },
  {
    name: 'QUIRK: "." stops at "\\r": CRLF header lines lose their "\\r"',
    text: '# Title\r\nbody\r\n',
    expected: ['Title\nbody'],
  },
  {
    name: 'headers inside code fences are content',
    text: '# A\n```\n# not\n```\ntext',
    expected: ['A\n```\n# not\n```\ntext'],
  },
];

async function check(text: string, c: LlamaCase, expected: string[]): Promise<void> {
  expect(referenceTexts(text, c)).toEqual(expected);
  const chunks = await compatChunks(text, c);
  expect(chunks.map((ch) => ch.content)).toEqual(expected);
  for (const ch of chunks) expect(ch.text).toBe(text.slice(ch.start, ch.end));
}

describe('LlamaIndex TS upstream cases (SentenceSplitter)', () => {
  for (const f of UPSTREAM) test(f.name, () => check(f.text, f.c, f.expected));

  test('a long run of one word, defaults 1024 / 20: nine chunks of at most 1024 tokens', async () => {
    const text = 'is '.repeat(9000) + '.';
    const c: LlamaCase = { strategy: 'sentence', size: 1024, overlap: 20 };
    const chunks = await compatChunks(text, c);
    expect(chunks).toHaveLength(9);
    expect(chunks.map((ch) => ch.content)).toEqual(referenceTexts(text, c));
    for (const ch of chunks) expect(ch.size).toBeLessThanOrEqual(1024);
  });

  test('a custom paragraph separator: a text that fits is one chunk', async () => {
    const ctx = await ctxFor('cl100k_base');
    const text = 'This is a paragraph.\nThis is another paragraph.';
    expect(spansText(text, splitSentenceLlamaindex(text, ctx, { chunkSize: 1024, chunkOverlap: 200, paragraphSeparator: '\n' }))).toEqual([text]);
  });

  test('CJK with a custom secondary regex', async () => {
    const ctx = await ctxFor('cl100k_base');
    const text = '此后如竟没有炬火：我便是唯一的光。倘若有了炬火，出了太阳，我们自然心悦诚服的消失。不但毫无不平，而且还要随喜赞美这炬火或太阳；因为他照了人类，连我都在内。';
    const spans = splitSentenceLlamaindex(text, ctx, {
      chunkSize: 30,
      chunkOverlap: 0,
      secondaryChunkingRegex: '.*?([﹒﹔﹖﹗．；。！？]["’”」』]{0,2}|：(?=["‘“「『]{1,2}|$))',
    });
    expect(spansText(text, spans)).toEqual([
      '此后如竟没有炬火：我便是唯一的光。',
      '倘若有了炬火，出了太阳，我们自然心悦诚服的消失。',
      '不但毫无不平，而且还要随喜赞美这炬火或太阳；',
      '因为他照了人类，连我都在内。',
    ]);
  });

  test('issue 1087: brackets after an abbreviation do not end the sentence', () => {
    const text =
      'A card must be of uniform thickness and made of unfolded and uncreased paper or cardstock of approximately the quality and weight of a stamped card (i.e., a card available from USPS).';
    expect(llamaindexSentences(text)).toEqual([{ start: 0, end: text.length }]);
  });
});

describe('LlamaIndex TS quirks reproduced', () => {
  for (const f of QUIRKS) test(f.name, () => check(f.text, f.c, f.expected));

  test('a URI holding an abbreviation keeps its placeholder in the package (content !== text)', async () => {
    const text = 'See www.etc.com today. Then stop.';
    const c: LlamaCase = { strategy: 'sentence', size: 30, overlap: 0, unit: 'chars' };
    const expected = ['See www.{{ABBREV_0}}com today.', 'Then stop.'];
    await check(text, c, expected);
    const [first] = await compatChunks(text, c);
    expect(first!.text).toBe('See www.etc.com today.');
  });

  test('"art." inside "start." is an abbreviation: the sentence tokenizer does not end a sentence there', () => {
    const text = 'We start. Go on. We stop. Go on.';
    const cuts = llamaindexSentences(text).map((p) => text.slice(p.start, p.end));
    expect(cuts).toEqual(['We start. Go on.', ' We stop.', ' Go on.']);
    expect(splitBySentenceTokenizer()(text)).toEqual(cuts);
  });

  test('the sentence tokenizer: fast path and the literal algorithm agree on ordinary text', () => {
    const texts = ['Mr. Smith paid 1,000.50 dollars. Really?! Yes… "Quoted." (Bracket.) Next', 'a . b ..c', 'no end', 'e-mail me@x.io. Then'];
    for (const t of texts) expect(llamaindexSentences(t)).toEqual(literalSentences(t));
  });

  test('a text with placeholder-like strings takes the literal path (as the package does)', async () => {
    const text = 'Say {{DELIM_0}}. Then more words here.';
    await check(text, { strategy: 'sentence', size: 3, overlap: 0, unit: 'words' }, referenceTexts(text, { strategy: 'sentence', size: 3, overlap: 0, unit: 'words' }));
  });

  test('a piece nothing can cut below the size: the package overflows its stack; compat throws a RangeError', async () => {
    const text = 'ꙮꙮ ꙮ'; // U+A66E is 3 cl100k tokens
    const c: LlamaCase = { strategy: 'sentence', size: 1, overlap: 0 };
    expect(() => referenceTexts(text, c)).toThrow(RangeError);
    await expect(compatChunks(text, c)).rejects.toThrow(RangeError);
  });

  test('special-token text is refused, as js-tiktoken does', async () => {
    const text = 'before <|endoftext|> after';
    expect(() => referenceTexts(text, sentence(4, 0))).toThrow(/special token/);
    await expect(compatChunks(text, sentence(4, 0))).rejects.toThrow('The text contains a special token that is not allowed: <|endoftext|>');
  });

  test('TokenTextSplitter keeps a piece nothing can cut, over the size (the package only warns)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const text = 'ꙮꙮ ꙮ';
    const c: LlamaCase = { strategy: 'token', size: 1, overlap: 0 };
    const chunks = await compatChunks(text, c);
    expect(chunks.map((ch) => ch.content)).toEqual(referenceTexts(text, c));
    expect(chunks.some((ch) => ch.metadata.oversize)).toBe(true);
    warn.mockRestore();
  });
});

describe('LlamaIndex TS upstream cases (MarkdownNodeParser)', () => {
  for (const f of MARKDOWN) {
    test(f.name, async () => {
      await check(f.text, { strategy: 'markdown' }, f.expected);
      if (f.metadata) {
        expect(referenceMarkdownMetadata(f.text)).toEqual(f.metadata);
        const chunks = await compatChunks(f.text, { strategy: 'markdown' });
        expect(chunks.map((ch) => Object.fromEntries(Object.entries(ch.metadata).filter(([k]) => k.startsWith('Header_'))))).toEqual(f.metadata);
      }
    });
  }
});

describe('compat llamaindex defaults (the package\'s, when no size, overlap or unit is given)', () => {
  test('sentence: 1024 / 200 / cl100k_base; overlap 200 kept with a given size; lowered only when not below it', () => {
    const o = validateOptions({ strategy: 'sentence', compat: 'llamaindex' });
    expect([o.size, o.overlap, o.unit]).toEqual([1024, 200, 'cl100k_base']);
    expect(validateOptions({ strategy: 'sentence', compat: 'llamaindex', size: 512 }).overlap).toBe(200);
    expect(validateOptions({ strategy: 'sentence', compat: 'llamaindex', size: 100 }).overlap).toBe(12);
    expect(validateOptions({ strategy: 'sentence' }).overlap).toBe(64); // native defaults unchanged
    expect(validateOptions({ strategy: 'sentence', size: 200 }).overlap).toBe(25);
  });

  test('token: 1024 / 20 / cl100k_base', () => {
    const o = validateOptions({ strategy: 'token', compat: 'llamaindex' });
    expect([o.size, o.overlap, o.unit]).toEqual([1024, 20, 'cl100k_base']);
  });

  test('the defaults give the package\'s default chunks', async () => {
    const text = 'A sentence here. '.repeat(400);
    const chunks = await chunk(text, { strategy: 'sentence', compat: 'llamaindex' });
    expect(chunks.map((ch) => ch.content)).toEqual(referenceTexts(text, { strategy: 'sentence' }));
    expect(chunks.length).toBeGreaterThan(1);
  });
});

function referenceTextsOf(text: string, c: LlamaCase): string[] {
  return referenceTexts(text, c);
}

async function ctxFor(unit: 'cl100k_base'): Promise<ChunkContext> {
  return { unit: await getUnit(unit), options: validateOptions({ strategy: 'sentence', compat: 'llamaindex' }) };
}

function spansText(text: string, spans: { start: number; end: number; content?: string }[]): string[] {
  return spans.map((s) => s.content ?? text.slice(s.start, s.end));
}

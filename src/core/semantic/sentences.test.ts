import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embeddingInputs } from './buffer';
import { cosineDistances } from './distances';
import { npSum } from './numpy';
import { langchainSentences, semanticSentences } from './sentences';

const texts = (source: string, ranges: { start: number; end: number }[]) => ranges.map((r) => source.slice(r.start, r.end));

describe('LangChain sentences: re.split(r"(?<=[.?!])\\s+")', () => {
  it('splits after . ? ! followed by whitespace, dropping the whitespace', () => {
    const s = 'One. Two?  Three!\nFour';
    expect(texts(s, langchainSentences(s))).toEqual(['One.', 'Two?', 'Three!', 'Four']);
  });

  it('keeps Python quirks: a trailing empty piece, [""] for empty text, abbreviations cut', () => {
    expect(texts('A. B. ', langchainSentences('A. B. '))).toEqual(['A.', 'B.', '']);
    expect(texts('', langchainSentences(''))).toEqual(['']);
    expect(texts('e.g. this', langchainSentences('e.g. this'))).toEqual(['e.g.', 'this']);
    expect(texts('  Lead. x', langchainSentences('  Lead. x'))).toEqual(['  Lead.', 'x']);
  });

  it("uses Python's whitespace: NBSP and \\x1c split, the BOM does not", () => {
    expect(langchainSentences('a.\u00a0b')).toHaveLength(2);
    expect(langchainSentences('a.\x1cb')).toHaveLength(2);
    expect(langchainSentences('a.\ufeffb')).toHaveLength(1);
  });
});

describe('native and LlamaIndex sentences', () => {
  it('native: Intl.Segmenter sentences without surrounding whitespace, blank ones dropped', () => {
    const s = '  Hello there.  How are you?\n\n';
    expect(texts(s, semanticSentences(s, { shape: 'trimmed' }))).toEqual(['Hello there.', 'How are you?']);
    expect(semanticSentences(' \n\t ', { shape: 'trimmed' })).toEqual([]);
  });

  it('LlamaIndex: contiguous sentences that keep their trailing whitespace (upstream test_split_and_permutated)', () => {
    // llama_index tests/node_parser/test_semantic_splitter.py: the three sentences and their buffered windows.
    const s = "They're taking the Hobbits to Isengard! I can't carry it for you. But I can carry you!";
    const sentences = semanticSentences(s, { shape: 'contiguous' });
    expect(texts(s, sentences)).toEqual(["They're taking the Hobbits to Isengard! ", "I can't carry it for you. ", 'But I can carry you!']);
    expect(embeddingInputs(s, sentences, 1, 'concat').texts).toEqual([
      "They're taking the Hobbits to Isengard! I can't carry it for you. ",
      "They're taking the Hobbits to Isengard! I can't carry it for you. But I can carry you!",
      "I can't carry it for you. But I can carry you!",
    ]);
  });

  it('LlamaIndex: a blank document has no sentences (upstream test_blank_document_produces_no_nodes)', () => {
    expect(semanticSentences('', { shape: 'contiguous' })).toEqual([]);
    expect(semanticSentences('   \n\t ', { shape: 'contiguous' })).toEqual([]);
  });
});

describe('buffered windows', () => {
  const s = 'A1.  B2.\nC3.';
  const sentences = langchainSentences(s);

  it('joins each sentence with b neighbours on each side', () => {
    expect(embeddingInputs(s, sentences, 1, 'space').texts).toEqual(['A1. B2.', 'A1. B2. C3.', 'B2. C3.']);
    expect(embeddingInputs(s, sentences, 2, 'space').texts).toEqual(['A1. B2. C3.', 'A1. B2. C3.', 'A1. B2. C3.']);
    expect(embeddingInputs(s, sentences, 0, 'space').texts).toEqual(['A1.', 'B2.', 'C3.']);
    // native embeds the source text of the window
    expect(embeddingInputs(s, sentences, 1, 'source').texts).toEqual(['A1.  B2.', 'A1.  B2.\nC3.', 'B2.\nC3.']);
  });

  it('gives each text its source range', () => {
    expect(embeddingInputs(s, sentences, 1, 'space').ranges).toEqual([
      { start: 0, end: 8 },
      { start: 0, end: 12 },
      { start: 5, end: 12 },
    ]);
  });

  it('never returns a blank string to embed', () => {
    const t = 'A. B. ';
    const inputs = embeddingInputs(t, langchainSentences(t), 0, 'space');
    expect(inputs.texts).toEqual(['A.', 'B.']);
    expect(Array.from(inputs.textOfSentence)).toEqual([0, 1, -1]);
  });
});

describe('cosine distances', () => {
  const identity = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

  it('d[i] = 1 - cos(e_i, e_i+1)', () => {
    const d = cosineDistances([[1, 0], [1, 1], [0, 1], [0, 3]], identity(4));
    expect(d[0]).toBeCloseTo(1 - Math.SQRT1_2, 15); // 45 degrees
    expect(d[1]).toBeCloseTo(1 - Math.SQRT1_2, 15);
    expect(d[2]).toBe(0); // same direction, any length
    // [1, 2, 2]·[2, 1, 2] = 8, norms 3 and 3: distance 1/9; orthogonal: 1; opposite: 2
    const e = cosineDistances([[1, 2, 2], [2, 1, 2], [0, 0, -5], [0, 0, 5]], identity(4));
    expect(e[0]).toBeCloseTo(1 / 9, 15);
    expect(e[1]).toBeCloseTo(1 - -2 / 3, 15);
    expect(e[2]).toBe(2);
    expect(cosineDistances([[1, 0], [0, 1]], identity(2))[0]).toBe(1);
  });

  it('norms are numpy\'s pairwise sum of the squares, to the bit, at any length (property)', () => {
    // The reference: squares written out, then np.sum's pairwise order (what np.linalg.norm does).
    const reference = (a: Float32Array, b: Float32Array) => {
      const norm = (v: Float32Array) => Math.sqrt(npSum(Float64Array.from(v, (x) => x * x)));
      let dot = 0;
      for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
      return 1 - dot / (norm(a) * norm(b));
    };
    // Embedding-like float32 values with full mantissas (a seeded generator: fast-check's float arrays lean on values
    // whose products add exactly, which no order of additions would tell apart).
    const floats = (n: number, seed: number) => {
      let x = seed >>> 0 || 1;
      return Float32Array.from({ length: n }, () => {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return ((x >>> 0) / 2 ** 32 - 0.5) * 2;
      });
    };
    fc.assert(
      fc.property(
        // b near a (similarity near 1, so that 1 - similarity keeps the last bits of the dot product and the norms).
        fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer(), fc.integer(), fc.double({ min: 1e-6, max: 1e3, noNaN: true })).map(([n, s1, s2, scale]) => {
          const a = floats(n, s1).map((v) => v * scale);
          const c = floats(n, s2);
          return [a, a.map((v, i) => v + c[i]! * scale * 1e-2)] as const;
        }),
        ([a, b]) => {
          const d = cosineDistances([a, b], identity(2))[0]!;
          expect(Object.is(d, reference(a, b)) || (Number.isNaN(d) && Number.isNaN(reference(a, b)))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a blank window leaves its gaps without a distance', () => {
    const d = cosineDistances([[1, 0], [0, 1]], Int32Array.from([0, -1, 1]));
    expect(Number.isNaN(d[0])).toBe(true);
    expect(Number.isNaN(d[1])).toBe(true);
  });

  it('a zero vector: NaN natively, distance 1 in LangChain (nan similarity replaced by 0)', () => {
    expect(Number.isNaN(cosineDistances([[0, 0], [1, 0]], identity(2))[0])).toBe(true);
    expect(cosineDistances([[0, 0], [1, 0]], identity(2), 'zero-similarity')[0]).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { wordsUnit } from '../units/words';
import { vectorsWithDistances } from './fixtures/vectors';
import { analyseSemantic, prepareSemantic, splitSemantic, type SemanticCompat, type SemanticParams } from './splitter';

const sentence = (k: number) => `Sentence number ${k} is here.`;

/** A text of n short sentences whose window distances are `distances` (n − 1 of them). */
function run(distances: number[], params: SemanticParams, compat: SemanticCompat = 'none', text?: string, bufferSize = 1) {
  const source = text ?? Array.from({ length: distances.length + 1 }, (_, k) => sentence(k)).join(' ');
  const prep = prepareSemantic(source, { compat, bufferSize });
  expect(prep.sentences).toHaveLength(distances.length + 1);
  const result = splitSemantic(analyseSemantic(prep, vectorsWithDistances(distances)), params);
  return { source, prep, result, texts: result.spans.map((s) => source.slice(s.start, s.end)) };
}

describe('native cuts: one per drop', () => {
  // One change of topic seen through windows of 3 sentences: the distance rises over three gaps around it.
  const drop = [0.05, 0.05, 0.6, 0.9, 0.7, 0.05, 0.05];

  it('compat modes cut at every gap above the threshold, native only at the peak', () => {
    const compat = run(drop, { breakpoint: 'absolute', amount: 0.5 }, 'llamaindex');
    expect(compat.result.breakpoints).toEqual([2, 3, 4]);
    expect(compat.result.spans).toHaveLength(4); // two of them a single sentence
    const native = run(drop, { breakpoint: 'absolute', amount: 0.5 });
    expect(native.result.breakpoints).toEqual([3]);
    expect(native.texts).toEqual([[0, 1, 2, 3].map(sentence).join(' '), [4, 5, 6, 7].map(sentence).join(' ')]);
    expect(native.result.spans[1]!.distanceBefore).toBeCloseTo(0.9, 12);
    expect(native.result.spans[1]!.gapBefore).toBe(3);
  });

  it('two drops further apart than the buffer give two cuts', () => {
    const { result } = run([0.05, 0.8, 0.05, 0.05, 0.7, 0.05], { breakpoint: 'absolute', amount: 0.5 });
    expect(result.breakpoints).toEqual([1, 4]);
  });

  it('suppresses over the buffer size: buffer 2 keeps one cut in five gaps', () => {
    const distances = [0.05, 0.5, 0.6, 0.9, 0.7, 0.55, 0.05, 0.05];
    const b1 = run(distances, { breakpoint: 'absolute', amount: 0.4 }, 'none', undefined, 1);
    expect(b1.result.breakpoints).toEqual([1, 3, 5]);
    const b2 = run(distances, { breakpoint: 'absolute', amount: 0.4 }, 'none', undefined, 2);
    expect(b2.result.breakpoints).toEqual([3]);
  });

  it('a target number of chunks gives exactly that many when the drops allow', () => {
    const distances = [0.1, 0.8, 0.1, 0.3, 0.1, 0.6, 0.1, 0.2, 0.1];
    expect(run(distances, { chunks: 1 }).result.spans).toHaveLength(1);
    expect(run(distances, { chunks: 2 }).result.breakpoints).toEqual([1]);
    const three = run(distances, { chunks: 3 }).result;
    expect(three.breakpoints).toEqual([1, 5]);
    expect(three.threshold).toBeCloseTo(0.3, 12); // the strongest gap left out
    expect(run(distances, { chunks: 5 }).result.breakpoints).toEqual([1, 3, 5, 7]);
  });
});

describe('native minimum size: a small group joins its closer neighbour', () => {
  const text = 'Apples grow on trees. Pears do too. Hi. Yo. Boats float on water. Ships sail the sea.';

  it('joins the next group when the boundary after it is weaker', () => {
    // gaps: 0.05 | 0.9 (cut) | 0.05 | 0.6 (cut) | 0.05
    const { texts } = run([0.05, 0.9, 0.05, 0.6, 0.05], { breakpoint: 'absolute', amount: 0.5, minSize: 10 }, 'none', text, 0);
    expect(texts).toEqual(['Apples grow on trees. Pears do too.', 'Hi. Yo. Boats float on water. Ships sail the sea.']);
  });

  it('joins the previous group when the boundary before it is weaker (LangChain always joins forward)', () => {
    const distances = [0.05, 0.6, 0.05, 0.9, 0.05];
    const native = run(distances, { breakpoint: 'absolute', amount: 0.5, minSize: 10 }, 'none', text, 0);
    expect(native.texts).toEqual(['Apples grow on trees. Pears do too. Hi. Yo.', 'Boats float on water. Ships sail the sea.']);
    expect(native.result.breakpoints).toEqual([3]);
    const langchain = run(distances, { breakpoint: 'absolute', amount: 0.5, minSize: 10 }, 'langchain', text, 0);
    expect(langchain.result.spans.map((s) => s.content)).toEqual(['Apples grow on trees. Pears do too.', 'Hi. Yo. Boats float on water. Ships sail the sea.']);
  });

  it('a small last group joins the previous one; sizes are counted in the unit', () => {
    // the cut leaves "Ships sail the sea." alone: 4 words, under a minimum of 5 words
    const { texts } = run([0.05, 0.05, 0.05, 0.05, 0.9], { breakpoint: 'absolute', amount: 0.5, minSize: 5, unit: wordsUnit }, 'none', text, 0);
    expect(texts).toEqual([text]);
    const four = run([0.05, 0.05, 0.05, 0.05, 0.9], { breakpoint: 'absolute', amount: 0.5, minSize: 4, unit: wordsUnit }, 'none', text, 0);
    expect(four.texts).toHaveLength(2);
  });
});

describe('maximum size', () => {
  it('native: an oversize group is cut at its strongest inner gap, recursively', () => {
    const distances = [0.1, 0.3, 0.12, 0.1, 0.2];
    const { texts, result } = run(distances, { breakpoint: 'absolute', amount: 0.5, maxSize: 60 });
    // One group of six 26-char sentences (two with a space: 53 chars, three: 80). Cut at 0.3 (gap 1): [0, 1] fits;
    // [2..5] cut at 0.2 (gap 4): [5] fits; [2..4] cut at 0.12 (gap 2): [2] and [3, 4].
    expect(texts).toEqual([[0, 1].map(sentence).join(' '), sentence(2), [3, 4].map(sentence).join(' '), sentence(5)]);
    expect(result.breakpoints).toEqual([]);
    expect(result.spans.every((s) => s.gapBefore === -1)).toBe(true);
  });

  it('a single sentence over the maximum is packed by the core merge (words, then graphemes)', () => {
    const long = 'word '.repeat(30).trim() + '.';
    const { texts, result } = run([], { maxSize: 40 }, 'none', long);
    expect(texts.join(' ')).toBe(long);
    expect(texts.every((t) => t.length <= 40)).toBe(true);
    expect(result.spans.some((s) => s.oversize)).toBe(false);
  });

  it('compat: sentences are packed greedily under the maximum; LangChain content keeps its joins', () => {
    const { source, result } = run([0.1, 0.1, 0.1, 0.1, 0.1], { breakpoint: 'absolute', amount: 0.5, maxSize: 60 }, 'langchain');
    for (const s of result.spans) {
      expect(s.end - s.start).toBeLessThanOrEqual(60);
      expect(s.content).toBe(source.slice(s.start, s.end));
    }
    expect(result.spans).toHaveLength(3);
  });
});

describe('a dragged threshold', () => {
  it('replaces the computed one, in the scale of the compared values', () => {
    const distances = [0.1, 0.2, 0.8, 0.2, 0.1, 0.1, 0.5, 0.1];
    const dragged = run(distances, { breakpoint: 'percentile', threshold: 0.3 }, 'llamaindex').result;
    expect(dragged.threshold).toBe(0.3);
    expect(dragged.breakpoints).toEqual([2, 6]);
    // gradient mode: the line is on the gradient; np.gradient at gap 1 is (0.8 - 0.1) / 2 = 0.35, at gap 5 0.2
    const gradient = run(distances, { breakpoint: 'gradient', threshold: 0.3 }, 'llamaindex').result;
    expect(gradient.comparedWith).toBe('gradient');
    expect(gradient.breakpoints).toEqual([1]);
    expect(run(distances, { breakpoint: 'gradient', threshold: 0.15 }, 'llamaindex').result.breakpoints).toEqual([1, 5]);
  });
});

describe('edge cases and errors', () => {
  it('native gradient needs two distances: two sentences stay together (LangChain returns them apart)', () => {
    expect(run([0.9], { breakpoint: 'gradient' }).result.spans).toHaveLength(1);
    expect(run([0.9], { breakpoint: 'gradient' }, 'langchain').result.spans).toHaveLength(2);
    expect(run([0.9], { breakpoint: 'gradient', chunks: 1 }, 'langchain').result.spans).toHaveLength(2);
    expect(run([0.9], { breakpoint: 'percentile', chunks: 1 }, 'langchain').result.spans).toHaveLength(1);
  });

  it('says why a result is degenerate', () => {
    expect(run([], {}).result.notes).toEqual(['one sentence: nothing to compare, the text is one chunk']);
    expect(run([0.4], { breakpoint: 'gradient' }).result.notes).toEqual(['the gradient needs at least 3 sentences']);
    // a document of unknown words: the built-in model gives zero vectors, so no gap has a distance
    const prep = prepareSemantic('Zorp blick. Quux fnord. Wibble.', {});
    const { spans, notes } = splitSemantic(analyseSemantic(prep, [[0, 0], [0, 0], [0, 0]]));
    expect(spans).toHaveLength(1);
    expect(notes).toEqual([
      '2 of 2 sentence gaps have no distance (a blank window or an all-zero embedding, e.g. only unknown words): they never cut',
    ]);
  });

  it('a document without sentences gives no chunks', () => {
    const prep = prepareSemantic('  \n ', {});
    expect(prep.inputs.texts).toEqual([]);
    expect(splitSemantic(analyseSemantic(prep, [])).spans).toEqual([]);
  });

  it('rejects bad settings with one-line messages', () => {
    const prep = prepareSemantic('One. Two. Three.', {});
    const analysis = analyseSemantic(prep, vectorsWithDistances([0.1, 0.2]));
    expect(() => splitSemantic(analysis, { breakpoint: 'percentile', amount: 120 })).toThrow(/between 0 and 100/);
    expect(() => splitSemantic(analysis, { breakpoint: 'absolute' })).toThrow(/needs a threshold/);
    expect(splitSemantic(analysis, { breakpoint: 'absolute', chunks: 2 }).spans).toHaveLength(2);
    expect(() => splitSemantic(analysis, { chunks: 0 })).toThrow(/chunks/);
    expect(() => splitSemantic(analysis, { minSize: -1 })).toThrow(/minSize/);
    expect(() => analyseSemantic(prep, [[1, 0]])).toThrow(/expected 3 embeddings, got 1/);
    expect(() => prepareSemantic('x', { bufferSize: -1 })).toThrow(/buffer/);
  });
});

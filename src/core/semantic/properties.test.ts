import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWhitespaceCode } from '../measure';
import { charsUnit } from '../units/chars';
import { BREAKPOINT_MODES } from './breakpoints';
import { topicEmbedding } from './fixtures/vectors';
import { analyseSemantic, prepareSemantic, SEMANTIC_COMPAT_MODES, splitSemantic, type SemanticParams } from './splitter';

// Texts of short sentences over four topic words (plus filler), with assorted whitespace and end punctuation; the toy
// embedder makes windows on the same topic similar and gives a zero vector to windows without topic words.
const sentenceArb = fc.record({
  words: fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'the', 'of', 'x'), { minLength: 1, maxLength: 5 }),
  end: fc.constantFrom('.', '!', '?', '', '...'),
  sep: fc.constantFrom(' ', '  ', '\n', '\n\n', ' \t', '\u00a0'),
});
const textArb = fc
  .tuple(fc.constantFrom('', ' ', '\n  '), fc.array(sentenceArb, { minLength: 0, maxLength: 14 }))
  .map(([lead, sentences]) => lead + sentences.map((s) => s.words.join(' ') + s.end + s.sep).join(''));

const paramsArb: fc.Arbitrary<SemanticParams> = fc.record(
  {
    breakpoint: fc.constantFrom(...BREAKPOINT_MODES),
    amount: fc.double({ min: 0, max: 100, noNaN: true }),
    chunks: fc.integer({ min: 1, max: 8 }),
    minSize: fc.integer({ min: 1, max: 60 }),
    maxSize: fc.integer({ min: 8, max: 80 }),
  },
  { requiredKeys: ['breakpoint', 'amount'] },
);

function analyse(text: string, compat: (typeof SEMANTIC_COMPAT_MODES)[number], bufferSize: number) {
  const prep = prepareSemantic(text, { compat, bufferSize });
  return analyseSemantic(prep, prep.inputs.texts.map(topicEmbedding));
}

describe('semantic splitter invariants', () => {
  it('spans are in order, inside the text, cover every non-whitespace character and respect the maximum', () => {
    fc.assert(
      fc.property(textArb, fc.constantFrom(...SEMANTIC_COMPAT_MODES), fc.integer({ min: 0, max: 2 }), paramsArb, (text, compat, buffer, params) => {
        const p = params.breakpoint === 'absolute' ? { ...params, amount: (params.amount ?? 0) / 50 } : params;
        const { spans } = splitSemantic(analyse(text, compat, buffer), p);
        let previousEnd = 0;
        const covered = new Uint8Array(text.length);
        for (const s of spans) {
          expect(s.start).toBeGreaterThanOrEqual(previousEnd);
          expect(s.end).toBeGreaterThanOrEqual(s.start);
          expect(s.end).toBeLessThanOrEqual(text.length);
          if (s.end === s.start) expect(compat).toBe('langchain'); // LangChain's [""] and trailing "" sentence
          previousEnd = s.end;
          covered.fill(1, s.start, s.end);
          if (compat !== 'langchain') expect(s.content).toBeUndefined();
          if (p.maxSize !== undefined && !s.oversize) expect(charsUnit.count(text.slice(s.start, s.end))).toBeLessThanOrEqual(p.maxSize);
        }
        for (let i = 0; i < text.length; i++) {
          if (!isWhitespaceCode(text.charCodeAt(i))) expect(covered[i], `char ${i} of ${JSON.stringify(text)}`).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('LangChain content is the span with each run of whitespace between sentences replaced by one space', () => {
    fc.assert(
      fc.property(textArb, fc.double({ min: 0, max: 100, noNaN: true }), (text, amount) => {
        const { spans, breakpoints } = splitSemantic(analyse(text, 'langchain', 1), { amount });
        for (const s of spans) {
          const sentences = analyse(text, 'langchain', 1).preparation.sentences.slice(s.firstSentence, s.lastSentence + 1);
          expect(s.content).toBe(sentences.map((r) => text.slice(r.start, r.end)).join(' '));
        }
        expect(spans).toHaveLength(breakpoints.length + 1);
      }),
      { numRuns: 100 },
    );
  });

  it('LlamaIndex chunks concatenate to the text from its first non-whitespace character', () => {
    fc.assert(
      fc.property(textArb, fc.double({ min: 0, max: 100, noNaN: true }), (text, amount) => {
        const { spans } = splitSemantic(analyse(text, 'llamaindex', 1), { amount });
        const firstContent = text.search(/\S/);
        expect(spans.map((s) => text.slice(s.start, s.end)).join('')).toBe(firstContent < 0 ? '' : text.slice(firstContent));
      }),
      { numRuns: 100 },
    );
  });

  it('absolute threshold: a higher threshold never gives more chunks (native: a subset of the cuts)', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.constantFrom(...SEMANTIC_COMPAT_MODES),
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        (text, compat, buffer, a, b) => {
          const analysis = analyse(text, compat, buffer);
          const low = splitSemantic(analysis, { breakpoint: 'absolute', amount: Math.min(a, b) });
          const high = splitSemantic(analysis, { breakpoint: 'absolute', amount: Math.max(a, b) });
          expect(high.spans.length).toBeLessThanOrEqual(low.spans.length);
          expect(high.breakpoints.every((g) => low.breakpoints.includes(g))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('native target count: never more chunks than asked, and exactly that many when enough gaps are far apart', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 10 }), (text, chunks) => {
        const analysis = analyse(text, 'none', 1);
        const { spans, breakpoints } = splitSemantic(analysis, { chunks });
        expect(spans.length).toBeLessThanOrEqual(Math.max(1, chunks));
        // a cut suppresses its neighbours only: with n finite gaps, at least ceil(n / 3) cuts are possible
        const finite = Array.from(analysis.distances).filter((d) => !Number.isNaN(d)).length;
        expect(breakpoints.length).toBeGreaterThanOrEqual(Math.min(chunks - 1, Math.ceil(finite / 3)));
      }),
      { numRuns: 150 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spanTermIds, spanTerms, terms, vocabularyOf, type Analyzer } from './tokenize';

const piece = fc.constantFrom('word', 'Cats', 'ÜBER', 'naïve', 'x2', ' ', '  ', '\n', '.', ',', '—', '日本語', '👩‍💻', 'İstanbul', 'running', 'the', 'e\u0301', '\u{1D400}', '-');
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
const analyzers: Analyzer[] = [
  { stopWords: 'none', stemming: false },
  { stopWords: 'english', stemming: false },
  { stopWords: 'english', stemming: true },
];

describe('spanTerms', () => {
  it('property: equals terms() of the slice for any span of any text, with every analyzer', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.constantFrom(...analyzers), (t, a, b, analyzer) => {
        const start = Math.min(a, b) % (t.length + 1);
        const end = Math.min(t.length, start + (Math.max(a, b) % (t.length + 1)));
        expect(spanTerms(t, start, end, analyzer)).toEqual(terms(t.slice(start, end), analyzer));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('spanTermIds', () => {
  it('property: the ids name exactly the terms of the slice, in order', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.constantFrom(...analyzers), (t, a, b, analyzer) => {
        const start = Math.min(a, b) % (t.length + 1);
        const end = Math.min(t.length, start + (Math.max(a, b) % (t.length + 1)));
        const ids = spanTermIds(t, start, end, analyzer, []);
        const names = new Map([...vocabularyOf(analyzer).idOf].map(([term, id]) => [id, term]));
        expect(ids.map((id) => names.get(id))).toEqual(terms(t.slice(start, end), analyzer));
      }),
      { numRuns: 1000 },
    );
  });
});

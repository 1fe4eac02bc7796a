import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropPageFurniture, normaliseFurnitureLine } from './pageFurniture';

describe('page furniture', () => {
  it('matches lines regardless of page numbers, case and spacing', () => {
    expect(normaliseFurnitureLine('  Page 3 of 9 ')).toBe(normaliseFurnitureLine('page 12  of 9'));
    expect(normaliseFurnitureLine('Page 3')).not.toBe(normaliseFurnitureLine('Chapter 3'));
  });

  it('drops a running header and a numbered footer, keeps the content and a title on the first page', () => {
    const pages = [1, 2, 3].map((n) => ['ACME Travel Policy', '', n === 1 ? 'Travel Policy' : `Chapter ${n}`, `text ${'x'.repeat(n)}`, '', `Page ${n} of 3`]);
    const result = dropPageFurniture(pages);
    expect(result.dropped).toBe(6);
    expect(result.examples).toEqual(['ACME Travel Policy', 'Page 1 of 3']);
    expect(result.pages[0]).toEqual(['', 'Travel Policy', 'text x', '']);
    // "Chapter 2", "Chapter 3" open two of three pages: in a small document that is content, not furniture.
    expect(result.pages[2]).toEqual(['', 'Chapter 3', 'text xxx', '']);
  });

  it('needs the line in the top or bottom zone of at least half of the pages of a longer document', () => {
    const page = (n: number, head: string) => [head, `unique ${'x'.repeat(n)}`, `line ${'y'.repeat(n)}`, `end ${'z'.repeat(n)}`];
    const heads = ['Draft', 'Draft', 'Draft', 'Draft', 'a', 'b', 'c', 'd', 'e'];
    expect(dropPageFurniture(heads.map((h, i) => page(i, h))).dropped).toBe(0); // 4 of 9: below half
    expect(dropPageFurniture([...heads, 'Draft'].map((h, i) => page(i, h))).dropped).toBe(5); // 5 of 10
    // In the middle of a page a repeated line is not furniture.
    const middle = [1, 2, 3].map((n) => [`top ${'x'.repeat(n)}`, `a ${'y'.repeat(n)}`, 'Draft', `b ${'y'.repeat(n)}`, `end ${'z'.repeat(n)}`]);
    expect(dropPageFurniture(middle).dropped).toBe(0);
    expect(dropPageFurniture([['only page', 'text']]).dropped).toBe(0);
  });

  // Property: a header and footer put on every page are all dropped; every content line survives, in order.
  it('drops exactly the repeated furniture of random documents', () => {
    const contentLine = fc.stringMatching(/^[a-z]{3,12}( [a-z]{2,9}){0,6}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(contentLine, { minLength: 3, maxLength: 12 }), { minLength: 2, maxLength: 12 }),
        fc.boolean(),
        (bodies, withFooter) => {
          // Content lines are made unique per page so none of them repeats across pages by chance.
          const content = bodies.map((lines, p) => lines.map((l, i) => `${l} p${'x'.repeat(p)} l${'y'.repeat(i)}`));
          const pages = content.map((lines, p) => ['Handbook', ...lines, ...(withFooter ? [`- ${p + 1} -`] : [])]);
          const result = dropPageFurniture(pages);
          expect(result.dropped).toBe(pages.length * (withFooter ? 2 : 1));
          expect(result.pages).toEqual(content);
        },
      ),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOutline, codeSpansText, parseMarkdown, plainText } from './markdown';

/**
 * codeSpansText reads the titles whose only inline markup is code spans without micromark: the outline's titles
 * must stay mdast's (micromark + GFM) plain text of the heading (the outline's reference, mdastOutline.reference.ts).
 */
const piece = fc.constantFrom(
  'word', 'two words', ' ', '  ', '\t', '`', '``', '```', '` `', '`  `', '`a`', '` a `', '`  a  `', '`` a ` b ``', '`a``b`', '` `` `',
  '*', '_', '[x](y)', '<b>', '&amp;', '\\`', 'www.x.org', 'http://x', 'a@b.co', '~', '!', '😀', '日本', 'é', '#', '|', '\u00a0', ':', '/',
);
const line = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

function mdastTitle(source: string): string {
  const heading = parseMarkdown(source).children[0];
  return heading?.type === 'heading' ? plainText(heading).trim() : '';
}

describe('codeSpansText', () => {
  it("gives the outline mdast's title for headings and one-line captions with code spans", () => {
    let answered = 0;
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 6 }), fc.boolean(), (content, depth, setext) => {
        const source = setext ? `${content}\n===` : `${'#'.repeat(depth)} ${content}`;
        const outline = buildOutline(source);
        const fromMdast = mdastTitle(source);
        if (outline.headings.length === 0) return; // not a heading (e.g. a lone list marker): no title to compare
        expect(outline.headings[0]!.title).toBe(fromMdast);
        if (codeSpansText(content) !== null) answered++;
      }),
      { numRuns: 1500 },
    );
    // The fast path must actually be exercised (most generated lines have code spans and no other markup).
    expect(answered).toBeGreaterThan(150);
  });

  it('reads code spans and leaves other markup to mdast', () => {
    expect(codeSpansText('`resolve(context?, path)` => string')).toBe('resolve(context?, path) => string');
    expect(codeSpansText('Why is `.toMatchTypeOf` deprecated?')).toBe('Why is .toMatchTypeOf deprecated?');
    expect(codeSpansText('`` a ` b `` and ` c `')).toBe('a ` b and c');
    expect(codeSpansText('open ` only')).toBe('open ` only');
    expect(codeSpansText('`*not em*` and `[x](y)`')).toBe('*not em* and [x](y)');
    expect(codeSpansText('`x` and *em*')).toBeNull();
    expect(codeSpansText('[`x`](y)')).toBeNull();
    expect(codeSpansText('\\`x`')).toBeNull();
  });
});

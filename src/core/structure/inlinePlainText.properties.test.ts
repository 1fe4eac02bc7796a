import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOutline, inlinePlainText, normalizeLabel, parseMarkdown, pipeCellText, plainText } from './markdown';

/**
 * inlinePlainText reads titles with simple inline markup (code spans, plain links, characters that cannot be markup
 * where they stand) without micromark: the outline's titles must stay mdast's (micromark + GFM) plain text of the
 * heading (the outline's reference, mdastOutline.reference.ts).
 */
const piece = fc.constantFrom(
  'word', 'two words', ' ', '  ', '\t', '`', '``', '```', '` `', '`  `', '`a`', '` a `', '`  a  `', '`` a ` b ``', '`a``b`', '` `` `',
  '*', '_', '[x](y)', '<b>', '&amp;', '\\`', 'www.x.org', 'http://x', 'a@b.co', '~', '!', '😀', '日本', 'é', '#', '|', '\u00a0', ':', '/',
  ' * ', ' ** ', ' _ ', ' ~ ', ' ~~ ', '&', ' & ', '&#', '&x', '!', '![a](b)', '[a](b)', '[ a ](b/c.js#L1)', '[.test](lib/p.js#L128)', '[a]', '[a](b "t")',
  '[a](<b>)', '[](b)', '[^a](b)', '[a](www.x.org)', '[www.x](y)', '(', ')', ']', '[', '*a*', '_a_', 'a_b', '~a~',
);
const line = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

function mdastTitle(source: string): string {
  const heading = parseMarkdown(source).children[0];
  return heading?.type === 'heading' ? plainText(heading).trim() : '';
}

describe('inlinePlainText', () => {
  it("gives the outline mdast's title for headings with code spans, plain links and literal markup characters", () => {
    let answered = 0;
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 6 }), fc.boolean(), (content, depth, setext) => {
        const source = setext ? `${content}\n===` : `${'#'.repeat(depth)} ${content}`;
        const outline = buildOutline(source);
        const fromMdast = mdastTitle(source);
        if (outline.headings.length === 0) return; // not a heading (e.g. a lone list marker): no title to compare
        expect(outline.headings[0]!.title).toBe(fromMdast);
        if (inlinePlainText(content) !== null) answered++;
      }),
      { numRuns: 2500 },
    );
    // The fast path must actually be exercised (many generated lines hold only what it reads).
    expect(answered).toBeGreaterThan(250);
  });

  it("gives mdast's title for headings with brackets and strong text, beside link definitions that may match them", () => {
    const bracketPiece = fc.constantFrom(
      'word', ' ', '[a]', '[b]', '[A  B]', '[ a ]', '[a][b]', '[a][]', '[a](u)', '(x[, y])', '[, z]', '[[a]]', '[a [b] c]', '[', ']', '[]',
      '[^1]', '**strong**', '**a b**', ' ** ', '**x', 'x**', '***a***', '**a*b**', '**a**b', 'a**b**', '** a**', '**a **', '**[a]**',
      '**`c`**', '**www.x.org**', '`x`', '*', '_', '(', ')', ':', '😀',
    );
    const definitionPool = ['[a]: /u', '[A b]: /v', '[x]: /y', '[, z]: /w', '[^1]: note', '[b]:\n/v2'];
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(bracketPiece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
        fc.subarray(definitionPool),
        (content, definitions) => {
          const source = [`## ${content}`, ...definitions].join('\n\n');
          const outline = buildOutline(source);
          const heading = parseMarkdown(source).children[0];
          if (outline.headings.length === 0 || heading?.type !== 'heading') return; // not a heading
          expect(outline.headings[0]!.title).toBe(plainText(heading).trim());
          const labels = new Set(definitions.filter((d) => !d.startsWith('[^')).map((d) => normalizeLabel(d.slice(1, d.indexOf(']')))));
          if (/[[\]*]/.test(content) && inlinePlainText(content, (l) => labels.has(l)) !== null) answered++;
        },
      ),
      { numRuns: 2500 },
    );
    // The fast path must be exercised: about one generated title in ten has brackets or asterisks it reads.
    expect(answered).toBeGreaterThan(100);
  });

  it('reads code spans and leaves other markup to mdast', () => {
    expect(inlinePlainText('`resolve(context?, path)` => string')).toBe('resolve(context?, path) => string');
    expect(inlinePlainText('Why is `.toMatchTypeOf` deprecated?')).toBe('Why is .toMatchTypeOf deprecated?');
    expect(inlinePlainText('`` a ` b `` and ` c `')).toBe('a ` b and c');
    expect(inlinePlainText('open ` only')).toBe('open ` only');
    expect(inlinePlainText('`*not em*` and `[x](y)`')).toBe('*not em* and [x](y)');
    expect(inlinePlainText('`x` and *em*')).toBeNull();
    expect(inlinePlainText('[`x`](y)')).toBeNull();
    expect(inlinePlainText('\\`x`')).toBeNull();
    expect(inlinePlainText('[.test](lib/picomatch.js#L128)')).toBe('.test');
    expect(inlinePlainText('Request & Response types, * zero-or-more, that is it!')).toBe('Request & Response types, * zero-or-more, that is it!');
    expect(inlinePlainText('&amp; x')).toBeNull();
    expect(inlinePlainText('![alt](i.png)')).toBeNull();
    expect(inlinePlainText('sourceContentFor(source[, returnNullOnMissing])')).toBeNull();
  });
});

describe('pipeCellText', () => {
  it('equals the two replacements and trim it stands for, on any cell source', () => {
    const reference = (s: string): string => s.replace(/^\s*\|?/, '').replace(/\|?\s*$/, '').trim();
    const cellChar = fc.constantFrom('|', ' ', '\t', '\u00a0', '\u3000', 'a', 'b', '\\', '`', '-', ':', '😀');
    fc.assert(
      fc.property(fc.array(cellChar, { maxLength: 12 }).map((cs) => cs.join('')), (source) => {
        expect(pipeCellText(source)).toBe(reference(source));
      }),
      { numRuns: 3000 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHtmlOutline } from './html';
import { htmlVisibleText, spanVisibleText } from './htmlText';

describe('visible text of HTML', () => {
  it('tags out, entities decoded, blocks on lines, cells joined, <pre> verbatim, head/script/style dropped', () => {
    const html =
      '<html><head><title>T</title><style>p{}</style></head><body><h1>Caf&eacute; &amp; bar</h1><p>One <b>two</b>\n   three.</p>' +
      '<ul><li>a</li><li>b</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>x</td><td>1</td></tr></table>' +
      '<pre>  keep\n    this</pre><script>alert(1)</script><p>end<br>line</p></body></html>';
    expect(htmlVisibleText(html)).toBe('Café & bar\n\nOne two three.\n\na\nb\n\nk | v\nx | 1\n\nkeep\n    this\n\nend\nline');
  });

  it('a span of a parsed document reads as the same fragment parsed on its own (tag-aligned spans)', () => {
    const piece = fc.constantFrom(
      '<p>alpha &amp; beta</p>', '<h2>Title &lt;x&gt;</h2>', '<div class="a">', '</div>', '<ul><li>one</li><li>two</li></ul>',
      '<table><tr><th>h</th></tr><tr><td>c</td></tr></table>', '<pre>a\n  b</pre>', '<p>x<br>y</p>', '<!-- note -->', 'loose text ',
      '<p>caf&eacute; 😀 日本語</p>', '<hr>', '<section>', '</section>',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('\n');
        const { markup } = buildHtmlOutline(text);
        // Cut points at piece boundaries (never inside a tag).
        const bounds = [0];
        for (const p of pieces) bounds.push(bounds[bounds.length - 1]! + p.length + 1);
        bounds[bounds.length - 1] = text.length;
        const i = a % bounds.length;
        const j = b % bounds.length;
        const span = { start: bounds[Math.min(i, j)]!, end: bounds[Math.max(i, j)]! };
        // A closing tag whose opening tag is outside the span ends a block in the document, while a parser given
        // the fragment alone drops it as stray: there the two rightly differ (the chunk keeps the break).
        fc.pre(!hasStrayClosingTag(pieces.slice(Math.min(i, j), Math.max(i, j))));
        expect(spanVisibleText(text, span, markup)).toBe(htmlVisibleText(text.slice(span.start, span.end)));
      }),
      { numRuns: 300 },
    );
  });
});

/** Whether some `</div>` or `</section>` among the pieces closes an element opened before them. */
function hasStrayClosingTag(pieces: readonly string[]): boolean {
  const open = new Map<string, number>();
  for (const piece of pieces) {
    const tag = /^<(\/?)(div|section)\b/.exec(piece);
    if (!tag) continue;
    const depth = open.get(tag[2]!) ?? 0;
    if (tag[1] && depth === 0) return true;
    open.set(tag[2]!, tag[1] ? depth - 1 : depth + 1);
  }
  return false;
}

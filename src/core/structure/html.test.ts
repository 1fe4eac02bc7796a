import { describe, expect, it } from 'vitest';
import { buildHtmlOutline, htmlHeadingPathAt } from './html';

describe('buildHtmlOutline', () => {
  it('offsets are UTF-16 string indexes (emoji, CJK and entities before the heading)', () => {
    const before = '<p>😀😀 日本語 &amp; &eacute;&#x1F600;</p>\n';
    const text = `${before}<h2 class="x">Per diem 🇫🇷</h2><p>tail</p>`;
    const [h] = buildHtmlOutline(text).headings;
    expect(h!.start).toBe(before.length);
    expect(text.slice(h!.start, h!.end)).toBe('<h2 class="x">Per diem 🇫🇷</h2>');
    expect(h!.title).toBe('Per diem 🇫🇷');
  });

  it('titles: text content with entities decoded, markup removed, whitespace collapsed, img alt kept', () => {
    const text = '<h1>\n  Travel &amp; <em>Expense</em>\n  Policy&nbsp;2026 </h1><h2>A<br>B <img src="x.png" alt="logo"></h2>';
    expect(buildHtmlOutline(text).headings.map((h) => h.title)).toEqual(['Travel & Expense Policy 2026', 'A B logo']);
  });

  it('ignores heading-like text in comments, <script>, <style>, <textarea> and <pre> (escaped) and headings inside tables', () => {
    const text = [
      '<!-- <h1>commented</h1> -->',
      '<script>document.write("<h1>scripted</h1>")</script>',
      '<style>h1::before { content: "<h1>" }</style>',
      '<textarea><h2>typed</h2></textarea>',
      '<pre>&lt;h2&gt;escaped&lt;/h2&gt;</pre>',
      '<table><tr><td><h3>in a cell</h3></td></tr></table>',
      '<h2>Real</h2>',
    ].join('\n');
    const outline = buildHtmlOutline(text);
    expect(outline.headings.map((h) => h.title)).toEqual(['Real']);
    expect(outline.markup.some((m) => text.slice(m.start, m.end) === '<!-- <h1>commented</h1> -->')).toBe(true);
  });

  it('sections run to the next heading of the same or a higher level; parents and path', () => {
    const text = '<h1>T</h1><p>a</p><h2>A</h2><h3>A1</h3><p>x</p><h2>B</h2><h4>B deep</h4><p>y</p><h1>U</h1>';
    const outline = buildHtmlOutline(text);
    const byTitle = Object.fromEntries(outline.headings.map((h) => [h.title, h]));
    expect(text.slice(byTitle.A!.section.start, byTitle.A!.section.end)).toBe('<h2>A</h2><h3>A1</h3><p>x</p>');
    expect(text.slice(byTitle.T!.section.start, byTitle.T!.section.end)).toBe(text.slice(0, text.indexOf('<h1>U')));
    expect(htmlHeadingPathAt(outline, text.indexOf('<p>y'))).toEqual(['T', 'B', 'B deep']);
    expect(htmlHeadingPathAt(outline, text.indexOf('<h2>A'))).toEqual(['T', 'A']);
    expect(htmlHeadingPathAt(outline, 0)).toEqual(['T']);
    expect(htmlHeadingPathAt(buildHtmlOutline('<p>x</p><h2>A</h2>'), 0)).toEqual([]);
  });

  it('tables: caption, header row from <thead> or the first row, body rows, cells; nested tables apart', () => {
    const text = [
      '<table id="t">',
      '  <caption>Table 1: Per diem &amp; lodging</caption>',
      '  <thead><tr><th>City</th><th>Rate</th></tr></thead>',
      '  <tbody>',
      '    <tr><td>Paris</td><td>120 &euro;</td></tr>',
      '    <tr><td>Lyon<table><tr><th>inner</th></tr><tr><td>i</td></tr></table></td><td>90</td></tr>',
      '  </tbody>',
      '</table>',
    ].join('\n');
    const [outer, inner] = buildHtmlOutline(text).tables;
    expect(text.slice(outer!.start, outer!.end)).toBe(text);
    expect(outer!.caption!.text).toBe('Table 1: Per diem & lodging');
    expect(outer!.headerText).toBe('<tr><th>City</th><th>Rate</th></tr>');
    expect(outer!.columns).toEqual(['City', 'Rate']);
    expect(outer!.rows.map((r) => text.slice(r.start, r.start + 12))).toEqual(['<tr><td>Pari', '<tr><td>Lyon']);
    expect(outer!.cells[0]).toEqual(['Paris', '120 €']);
    expect(outer!.cells[1]).toEqual(['Lyon inner i', '90']);
    expect(inner!.parentTable).toBe(0);
    expect(inner!.headerText).toBe('<tr><th>inner</th></tr>');
    expect(inner!.cells).toEqual([['i']]);
  });

  it('implied closes end where the closing tag starts (<td>, <tr>, <li>, <p>)', () => {
    const text = '<table><tr><th>a<th>b<tr><td>1<td>2</table><ul><li>x<li>y</ul><p>one<p>two';
    const outline = buildHtmlOutline(text);
    const [t] = outline.tables;
    expect(t!.headerText).toBe('<tr><th>a<th>b');
    expect(text.slice(t!.rows[0]!.start, t!.rows[0]!.end)).toBe('<tr><td>1<td>2');
    expect(t!.columns).toEqual(['a', 'b']);
    const items = outline.blocks.filter((b) => b.name === 'li' || b.name === 'p').map((b) => text.slice(b.start, b.end));
    expect(items).toEqual(['<li>x', '<li>y', '<p>one', '<p>two']);
  });

  it('code: <pre> blocks and multi-line <code> outside <pre>; the document <title>', () => {
    const text = '<title> My &lt;Doc&gt; </title><pre><code>a\nb</code></pre><p><code>inline</code></p><code>x\ny</code>';
    const outline = buildHtmlOutline(text);
    expect(outline.title).toBe('My <Doc>');
    expect(outline.code.map((c) => text.slice(c.start, c.end))).toEqual(['<pre><code>a\nb</code></pre>', '<code>x\ny</code>']);
  });

  it('markup ranges are the tags and comments, sorted and disjoint', () => {
    const text = '<!DOCTYPE html><p class="a b">x <b>y</b></p><!-- c -->';
    const markup = buildHtmlOutline(text).markup.map((m) => text.slice(m.start, m.end));
    expect(markup).toEqual(['<!DOCTYPE html>', '<p class="a b">', '<b>', '</b>', '</p>', '<!-- c -->']);
  });

  it('a section starts at the wrapper tags opened right before its heading', () => {
    const text = '<h1>T</h1><p>a</p>\n<section id="b">\n  <div class="x"><h2>B</h2><p>b</p></div>\n</section>\n<!-- c --><h2>C</h2>';
    const outline = buildHtmlOutline(text);
    const [t, b, c] = outline.headings;
    expect(b!.section.start).toBe(text.indexOf('<section'));
    expect(text.slice(b!.start, b!.end)).toBe('<h2>B</h2>');
    expect(t!.section.end).toBe(text.length);
    // A comment is not a wrapper: C's section starts at its heading.
    expect(c!.section.start).toBe(c!.start);
    expect(text.slice(b!.section.start, b!.section.end)).toBe('<section id="b">\n  <div class="x"><h2>B</h2><p>b</p></div>\n</section>\n<!-- c -->');
    expect(htmlHeadingPathAt(outline, text.indexOf('<section'))).toEqual(['T', 'B']);
    expect(htmlHeadingPathAt(outline, text.indexOf('<section') - 1)).toEqual(['T']);
  });

  it('header row: the first row with <th> cells when there is no <thead>, below a title row', () => {
    const text = '<table><tr><td colspan="2">Rates 2026</td></tr><tr><th>City</th><th>Rate</th></tr><tr><td>Paris</td><td>1</td></tr></table>';
    const [t] = buildHtmlOutline(text).tables;
    expect(t!.headerText).toBe('<tr><th>City</th><th>Rate</th></tr>');
    expect(t!.columns).toEqual(['City', 'Rate']);
    expect(t!.cells).toEqual([['Rates 2026'], ['Paris', '1']]);
  });
});

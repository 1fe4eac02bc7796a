import { describe, expect, it } from 'vitest';
import { implementation as htmlStrategy } from '../strategies/html/split';
import type { ChunkContext, ResolvedOptions } from '../types';
import { charsUnit } from '../units';
import { wordsUnit } from '../units/words';
import { HAVE_SHARED_CORPUS, NEEDS_SHARED_CORPUS, readSharedCorpus } from '../../testing/sharedData';
import { htmlStructure, splitHtml } from './htmlSplit';
import type { StructureSpan } from './markdownSplit';

const POLICY = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Travel &amp; Expense Policy</title>
  <style>h2 { color: navy } /* <h2>not a heading</h2> */</style>
  <script>const h = "<h1>not a heading</h1>";</script>
</head>
<body>
<h1>Travel Policy</h1>
<p>This policy applies to every employee who travels on company business. Read it before booking.</p>
<!-- <h2>Draft section, commented out</h2> -->
<section>
  <h2>1. Booking</h2>
  <p>Book through the travel desk at least two weeks ahead. Economy class is the default for flights under six hours.</p>
  <h3>1.1 Hotels</h3>
  <p>Choose hotels within the rate limits of section 5.3. Loyalty points are yours to keep.</p>
</section>
<section>
  <h2>5. International travel</h2>
  <p>Check visa rules and vaccinations; the travel desk can help with both.</p>
  <h3>5.3 Per diem</h3>
  <p>Per diem covers meals and incidentals &mdash; not lodging.</p>
  <table>
    <caption>Table 5: Per diem rates &amp; lodging caps</caption>
    <thead><tr><th>City</th><th>Per diem</th><th>Lodging cap</th></tr></thead>
    <tbody>
      <tr><td>Paris</td><td>120 &euro;</td><td>250 &euro;</td></tr>
      <tr><td>Berlin</td><td>100 &euro;</td><td>200 &euro;</td></tr>
      <tr><td>Tokyo</td><td>&yen;18,000</td><td>&yen;30,000</td></tr>
      <tr><td>New York</td><td>$140</td><td>$320</td></tr>
      <tr><td>Lima</td><td>$80</td><td>$150</td></tr>
      <tr><td>Nairobi</td><td>$90</td><td>$170</td></tr>
    </tbody>
  </table>
  <h3>5.4 Expense report format</h3>
  <pre>DATE       CITY     AMOUNT
2026-03-01 Paris    120.00

2026-03-02 Paris     98.50</pre>
  <p>Attach receipts for anything above 25 &euro;.</p>
</section>
</body>
</html>
`;

function texts(spans: StructureSpan[], text: string): string[] {
  return spans.map((s) => text.slice(s.start, s.end));
}

describe('splitHtml on a policy page (rawHtml: content is the source)', () => {
  const spans = splitHtml(POLICY, { size: 350, overlap: 0, unit: charsUnit, maxDepth: 3, rawHtml: true });

  it('cuts at headings with breadcrumbs; <title>, <script>, <style> and comments make no sections', () => {
    const paths = spans.map((s) => s.headingPath.join(' > '));
    expect(paths).toContain('Travel Policy');
    expect(paths).toContain('Travel Policy > 1. Booking');
    expect(paths).toContain('Travel Policy > 5. International travel > 5.3 Per diem');
    expect(paths.some((p) => /not a heading|Draft/.test(p))).toBe(false);
    expect(spans[0]!.headingPath).toEqual([]);
    // <head> (title, style, script) is never chunked.
    for (const t of texts(spans, POLICY)) expect(/<title>|<style>|<script>|<meta/.test(t)).toBe(false);
    // Every chunk is an exact, trimmed span; chunks are in order and do not overlap (overlap 0).
    let previousEnd = 0;
    for (const s of spans) {
      expect(s.start).toBeGreaterThanOrEqual(previousEnd);
      expect(POLICY.slice(s.start, s.end).trim()).toBe(POLICY.slice(s.start, s.end));
      previousEnd = s.end;
    }
  });

  it('each heading starts a chunk, with the <section> tag opened right before it; the breadcrumb ends with it', () => {
    for (const title of ['1. Booking', '5. International travel', '5.3 Per diem', '5.4 Expense report format']) {
      const at = POLICY.search(new RegExp(`<h[23]>${title.replace('.', '\\.')}`));
      const s = spans.find((x) => x.start <= at && at < x.end);
      expect(s, title).toBeDefined();
      expect(POLICY.slice(s!.start, at)).toMatch(/^(<section>\s*)?$/);
      expect(s!.headingPath[s!.headingPath.length - 1]).toBe(title);
    }
  });

  it('the table larger than the size becomes row groups that repeat the header row, caption on each', () => {
    const header = '<tr><th>City</th><th>Per diem</th><th>Lodging cap</th></tr>';
    const groups = spans.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    for (const [i, g] of groups.entries()) {
      expect(g.content!.startsWith(header + '\n')).toBe(true);
      expect(g.caption).toBe('Table 5: Per diem rates & lodging caps');
      expect(g.headingPath).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
      if (i === 0) {
        // The first group's own text starts with the table (caption, header): nothing injected.
        expect(POLICY.slice(g.start, g.end).startsWith('<table>')).toBe(true);
        expect(g.prefix).toBeUndefined();
      } else {
        expect(g.prefix).toBe(header + '\n');
        expect(g.content).toBe(g.prefix + POLICY.slice(g.start, g.end));
      }
      expect(g.content!.length).toBeLessThanOrEqual(350);
    }
    // All six cities are in exactly one group; the last group ends with </table>.
    for (const city of ['Paris', 'Berlin', 'Tokyo', 'New York', 'Lima', 'Nairobi']) {
      expect(groups.filter((g) => POLICY.slice(g.start, g.end).includes(`<td>${city}</td>`))).toHaveLength(1);
    }
    expect(POLICY.slice(groups[groups.length - 1]!.start, groups[groups.length - 1]!.end).endsWith('</table>')).toBe(true);
  });

  it('the <pre> block (with a blank line inside) is never cut', () => {
    const pre = { start: POLICY.indexOf('<pre>'), end: POLICY.indexOf('</pre>') + 6 };
    for (const s of spans) for (const b of [s.start, s.end]) expect(pre.start < b && b < pre.end).toBe(false);
  });
});

describe('splitHtml on a policy page (default: content is the text, as a pipeline indexes it)', () => {
  const spans = splitHtml(POLICY, { size: 350, overlap: 0, unit: charsUnit, maxDepth: 3 });

  it('no tags, no head, entities decoded; paragraphs on lines of their own; text === the source span', () => {
    for (const s of spans) {
      expect(s.content).toBeDefined();
      expect(s.content).not.toMatch(/<\/?(p|h\d|section|table|tr|td|th|pre|caption|body|html)\b/);
      expect(s.content).not.toMatch(/Travel &amp; Expense|not a heading|color: navy|charset/);
    }
    const first = spans[0]!;
    expect(first.content!.startsWith('Travel Policy\n\nThis policy applies to every employee')).toBe(true);
    expect(spans.some((s) => s.content!.includes('meals and incidentals — not lodging'))).toBe(true);
  });

  it('table row groups: the header row as "City | Per diem | Lodging cap", then one line per row', () => {
    const groups = spans.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    for (const [i, g] of groups.entries()) {
      expect(g.content!.startsWith('City | Per diem | Lodging cap\n')).toBe(true);
      if (i > 0) expect(g.prefix).toBe('City | Per diem | Lodging cap\n');
    }
    expect(groups.map((g) => g.content).join('\n')).toContain('Tokyo | ¥18,000 | ¥30,000');
  });

  it('<pre> keeps its lines and blank line', () => {
    expect(spans.some((s) => s.content!.includes('DATE       CITY     AMOUNT\n2026-03-01 Paris    120.00\n\n2026-03-02'))).toBe(true);
  });
});

describe('splitHtml sizes and fallbacks', () => {
  it('a small table stays whole with its caption: contentType table, no injected header', () => {
    const text = '<h2>Rates</h2>\n<p>Intro.</p>\n<table><caption>Rates</caption><tr><th>a</th></tr><tr><td>1</td></tr></table>\n<p>After.</p>';
    const spans = splitHtml(text, { size: 90, overlap: 0, unit: charsUnit, rawHtml: true });
    const table = spans.find((s) => s.contentType === 'table')!;
    expect(text.slice(table.start, table.end)).toBe('<table><caption>Rates</caption><tr><th>a</th></tr><tr><td>1</td></tr></table>');
    expect(table.caption).toBe('Rates');
    expect(table.content).toBeUndefined();
  });

  it('an oversize section is packed at block boundaries, never inside a tag', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `<p class="para number-${i}" data-x="a b c">Paragraph ${i} has a few words in it.</p>`);
    const text = `<h1>Long</h1>\n<div>\n${paragraphs.join('\n')}\n</div>`;
    const spans = splitHtml(text, { size: 200, overlap: 0, unit: charsUnit });
    expect(spans.length).toBeGreaterThan(3);
    for (const s of spans) {
      expect(s.end - s.start).toBeLessThanOrEqual(200);
      const t = text.slice(s.start, s.end);
      // Starts and ends at a tag boundary: no cut inside <p ...> nor inside a paragraph (each fits).
      expect(t.startsWith('<')).toBe(true);
      expect(t.endsWith('>')).toBe(true);
      expect(s.headingPath).toEqual(['Long']);
    }
  });

  it('a <pre> larger than the size is cut at lines; its pieces are code', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} of the listing`);
    const text = `<h2>Listing</h2><pre>${lines.join('\n')}</pre>`;
    const spans = splitHtml(text, { size: 120, overlap: 0, unit: charsUnit });
    const code = spans.filter((s) => s.contentType === 'code');
    expect(code.length).toBeGreaterThan(3);
    for (const s of code.slice(1)) expect(text[s.start - 1]).toBe('\n');
  });

  it('overlap carries whole blocks between chunks of an oversize section', () => {
    const text = `<h1>T</h1>${Array.from({ length: 10 }, (_, i) => `<p>p${i} alpha beta</p>`).join('')}`;
    const spans = splitHtml(text, { size: 60, overlap: 25, unit: charsUnit });
    const shared = spans.slice(1).filter((s, i) => s.start < spans[i]!.end);
    expect(shared.length).toBeGreaterThan(0);
    for (let i = 1; i < spans.length; i++) expect(Math.max(0, spans[i - 1]!.end - spans[i]!.start)).toBeLessThanOrEqual(25);
  });

  it('tiny sibling sections merge; a deeper heading below maxDepth stays inside its section', () => {
    const text = '<h2>A</h2><p>a</p><h2>B</h2><p>b</p><h2>C</h2><p>c</p><h4>deep</h4><p>d</p>';
    const spans = splitHtml(text, { size: 200, overlap: 0, unit: charsUnit, maxDepth: 3 });
    expect(spans).toHaveLength(1);
    expect(spans[0]!.headingPath).toEqual(['A']);
    const split = splitHtml(text, { size: 40, overlap: 0, unit: charsUnit, maxDepth: 3 });
    expect(split.map((s) => s.headingPath.join('>'))).toEqual(['A', 'B', 'C']);
  });

  it('rowsAsText: "column: value" lines for a whole table and for row groups', () => {
    const rows = Array.from({ length: 8 }, (_, i) => `<tr><td>City ${i}</td><td>${100 + i}</td></tr>`).join('\n');
    const text = `<h2>Rates</h2>\n<table><caption>Per diem</caption>\n<tr><th>City</th><th>Rate</th></tr>\n${rows}\n</table>`;
    const whole = splitHtml(text, { size: 2000, overlap: 0, unit: charsUnit, rowsAsText: true });
    expect(whole).toHaveLength(1);
    const grouped = splitHtml(text, { size: 120, overlap: 0, unit: charsUnit, rowsAsText: true });
    const groups = grouped.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    expect(groups[0]!.content!.startsWith('City: City 0\nRate: 100\n\nCity: City 1\nRate: 101')).toBe(true);
    for (const g of groups) for (const line of g.content!.split('\n')) if (line) expect(line).toMatch(/^(City|Rate): /);
    const table = splitHtml(`<p>x</p><table><caption>Per diem</caption><tr><th>City</th></tr><tr><td>Oslo</td></tr></table>`, {
      size: 90, overlap: 0, unit: charsUnit, rowsAsText: true,
    }).find((s) => s.contentType === 'table')!;
    expect(table.content).toBe('Per diem\n\nCity: Oslo');
  });

  it('a title row above the header row: every group starts with the header row, said once', () => {
    const rows = Array.from({ length: 8 }, (_, i) => `<tr><td>city ${i}</td><td>${i}</td></tr>`).join('\n');
    const text = `<table>\n<tr><td colspan="2">Rates 2026</td></tr>\n<tr><th>City</th><th>Rate</th></tr>\n${rows}\n</table>`;
    const groups = splitHtml(text, { size: 150, overlap: 0, unit: charsUnit, rawHtml: true });
    expect(groups.length).toBeGreaterThan(2);
    const header = '<tr><th>City</th><th>Rate</th></tr>';
    for (const g of groups) {
      expect(g.content!.startsWith(header + '\n')).toBe(true);
      expect(g.content!.split(header)).toHaveLength(2);
    }
    expect(groups[0]!.content).toContain('Rates 2026');
    expect(groups[0]!.prefix).toBeUndefined();
  });

  it('CRLF documents: the repeated header keeps the source line break', () => {
    const rows = Array.from({ length: 6 }, (_, i) => `<tr><td>row ${i}</td></tr>`).join('\r\n');
    const text = `<table>\r\n<tr><th>h</th></tr>\r\n${rows}\r\n</table>`;
    const groups = splitHtml(text, { size: 60, overlap: 0, unit: charsUnit, rawHtml: true });
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups.slice(1)) expect(g.prefix).toBe('<tr><th>h</th></tr>\r\n');
  });

  it('words unit and an abort signal', () => {
    const spans = splitHtml(POLICY, { size: 40, overlap: 0, unit: wordsUnit });
    for (const s of spans) if (!s.oversize) expect(wordsUnit.count(s.content ?? POLICY.slice(s.start, s.end))).toBeLessThanOrEqual(40);
    expect(() => splitHtml(POLICY, { size: 40, overlap: 0, unit: charsUnit, signal: { aborted: true } })).toThrow(/aborted/);
  });

  it('empty and text-only documents', () => {
    expect(splitHtml('', { size: 10, overlap: 0, unit: charsUnit })).toEqual([]);
    const spans = splitHtml('just text, no tags at all', { size: 10, overlap: 0, unit: charsUnit });
    expect(spans.map((s) => s.headingPath)).toEqual(spans.map(() => []));
  });
});

describe('html strategy', () => {
  const options = { strategy: 'html', size: 500, overlap: 0, unit: 'chars', compat: 'none' } as ResolvedOptions;
  const ctx: ChunkContext = { unit: charsUnit, options };

  it('structure(): sections at headingDepth covering the document without gaps, title from <title>', async () => {
    const structure = await htmlStrategy.structure!(POLICY, { ...ctx, options: { ...options, headingDepth: 2 } });
    expect(structure.title).toBe('Travel & Expense Policy');
    expect(structure.sections[0]!.start).toBe(0);
    expect(structure.sections[structure.sections.length - 1]!.end).toBe(POLICY.length);
    for (let i = 1; i < structure.sections.length; i++) expect(structure.sections[i]!.start).toBe(structure.sections[i - 1]!.end);
    expect(structure.sections.map((s) => s.headingPath.join(' > '))).toEqual([
      '', 'Travel Policy', 'Travel Policy > 1. Booking', 'Travel Policy > 5. International travel',
    ]);
    expect(structure.headingPathAt(POLICY.indexOf('Lima'))).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
    // Without <title>, the first h1.
    expect(htmlStructure('<p>x</p><h1>First</h1><h1>Second</h1>').title).toBe('First');
  });

  it('split() reads headingDepth and rowsAsText with defaults 3 and false', async () => {
    const spans = (await htmlStrategy.split(POLICY, ctx)) as StructureSpan[];
    expect(spans).toEqual(splitHtml(POLICY, { size: 500, overlap: 0, unit: charsUnit, maxDepth: 3, rowsAsText: false }));
    const shallow = (await htmlStrategy.split(POLICY, { ...ctx, options: { ...options, headingDepth: 1, size: 5000 } })) as StructureSpan[];
    // The text before the first heading is <head> and wrapper tags: no chunk of its own.
    expect(shallow.map((s) => s.headingPath)).toEqual([['Travel Policy']]);
  });
});

describe('chunk() with strategy html', () => {
  it('gives exact chunks with breadcrumbs, content types, caption and the injected header as metadata', async () => {
    const { chunk } = await import('../index');
    const chunks = await chunk(POLICY, { strategy: 'html', size: 350, headingDepth: 3 });
    for (const c of chunks) {
      expect(c.text).toBe(POLICY.slice(c.start, c.end));
      expect(Array.isArray(c.metadata.headingPath)).toBe(true);
      // Content is text (tags out); an injected table header comes first.
      if (c.metadata.prefix) expect(c.content.startsWith(c.metadata.prefix)).toBe(true);
      expect(/<(p|td|th|tr|h\d|section|table)\b/.test(c.content)).toBe(false);
    }
    const groups = chunks.filter((c) => c.metadata.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.every((g) => g.metadata.caption === 'Table 5: Per diem rates & lodging caps')).toBe(true);
    expect(chunks.find((c) => c.text.includes('<pre>'))?.text.includes('</pre>')).toBe(true);
  });
});

describe('a 1 MiB HTML document built from the shared corpus', () => {
  it.skipIf(!HAVE_SHARED_CORPUS)(`splits with exact spans, full coverage and breadcrumbs equal to the generated ancestry ${NEEDS_SHARED_CORPUS}`, () => {
    const corpus = readSharedCorpus();
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const paragraphs = corpus.split(/\n\s*\n/).filter((p) => p.trim());
    const parts: string[] = [];
    const headings: { start: number; path: string[] }[] = [];
    let length = 0;
    const push = (s: string) => {
      parts.push(s, '\n');
      length += s.length + 1;
    };
    let h2 = '';
    for (let i = 0; length < 1_048_576; i++) {
      const p = paragraphs[i % paragraphs.length]!;
      if (i % 40 === 0) {
        h2 = `Part ${i / 40}`;
        headings.push({ start: length, path: [h2] });
        push(`<h2>${h2}</h2>`);
      }
      if (i % 8 === 0) {
        const title = p.slice(0, 30).replace(/\s+/g, ' ').trim();
        headings.push({ start: length, path: [h2, title] });
        push(`<section><h3>${escape(p.slice(0, 30))}</h3>`);
      }
      if (i % 50 === 25) {
        const rows = Array.from({ length: 30 }, (_, r) => `<tr><td>${r}</td><td>${escape(p.slice(r, r + 20))}</td></tr>`).join('\n');
        push(`<table><caption>Table ${i}</caption><thead><tr><th>n</th><th>text</th></tr></thead><tbody>\n${rows}\n</tbody></table>`);
      } else if (i % 13 === 5) push(`<pre>${escape(p)}</pre>`);
      else push(`<p>${escape(p)}</p>`);
      if (i % 8 === 7) push('</section>');
    }
    const text = parts.join('');
    const spans = splitHtml(text, { size: 1000, overlap: 0, unit: charsUnit, rawHtml: true });
    const covered = new Uint8Array(text.length);
    let previousEnd = 0;
    let h = -1;
    for (const s of spans) {
      expect(s.start).toBeGreaterThanOrEqual(previousEnd);
      previousEnd = s.end;
      covered.fill(1, s.start, s.end);
      while (h + 1 < headings.length && headings[h + 1]!.start <= s.start) h++;
      expect(s.headingPath).toEqual(h < 0 ? [] : headings[h]!.path);
      if (s.prefix !== undefined) expect(s.content).toBe(s.prefix + text.slice(s.start, s.end));
      if (!s.oversize) expect((s.content ?? text.slice(s.start, s.end)).length).toBeLessThanOrEqual(1000);
    }
    for (let i = 0; i < text.length; i++) if (covered[i] === 0 && !/\s/.test(text[i]!)) throw new Error(`offset ${i} is in no chunk`);
    expect(spans.filter((s) => s.contentType === 'table').length).toBeGreaterThan(0);
  });
});

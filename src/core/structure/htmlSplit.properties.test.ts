import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsUnit } from '../units';
import { wordsUnit } from '../units/words';
import { splitHtml } from './htmlSplit';

/**
 * Generated HTML documents whose structure is known from the generator (not from the parser): headings with their
 * depth and decoded title, paragraphs (some inside <div>s) with entities, emoji and CJK, <pre> blocks holding blank
 * lines and escaped tags, tables (caption, <thead> or not), and heading-like text in comments, <script> and <style>.
 */

type Block =
  | { kind: 'heading'; depth: number; words: Word[]; wrapped: boolean }
  | { kind: 'para'; words: Word[]; div: boolean }
  | { kind: 'pre'; lines: string[] }
  | { kind: 'table'; caption: Word[] | null; thead: boolean; titleRow: boolean; columns: string[]; rows: Word[][][] }
  | { kind: 'noise'; html: string };

/** An inline tag with spaces inside: a cut there would split markup. */
const LINK_TAG = '<a href="#x y" title="t u">';

/** A word as written in the source and as decoded. */
type Word = readonly [source: string, decoded: string];

const word: fc.Arbitrary<Word> = fc.constantFrom<Word>(
  ['alpha', 'alpha'], ['beta', 'beta'], ['per', 'per'], ['diem', 'diem'], ['😀', '😀'], ['日本語', '日本語'], ['Ünïcode', 'Ünïcode'],
  ['&amp;', '&'], ['&lt;h2&gt;', '<h2>'], ['caf&eacute;', 'café'], ['&#x1F1EB;&#x1F1F7;', '🇫🇷'], ['x', 'x'],
  [LINK_TAG + 'link</a>', 'link'], ['<b>bold</b>', 'bold'],
);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });
const src = (ws: readonly Word[]) => ws.map((w) => w[0]).join(' ');
const decoded = (ws: readonly Word[]) => ws.map((w) => w[1]).join(' ');

const block: fc.Arbitrary<Block> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('heading' as const), depth: fc.integer({ min: 1, max: 4 }), words: words(1, 3), wrapped: fc.boolean() }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('para' as const), words: words(1, 30), div: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pre' as const),
      lines: fc.array(fc.oneof(words(0, 6).map(src), fc.constant('&lt;h1&gt;not a heading&lt;/h1&gt;'), fc.constant('')), { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 1, max: 3 }).chain((n) =>
      fc.record({
        kind: fc.constant('table' as const),
        caption: fc.option(words(1, 3), { nil: null }),
        thead: fc.boolean(),
        titleRow: fc.boolean(),
        columns: fc.array(fc.constantFrom('name', 'rate', 'city', '値'), { minLength: n, maxLength: n }),
        rows: fc.array(fc.array(words(1, 2), { minLength: n, maxLength: n }), { minLength: 1, maxLength: 8 }),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<!-- <h1>commented out</h1> -->',
      '<script>document.write("<h2>scripted</h2>");</script>',
      '<style>h1::after { content: "<h3>" }</style>',
      '<hr>',
    ).map((html) => ({ kind: 'noise' as const, html })),
  },
);

interface Truth {
  text: string;
  headings: { start: number; depth: number; title: string }[];
  pres: { start: number; end: number }[];
  tables: { start: number; end: number; headerRow: string }[];
  tags: { start: number; end: number }[];
}

function render(blocks: Block[], separator: string): Truth {
  let text = '';
  const truth: Truth = { text: '', headings: [], pres: [], tables: [], tags: [] };
  let openSections = 0;
  for (const b of blocks) {
    if (text) text += separator;
    const start = text.length;
    if (b.kind === 'heading') {
      // A heading wrapped in <section>: its section (and its breadcrumb) starts at the wrapper's opening tag.
      truth.headings.push({ start, depth: b.depth, title: decoded(b.words) });
      if (b.wrapped) {
        text += `<section class="s">${separator}`;
        openSections++;
      }
      text += `<h${b.depth}>${src(b.words)}</h${b.depth}>`;
    } else if (b.kind === 'para') {
      text += b.div ? `<div class="a b">${separator}<p>${src(b.words)}</p>${separator}</div>` : `<p>${src(b.words)}</p>`;
    } else if (b.kind === 'pre') {
      text += `<pre>${b.lines.join(separator)}</pre>`;
      truth.pres.push({ start, end: text.length });
    } else if (b.kind === 'table') {
      const tr = (tag: string, cells: string[]) => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
      const headerRow = tr('th', b.columns);
      const caption = b.caption ? `<caption>${src(b.caption)}</caption>${separator}` : '';
      // Without <thead>, the header is the first row with <th> cells, also below a title row of <td>s.
      const title = b.titleRow ? `<tr><td colspan="${b.columns.length}">title row</td></tr>${separator}` : '';
      const head = b.thead ? `<thead>${headerRow}</thead>${separator}<tbody>` : title + headerRow;
      const body = b.rows.map((r) => tr('td', r.map(src))).join(separator);
      text += `<table>${separator}${caption}${head}${separator}${body}${separator}${b.thead ? '</tbody>' : ''}</table>`;
      truth.tables.push({ start, end: text.length, headerRow });
    } else {
      text += b.html;
    }
  }
  text += '</section>'.repeat(openSections);
  truth.text = text;
  for (let at = text.indexOf(LINK_TAG); at >= 0; at = text.indexOf(LINK_TAG, at + 1)) truth.tags.push({ start: at, end: at + LINK_TAG.length });
  return truth;
}

function ancestry(truth: Truth, offset: number): string[] {
  const stack: { depth: number; title: string }[] = [];
  for (const h of truth.headings) {
    if (h.start > offset) break;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

const params = fc.record({
  size: fc.integer({ min: 30, max: 500 }),
  overlapFraction: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.3, noNaN: true })),
  maxDepth: fc.integer({ min: 1, max: 6 }),
  words: fc.boolean(),
  separator: fc.constantFrom('\n', '\r\n', '', '\n\n'),
  rowsAsText: fc.boolean(),
  rawHtml: fc.boolean(),
});

describe('splitHtml properties', () => {
  it('offsets, order, coverage, breadcrumbs, <pre>/<table> kept whole, table headers, prefix', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 14 }), params, (blocks, p) => {
        const truth = render(blocks, p.separator);
        const { text } = truth;
        const unit = p.words ? wordsUnit : charsUnit;
        const size = p.words ? Math.max(3, Math.floor(p.size / 6)) : p.size;
        const overlap = Math.floor(size * p.overlapFraction);
        const spans = splitHtml(text, { size, overlap, unit, maxDepth: p.maxDepth, rowsAsText: p.rowsAsText, rawHtml: p.rawHtml });
        // <script> and <style> are never chunked; without rawHtml, neither is markup alone (tags, comments).
        const ignored = [...text.matchAll(/<(script|style)>[\s\S]*?<\/\1>/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
        const markup = [...text.matchAll(/<!--[\s\S]*?-->|<[^>]*>/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
        const inAny = (ranges: { start: number; end: number }[], i: number) => ranges.some((r) => r.start <= i && i < r.end);

        const covered = new Uint8Array(text.length);
        let previous: { start: number; end: number } | null = null;
        for (const s of spans) {
          const own = text.slice(s.start, s.end);
          // Exact, non-empty, trimmed source spans, in order; without overlap they do not overlap at all.
          expect(0 <= s.start && s.start < s.end && s.end <= text.length).toBe(true);
          expect(own.trim()).toBe(own);
          if (previous) {
            expect(s.start).toBeGreaterThan(previous.start);
            expect(s.end).toBeGreaterThan(previous.end);
            if (overlap === 0) expect(s.start).toBeGreaterThanOrEqual(previous.end);
            else if (s.start < previous.end) expect(unit.count(text.slice(s.start, previous.end))).toBeLessThanOrEqual(overlap);
          }
          previous = s;
          covered.fill(1, s.start, s.end);

          // headingPath is the real ancestry at the first non-blank character.
          expect(s.headingPath).toEqual(ancestry(truth, s.start));

          // No boundary inside a <pre> (or, without rowsAsText, a <table>) or a tag that fits on its own.
          const atomic = [...truth.pres, ...(p.rowsAsText ? [] : truth.tables), ...truth.tags];
          for (const r of atomic) {
            if (unit.count(text.slice(r.start, r.end)) > size) continue;
            for (const b of [s.start, s.end]) expect(r.start < b && b < r.end, `cut at ${b} inside ${r.start}-${r.end}`).toBe(false);
          }

          // Injected text: content is the prefix followed by the source span (its text without rawHtml).
          if (s.prefix !== undefined) {
            if (p.rawHtml || p.rowsAsText) expect(s.content).toBe(s.prefix + own);
            else expect(s.content!.startsWith(s.prefix)).toBe(true);
          }
          for (const r of ignored) expect(s.start < r.end && r.start < s.end, 'a chunk holds a script or style').toBe(false);
          // Without rawHtml, content is text: no tag of the document is left in it.
          if (!p.rawHtml && !(p.rowsAsText && s.contentType === 'table')) {
            expect(s.content).toBeDefined();
            for (const tag of ['<p>', '<div', '<table', '<tr>', '<td>', '<th>', '<b>', '<pre>', '<section', '<caption>', LINK_TAG]) expect(s.content!.includes(tag), tag).toBe(false);
          }

          // Table chunks' content starts with the table's header row (row groups), or is the whole table.
          if (s.contentType === 'table') {
            const t = truth.tables.find((t) => t.start <= s.start && s.end <= t.end);
            expect(t).toBeDefined();
            if (p.rowsAsText) {
              for (const line of (s.content ?? '').split('\n')) if (line && s.start !== t!.start) expect(line).toMatch(/^[^:]+: /);
            } else if (!p.rawHtml) {
              // The header row's text first (cells joined by " | "), said once in a row group.
              const header = [...t!.headerRow.matchAll(/<th>([\s\S]*?)<\/th>/g)].map((m) => m[1]).join(' | ');
              if (s.start !== t!.start || s.content !== undefined) expect(s.content!.includes(header)).toBe(true);
            } else if (s.content !== undefined) {
              expect(s.content.startsWith(t!.headerRow)).toBe(true);
              expect(s.content.indexOf(t!.headerRow, 1)).toBe(-1);
              // A row group after the first gets the header row injected: content = prefix + its own text.
              if (s.start !== t!.start) expect(s.prefix?.startsWith(t!.headerRow)).toBe(true);
            } else {
              expect(s.start === t!.start && s.end === t!.end).toBe(true);
            }
          }
          if (!s.oversize) expect(unit.count(s.content ?? own)).toBeLessThanOrEqual(size);
        }
        // Every non-whitespace character is in some chunk, but script and style (and, without rawHtml, markup alone).
        for (let i = 0; i < text.length; i++) {
          if (!/\s/.test(text[i]!) && !inAny(ignored, i) && (p.rawHtml || !inAny(markup, i))) expect(covered[i], `offset ${i}`).toBe(1);
        }
        // Every heading of depth <= maxDepth starts a chunk unless its section merged into a sibling's chunk.
        for (const h of truth.headings) expect(spans.some((s) => s.start <= h.start && h.start < s.end)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

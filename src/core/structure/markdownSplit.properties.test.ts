import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsUnit } from '../units';
import { wordsUnit } from '../units/words';
import { splitLangchainMarkdownHeaders } from './langchainMarkdownHeader';
import { splitLlamaindexMarkdown } from './llamaindexMarkdown';
import { splitMarkdown } from './markdownSplit';

/**
 * Generated markdown documents whose structure is known from the generator (not from the parser): headings with
 * their depth and title, fenced code blocks (holding "#" lines and blank lines), pipe tables (some with a
 * caption), paragraphs with emoji and CJK.
 */

type Block =
  | { kind: 'heading'; depth: number; title: string }
  | { kind: 'para'; text: string }
  | { kind: 'code'; lines: string[]; inList: boolean }
  | { kind: 'table'; caption: string | null; columns: string[]; rows: string[][]; html: boolean };

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '😀', '日本語', 'Ünïcode', 'x', 'per', 'diem', '🇫🇷');
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));

const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('heading' as const), depth: fc.integer({ min: 1, max: 4 }), title: words(1, 3) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('para' as const), text: words(1, 30) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('code' as const),
      lines: fc.array(fc.oneof(words(0, 6), fc.constant('# not a heading'), fc.constant('')), { minLength: 1, maxLength: 8 }),
      inList: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 1, max: 3 }).chain((n) =>
      fc.record({
        kind: fc.constant('table' as const),
        caption: fc.option(words(1, 3).map((w) => `Table 1: ${w}`), { nil: null }),
        columns: fc.array(fc.constantFrom('name', 'rate', 'city', '値'), { minLength: n, maxLength: n }),
        rows: fc.array(fc.array(words(1, 2), { minLength: n, maxLength: n }), { minLength: 1, maxLength: 8 }),
        html: fc.boolean(),
      }),
    ),
  },
);

interface Truth {
  text: string;
  headings: { start: number; depth: number; title: string }[];
  fences: { start: number; end: number }[];
  tables: { start: number; headerRow: string; captionStart: number | null; end: number; html: boolean }[];
}

function render(blocks: Block[]): Truth {
  let text = '';
  const truth: Truth = { text: '', headings: [], fences: [], tables: [] };
  for (const b of blocks) {
    if (text) text += '\n\n';
    const start = text.length;
    if (b.kind === 'heading') {
      truth.headings.push({ start, depth: b.depth, title: b.title });
      text += `${'#'.repeat(b.depth)} ${b.title}`;
    } else if (b.kind === 'para') {
      text += b.text;
    } else if (b.kind === 'code') {
      if (b.inList) {
        // A fence inside a list item, indented under it.
        text += '- item\n\n  ';
        const fenceStart = text.length;
        text += '```\n' + b.lines.map((l) => (l ? `  ${l}` : l)).join('\n') + '\n  ```';
        truth.fences.push({ start: fenceStart, end: text.length });
      } else {
        text += '```\n' + b.lines.join('\n') + '\n```';
        truth.fences.push({ start, end: text.length });
      }
    } else if (b.html) {
      const tr = (tag: string, cells: string[]) => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
      const headerRow = tr('th', b.columns);
      const caption = b.caption ? `<caption>${b.caption}</caption>\n` : '';
      text += `<table>\n${caption}${headerRow}\n${b.rows.map((r) => tr('td', r)).join('\n')}\n</table>`;
      truth.tables.push({ start, headerRow, captionStart: null, end: text.length, html: true });
    } else {
      let captionStart: number | null = null;
      if (b.caption) {
        captionStart = start;
        text += `${b.caption}\n\n`;
      }
      const tableStart = text.length;
      const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
      const headerRow = row(b.columns);
      text += [headerRow, row(b.columns.map(() => '---')), ...b.rows.map(row)].join('\n');
      truth.tables.push({ start: tableStart, headerRow, captionStart, end: text.length, html: false });
    }
  }
  truth.text = text;
  return truth;
}

/** The same document with CRLF line ends, offsets moved accordingly. */
function withCrlf(truth: Truth): Truth {
  const before = new Int32Array(truth.text.length + 1);
  for (let i = 0, n = 0; i <= truth.text.length; i++) {
    before[i] = n;
    if (truth.text[i] === '\n') n++;
  }
  const at = (o: number) => o + before[o]!;
  return {
    text: truth.text.replace(/\n/g, '\r\n'),
    headings: truth.headings.map((h) => ({ ...h, start: at(h.start) })),
    fences: truth.fences.map((f) => ({ start: at(f.start), end: at(f.end) })),
    tables: truth.tables.map((t) => ({ ...t, start: at(t.start), end: at(t.end), captionStart: t.captionStart === null ? null : at(t.captionStart) })),
  };
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
  size: fc.integer({ min: 20, max: 400 }),
  overlapFraction: fc.double({ min: 0, max: 0.3, noNaN: true }),
  maxDepth: fc.integer({ min: 1, max: 6 }),
  words: fc.boolean(),
  crlf: fc.boolean(),
  rowsAsText: fc.boolean(),
});

describe('splitMarkdown properties', () => {
  it('offsets, order, coverage, breadcrumbs, fences and table headers', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 14 }), params, (blocks, p) => {
        const truth = p.crlf ? withCrlf(render(blocks)) : render(blocks);
        const { text } = truth;
        const unit = p.words ? wordsUnit : charsUnit;
        const size = p.words ? Math.max(3, Math.floor(p.size / 6)) : p.size;
        const overlap = Math.floor(size * p.overlapFraction);
        const spans = splitMarkdown(text, { size, overlap, unit, maxDepth: p.maxDepth, rowsAsText: p.rowsAsText });

        const covered = new Uint8Array(text.length);
        let previous: { start: number; end: number } | null = null;
        for (const s of spans) {
          // Overlap, measured on the offsets, never exceeds the setting.
          if (previous && s.start < previous.end) expect(unit.count(text.slice(s.start, previous.end))).toBeLessThanOrEqual(overlap);
          // Exact, non-empty, trimmed source spans, in order.
          expect(0 <= s.start && s.start < s.end && s.end <= text.length).toBe(true);
          expect(text.slice(s.start, s.end).trim()).toBe(text.slice(s.start, s.end));
          if (previous) {
            expect(s.start).toBeGreaterThan(previous.start);
            expect(s.end).toBeGreaterThan(previous.end);
          }
          previous = s;
          covered.fill(1, s.start, s.end);

          // headingPath is the real ancestry at the first non-blank character.
          expect(s.headingPath).toEqual(ancestry(truth, s.start));

          // No boundary inside a code fence that fits on its own.
          for (const f of truth.fences) {
            if (unit.count(text.slice(f.start, f.end)) > size) continue;
            for (const b of [s.start, s.end]) expect(f.start < b && b < f.end).toBe(false);
          }

          // Table chunks' content starts with the table's header row (after the caption when the caption is in).
          if (s.contentType === 'table' && p.rowsAsText) {
            expect(s.content).toBeDefined();
            // Row groups serialized as "column: value" lines.
            for (const line of s.content!.split(/\r?\n/)) if (line) expect(line).toMatch(/^[^:]+: /);
          } else if (s.contentType === 'table') {
            const t = truth.tables.find((t) => t.start <= s.end && s.start <= t.end)!;
            const content = s.content ?? text.slice(s.start, s.end);
            const afterCaption = t.captionStart !== null && s.start === t.captionStart ? content.slice(t.start - t.captionStart) : content;
            if (!t.html) expect(afterCaption.startsWith(t.headerRow)).toBe(true);
            // An HTML table kept whole starts with <table>; its row groups start with the header row.
            else if (s.content !== undefined) expect(s.content.startsWith(t.headerRow)).toBe(true);
            else expect(content.indexOf('<tr>')).toBe(content.indexOf(t.headerRow));
          }
          if (!s.oversize) expect(unit.count(s.content ?? text.slice(s.start, s.end))).toBeLessThanOrEqual(size);
        }
        // Every non-whitespace character is in some chunk (native mode drops nothing).
        for (let i = 0; i < text.length; i++) {
          if (!/\s/.test(text[i]!)) expect(covered[i], `offset ${i}`).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('compat splitters properties', () => {
  it('LangChain MarkdownHeaderTextSplitter: spans in order, each holding its content lines; metadata = ancestry', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), fc.boolean(), (blocks, stripHeaders) => {
        const truth = render(blocks);
        const { text } = truth;
        const headersToSplitOn = [1, 2, 3, 4].map((d) => ['#'.repeat(d), `Header ${d}`] as const);
        const docs = splitLangchainMarkdownHeaders(text, { headersToSplitOn, stripHeaders });
        let lastStart = -1;
        for (const d of docs) {
          expect(d.start).toBeGreaterThan(lastStart);
          lastStart = d.start;
          const source = text.slice(d.start, d.end);
          let at = 0;
          for (const line of d.content.split(/ {2}\n|\n/)) {
            const found = source.indexOf(line, at);
            expect(found, line).toBeGreaterThanOrEqual(0);
            at = found + line.length;
          }
          // Metadata values are the titles of the headings in force at the span's start (fences excluded).
          const path = ancestry(truth, d.start);
          const values = Object.values(d.metadata);
          if (stripHeaders) expect(values).toEqual(path);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('LlamaIndex MarkdownNodeParser: exact text spans, header_path = ancestors of the section heading', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), (blocks) => {
        const truth = render(blocks);
        const { text } = truth;
        for (const n of splitLlamaindexMarkdown(text)) {
          expect(text.slice(n.start, n.end)).toBe(n.text);
          // A node starts at its heading (or is the text before the first one): its own title is not listed.
          const ancestors = ancestry(truth, n.start).slice(0, -1);
          expect(n.metadata.header_path).toBe(ancestors.length ? `/${ancestors.join('/')}/` : '/');
        }
      }),
      { numRuns: 200 },
    );
  });
});

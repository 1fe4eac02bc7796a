import { describe, expect, it } from 'vitest';
import { charsUnit } from '../units';
import { wordsUnit } from '../units/words';
import { splitMarkdown } from './markdownSplit';

const opts = (size: number, extra: object = {}) => ({ size, overlap: 0, unit: charsUnit, ...extra });
const texts = (md: string, spans: { start: number; end: number }[]) => spans.map((s) => md.slice(s.start, s.end));

describe('splitMarkdown', () => {
  it('a document that fits is one chunk per section at the chosen depth, with breadcrumbs', () => {
    const md = '# Policy\n\nIntro text here.\n\n## Travel\n\nTravel rules apply.\n\n### Per diem\n\nRates vary.\n\n## Leave\n\nLeave rules.';
    const spans = splitMarkdown(md, opts(100, { maxDepth: 2 }));
    expect(texts(md, spans)).toEqual([
      '# Policy\n\nIntro text here.',
      '## Travel\n\nTravel rules apply.\n\n### Per diem\n\nRates vary.',
      '## Leave\n\nLeave rules.',
    ]);
    expect(spans.map((s) => s.headingPath)).toEqual([['Policy'], ['Policy', 'Travel'], ['Policy', 'Leave']]);
  });

  it('tiny sections merge with the next sibling when the two fit', () => {
    const md = '# A\n\nx\n\n# B\n\ny\n\n# C\n\n' + 'z'.repeat(30);
    // size 40: "# A\n\nx" (6) < 10 merges with B; "# A..y" (14) is no longer tiny, C stands alone.
    expect(texts(md, splitMarkdown(md, opts(40)))).toEqual(['# A\n\nx\n\n# B\n\ny', '# C\n\n' + 'z'.repeat(30)]);
  });

  it('a tiny section merges only with a sibling; a heading with no body joins the next section', () => {
    const md = '# A\n\nintro\n\n## A1\n\nx\n\n# B\n\n## B1\n\ny';
    const spans = splitMarkdown(md, opts(200));
    expect(texts(md, spans)).toEqual(['# A\n\nintro', '## A1\n\nx', '# B\n\n## B1\n\ny']);
    expect(spans.map((s) => s.headingPath)).toEqual([['A'], ['A', 'A1'], ['B']]);
  });

  it('an oversize section falls back to packing its blocks; a code fence that fits stays whole', () => {
    const code = '```js\nconst a = 1;\n\nconst b = 2;\n```';
    const md = `# T\n\n${'word '.repeat(8).trim()}\n\n${code}\n\n${'more '.repeat(8).trim()}`;
    const spans = splitMarkdown(md, opts(45));
    expect(texts(md, spans)).toContain(code);
    expect(spans.find((s) => md.slice(s.start, s.end) === code)!.contentType).toBe('code');
    for (const s of spans) expect(s.headingPath).toEqual(['T']);
  });

  it('a code fence larger than the size is cut inside (and only then)', () => {
    const code = '```\n' + Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') + '\n```';
    const md = `# T\n\n${code}`;
    const spans = splitMarkdown(md, opts(30));
    expect(spans.length).toBeGreaterThan(2);
    for (const s of spans) expect(s.end - s.start).toBeLessThanOrEqual(30);
    // The pieces after the heading are all inside the fence: code.
    expect(spans.filter((s) => s.start >= md.indexOf('```')).every((s) => s.contentType === 'code')).toBe(true);
  });

  it('a small table stays whole with its caption', () => {
    const md = '# T\n\n' + 'filler text. '.repeat(6).trim() + '\n\nTable 1: Rates\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n' + 'after text '.repeat(5).trim();
    const spans = splitMarkdown(md, opts(60));
    const table = spans.find((s) => s.contentType === 'table');
    expect(table).toBeDefined();
    expect(md.slice(table!.start, table!.end)).toBe('Table 1: Rates\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(table!.caption).toBe('Table 1: Rates');
  });

  it('a large table becomes row groups whose content repeats the header and delimiter rows', () => {
    const rows = Array.from({ length: 6 }, (_, i) => `| r${i} | ${i * 10} |`);
    const md = `## Rates\n\n| key | value |\n|-----|-------|\n${rows.join('\n')}\n`;
    const spans = splitMarkdown(md, opts(50));
    const groups = spans.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups) {
      expect(g.content!.startsWith('| key | value |\n|-----|-------|\n')).toBe(true);
      expect(g.content!.length).toBeLessThanOrEqual(50);
      expect(g.headingPath).toEqual(['Rates']);
    }
    // Every row is in exactly one group's content, in order.
    const rowsSeen = groups.flatMap((g) => g.content!.split('\n').slice(2));
    expect(rowsSeen).toEqual(rows);
    // Spans are the rows' source range (the first also covers the header rows).
    expect(md.slice(groups[1]!.start, groups[1]!.end).startsWith('| r')).toBe(true);
    expect(md.slice(groups[0]!.start, groups[0]!.end).startsWith('| key |')).toBe(true);
  });

  it('rowsAsText serializes each row as "column: value" lines', () => {
    const md = '| City | Rate |\n|---|---|\n| Paris | 120 |\n| Rome | 100 |\n| Oslo | 140 |';
    const spans = splitMarkdown(md, opts(45, { rowsAsText: true }));
    expect(spans.map((s) => s.content)).toEqual(['City: Paris\nRate: 120\n\nCity: Rome\nRate: 100', 'City: Oslo\nRate: 140']);
  });

  it('text before the first heading has an empty heading path', () => {
    const md = 'Preamble words.\n\n# First\n\nBody.';
    const spans = splitMarkdown(md, opts(18));
    expect(spans[0]!.headingPath).toEqual([]);
    expect(spans[spans.length - 1]!.headingPath).toEqual(['First']);
  });
});

describe('splitMarkdown with a token unit', () => {
  it('sizes sections and table groups in tokens', async () => {
    const { getUnit } = await import('../units');
    const unit = await getUnit('cl100k_base');
    const rows = Array.from({ length: 12 }, (_, i) => `| item ${i} | ${i * 3} euros |`);
    const md = `# Costs\n\n${'The traveller pays the fare in advance. '.repeat(6)}\n\n| item | cost |\n|---|---|\n${rows.join('\n')}`;
    const spans = splitMarkdown(md, { size: 40, overlap: 5, unit });
    expect(spans.length).toBeGreaterThan(2);
    for (const s of spans) {
      expect(s.oversize ?? false).toBe(false);
      expect(unit.count(s.content ?? md.slice(s.start, s.end))).toBeLessThanOrEqual(40);
      expect(s.headingPath).toEqual(['Costs']);
    }
    expect(spans.filter((s) => s.contentType === 'table').every((s) => s.content!.startsWith('| item | cost |\n|---|---|\n'))).toBe(true);
  });
});

describe('splitMarkdown with HTML tables', () => {
  const rows = Array.from({ length: 6 }, (_, i) => `<tr><td>r${i}</td><td>${i}</td></tr>`);
  const md = `# Rates\n\n<table>\n<caption>Per diem</caption>\n<tr><th>city</th><th>rate</th></tr>\n${rows.join('\n')}\n</table>\n\nafter`;

  it('a large HTML table becomes row groups repeating the header row; the caption is carried along', () => {
    const spans = splitMarkdown(md, opts(90));
    const groups = spans.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups) {
      expect(g.content!.startsWith('<tr><th>city</th><th>rate</th></tr>\n<tr><td>r')).toBe(true);
      expect(g.caption).toBe('Per diem');
    }
    // Every row once, in order; the last group (and its content) runs to the table's end.
    expect(groups.flatMap((g) => g.content!.split('\n').slice(1)).filter((l) => l !== '</table>')).toEqual(rows);
    expect(md.slice(groups[groups.length - 1]!.start, groups[groups.length - 1]!.end).endsWith('</table>')).toBe(true);
    // Groups after the first repeat the header as injected text: content = prefix + their own source text.
    for (const g of groups.slice(1)) {
      expect(g.prefix).toBe('<tr><th>city</th><th>rate</th></tr>\n');
      expect(g.content).toBe(g.prefix + md.slice(g.start, g.end));
    }
  });

  it('rowsAsText also applies to a table kept whole, after its caption', () => {
    const small = 'Table 1: Rates\n\n| City | Rate |\n|---|---|\n| Paris | 120 |';
    const [span] = splitMarkdown(small, opts(100, { rowsAsText: true }));
    expect(span!.contentType).toBe('table');
    expect(span!.content).toBe('Table 1: Rates\n\nCity: Paris\nRate: 120');
  });

  it('rowsAsText uses the header cells as column names', () => {
    const spans = splitMarkdown(md, opts(60, { rowsAsText: true }));
    expect(spans.find((s) => s.contentType === 'table')!.content!.startsWith('city: r0\nrate: 0')).toBe(true);
  });

  it('a small HTML table stays whole', () => {
    const small = '# T\n\n<table><tr><th>a</th></tr><tr><td>1</td></tr></table>\n\n' + 'text '.repeat(20).trim();
    const spans = splitMarkdown(small, opts(60));
    const table = '<table><tr><th>a</th></tr><tr><td>1</td></tr></table>';
    expect(spans.some((s) => small.slice(s.start, s.end).includes(table))).toBe(true);
    for (const s of spans) {
      const t = small.indexOf(table);
      expect(t < s.start && s.start < t + table.length).toBe(false);
    }
  });
});

describe('splitMarkdown edge cases', () => {
  it('empty and whitespace-only text give no chunks', () => {
    expect(splitMarkdown('', opts(50))).toEqual([]);
    expect(splitMarkdown(' \n\n\t\n', opts(50))).toEqual([]);
  });

  it('CRLF line ends: headings, sections and table groups keep exact offsets', () => {
    const md = '# A\r\n\r\ntext\r\n\r\n## B\r\n\r\n| k | v |\r\n|---|---|\r\n| 1 | 2 |\r\n| 3 | 4 |\r\n| 5 | 6 |\r\n';
    const spans = splitMarkdown(md, opts(30));
    expect(spans[0]!.headingPath).toEqual(['A']);
    const groups = spans.filter((s) => s.contentType === 'table');
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups) {
      expect(g.content!.startsWith('| k | v |\r\n|---|---|\r\n| ')).toBe(true);
      expect(g.headingPath).toEqual(['A', 'B']);
    }
  });
});

describe('splitMarkdown abort', () => {
  it('throws an AbortError when the signal is set', () => {
    const md = '# A\n\n' + 'words and more words. '.repeat(50);
    expect(() => splitMarkdown(md, { ...opts(40), signal: { aborted: true } })).toThrow(/aborted/);
  });

  it('never moves a cut back into the overlap: each chunk ends after the one before it', () => {
    // fast-check's counterexample: the chunk after "# alpha + table" opened at the table (its overlap); a fragment
    // after it then moved their cut back to the table's end, leaving a chunk inside the one before it.
    const rows = (cells: string[][]) => cells.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
    const md = [
      '# alpha',
      'Table 1: alpha alpha 🇫🇷',
      '| name | name | name |\n| --- | --- | --- |\n| alpha | alpha alpha | alpha alpha |\n| alpha alpha | alpha | alpha |',
      `<table>\n<caption>Table 1: alpha alpha</caption>\n<tr><th>name</th><th>name</th></tr>\n${rows([['alpha', 'alpha'], ['alpha alpha', 'alpha'], ['alpha', 'alpha alpha'], ['alpha', 'alpha']])}\n</table>`,
      'alpha',
      '| name |\n| --- |\n| alpha |',
    ].join('\n\n');
    const spans = splitMarkdown(md, { size: 66, overlap: 16, unit: wordsUnit, maxDepth: 1 });
    expect(spans.length).toBeGreaterThan(1);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]!.start).toBeGreaterThan(spans[i - 1]!.start);
      expect(spans[i]!.end).toBeGreaterThan(spans[i - 1]!.end);
    }
  });

  it('a heading joined with its first words leaves no chunk that is only the next chunk\'s overlap', () => {
    // fast-check's counterexample (chars 38, overlap 3, no fragment joining): the heading and the piece after it were
    // packed again at words, and their tail "日本語" was exactly the overlap the chunk after opens with.
    const md = '# record\n\nstay per record 日本語 a. hotel 日本語 record. record.';
    const spans = splitMarkdown(md, { size: 38, overlap: 3, unit: charsUnit, minFragment: 0 });
    expect(spans.map((s) => md.slice(s.start, s.end))).toEqual(['# record\n\nstay per record 日本語 a. hotel', '日本語 record. record.']);
  });
});

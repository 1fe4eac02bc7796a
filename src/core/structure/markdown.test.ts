import { describe, expect, it } from 'vitest';
import { buildOutline, headingPathAt } from './markdown';

describe('markdown outline', () => {
  it('uses UTF-16 offsets (emoji and CJK before the nodes)', () => {
    const md = '# 😀 Title\n\n日本語の段落。\n\n## 節 🎉\n\nx';
    const outline = buildOutline(md);
    expect(outline.headings.map((h) => md.slice(h.start, h.end))).toEqual(['# 😀 Title', '## 節 🎉']);
    expect(outline.headings.map((h) => h.title)).toEqual(['😀 Title', '節 🎉']);
    expect(md.slice(outline.blocks[1]!.start, outline.blocks[1]!.end)).toBe('日本語の段落。');
  });

  it('sections run to the next heading of the same or a higher level', () => {
    const md = '# A\n\na\n\n## B\n\nb\n\n### C\n\nc\n\n## D\n\nd\n\n# E\n';
    const { headings } = buildOutline(md);
    const sectionText = headings.map((h) => md.slice(h.section.start, h.section.end));
    expect(sectionText).toEqual([
      '# A\n\na\n\n## B\n\nb\n\n### C\n\nc\n\n## D\n\nd\n\n',
      '## B\n\nb\n\n### C\n\nc\n\n',
      '### C\n\nc\n\n',
      '## D\n\nd\n\n',
      '# E\n',
    ]);
  });

  it('headingPathAt gives the ancestors, outermost first, including the title heading', () => {
    const md = '# Travel Policy\n\nintro\n\n## 5. International travel\n\n### 5.3 Per diem\n\nrates\n\n## 6. Other\n\nx';
    const outline = buildOutline(md);
    expect(headingPathAt(outline, md.indexOf('intro'))).toEqual(['Travel Policy']);
    expect(headingPathAt(outline, md.indexOf('rates'))).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
    expect(headingPathAt(outline, md.indexOf('x'))).toEqual(['Travel Policy', '6. Other']);
    expect(headingPathAt(outline, 0)).toEqual(['Travel Policy']);
  });

  it('headings inside code fences are not headings; setext headings are', () => {
    const md = 'Title\n=====\n\n```sh\n# not a heading\n```\n\nSub\n---\n\ntext';
    const outline = buildOutline(md);
    expect(outline.headings.map((h) => [h.depth, h.title])).toEqual([
      [1, 'Title'],
      [2, 'Sub'],
    ]);
    expect(outline.code).toHaveLength(1);
    expect(md.slice(outline.code[0]!.start, outline.code[0]!.end)).toBe('```sh\n# not a heading\n```');
    expect(outline.code[0]!.fenced).toBe(true);
  });

  it('tables: header row, delimiter, rows, cells and a caption line above', () => {
    const md = 'Table 2: Per diem rates\n\n| City | Rate |\n|:-----|-----:|\n| Paris | 120 |\n| 東京 | 150 |\n\nafter';
    const [table] = buildOutline(md).tables;
    expect(table).toBeDefined();
    expect(md.slice(table!.headerRow.start, table!.headerRow.end)).toBe('| City | Rate |');
    expect(table!.headerText).toBe('| City | Rate |\n|:-----|-----:|');
    expect(table!.rows.map((r) => md.slice(r.start, r.end))).toEqual(['| Paris | 120 |', '| 東京 | 150 |']);
    expect(table!.columns).toEqual(['City', 'Rate']);
    expect(table!.cells).toEqual([
      ['Paris', '120'],
      ['東京', '150'],
    ]);
    expect(table!.caption?.text).toBe('Table 2: Per diem rates');
  });

  it('an ordinary paragraph above a table is no caption', () => {
    const md = 'Some words here.\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    expect(buildOutline(md).tables[0]!.caption).toBeUndefined();
  });
});

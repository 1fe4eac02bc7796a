import { describe, expect, it } from 'vitest';
import { policyHandbook } from '../../../ui/samples/policyHandbook';
import { chunk } from '../../index';

const doc = [
  '# Travel Policy',
  '',
  'Applies to everyone.',
  '',
  '## 5. International travel',
  '',
  'Book early. '.repeat(30).trim(),
  '',
  '### 5.3 Per diem',
  '',
  'Table 2: Rates',
  '',
  '| City | Rate |',
  '|---|---|',
  '| Paris | 120 |',
  '| Tokyo | 140 |',
  '',
  '```python',
  'def per_diem(city):',
  '    return RATES[city]',
  '```',
  '',
  '## 6. Expenses',
  '',
  'Submit receipts within 30 days.',
].join('\n');

describe('markdown strategy through chunk()', () => {
  it('gives every chunk its heading path, content type and exact offsets', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', size: 200, overlap: 0 });
    for (const c of chunks) expect(doc.slice(c.start, c.end)).toBe(c.text);
    const at = (needle: string) => chunks.find((c) => c.text.includes(needle))!;
    expect(at('Applies to everyone').metadata.headingPath).toEqual(['Travel Policy']);
    expect(at('Book early').metadata.headingPath).toEqual(['Travel Policy', '5. International travel']);
    expect(at('| Paris').metadata.headingPath).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
    expect(at('Submit receipts').metadata.headingPath).toEqual(['Travel Policy', '6. Expenses']);
    // Ids come from the path and content: editing another section leaves them alone.
    const edited = doc.replace('Applies to everyone.', 'Applies to every employee and contractor.');
    const again = await chunk(edited, { strategy: 'markdown', size: 200, overlap: 0, documentId: 'policy' });
    const before = await chunk(doc, { strategy: 'markdown', size: 200, overlap: 0, documentId: 'policy' });
    const idOf = (cs: typeof before, needle: string) => cs.find((c) => c.text.includes(needle))!.id;
    expect(idOf(again, 'Submit receipts')).toBe(idOf(before, 'Submit receipts'));
    expect(idOf(again, 'Applies to')).not.toBe(idOf(before, 'Applies to'));
  });

  it('a heading depth of 1 keeps the subsections inside their chapter', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', size: 5000, overlap: 0, headingDepth: 1 });
    expect(chunks).toHaveLength(1);
    const deep = await chunk(doc, { strategy: 'markdown', size: 5000, overlap: 0, headingDepth: 3 });
    expect(deep.length).toBeGreaterThan(1);
  });

  it('contextual headers prefix the content with the heading path and count in the size', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', size: 200, overlap: 0, headers: true });
    for (const c of chunks) {
      const path = c.metadata.headingPath!.join(' > ');
      if (path === '') continue;
      expect(c.metadata.prefix).toBe(`${path}\n\n`);
      expect(c.content.startsWith(c.metadata.prefix!)).toBe(true);
      expect(c.metadata.prefixSize).toBe(c.metadata.prefix!.length);
      expect(c.size).toBe(c.content.length);
      if (!c.metadata.oversize) expect(c.size).toBeLessThanOrEqual(200);
    }
    // A template of the user's own, with the file name as the title (the document has an h1: the h1 wins).
    const custom = await chunk(doc, { strategy: 'markdown', size: 400, overlap: 0, headers: '[{title}] ', path: 'travel.md' });
    expect(custom.every((c) => c.content.startsWith('[Travel Policy] '))).toBe(true);
  });

  it('pages from pageStarts: 1-based pages each chunk touches', async () => {
    const pageStarts = [0, doc.indexOf('## 5.'), doc.indexOf('Table 2')];
    const chunks = await chunk(doc, { strategy: 'markdown', size: 200, overlap: 0, pageStarts });
    const pagesOf = (needle: string) => chunks.find((c) => c.text.includes(needle))!.metadata.pages;
    expect(pagesOf('Applies to everyone')).toEqual([1]);
    expect(pagesOf('Submit receipts')).toEqual([3]);
    for (const c of chunks) {
      const first = pageStarts.filter((p) => p <= c.start).length;
      const last = pageStarts.filter((p) => p <= c.end - 1).length;
      expect(c.metadata.pages).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    }
  });

  it('compat langchain: MarkdownHeaderTextSplitter keys and stripped headers', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', compat: 'langchain', headingDepth: 2 });
    const perDiem = chunks.find((c) => c.content.includes('| Paris'))!;
    expect(perDiem.metadata['Header 1']).toBe('Travel Policy');
    expect(perDiem.metadata['Header 2']).toBe('5. International travel');
    expect(perDiem.metadata['Header 3']).toBeUndefined();
    expect(chunks.some((c) => c.content.startsWith('#'))).toBe(false);
    // LangChain applies no size: nothing is flagged oversize.
    expect(chunks.some((c) => c.metadata.oversize)).toBe(false);
    const kept = await chunk(doc, { strategy: 'markdown', compat: 'langchain', headingDepth: 2, stripHeaders: false });
    expect(kept.some((c) => c.content.startsWith('## 5. International travel'))).toBe(true);
  });

  it('compat llamaindex: LlamaIndex TS MarkdownNodeParser (header text without its marks, Header_n metadata)', async () => {
    const chunks = await chunk(doc, { strategy: 'markdown', compat: 'llamaindex' });
    const perDiem = chunks.find((c) => c.content.startsWith('5.3 Per diem'))!;
    expect(perDiem.metadata).toMatchObject({ Header_1: 'Travel Policy', Header_2: '5. International travel', Header_3: '5.3 Per diem' });
    expect(perDiem.text).toBe(doc.slice(perDiem.start, perDiem.end));
  });

  it('the policy handbook sample: every chunk has a breadcrumb that starts with the handbook title', async () => {
    const chunks = await chunk(policyHandbook, { strategy: 'markdown', size: 800, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.metadata.headingPath![0]).toBe('Northwind Labs Employee Handbook');
    // Its pipe tables fit the size, so each lies whole inside one chunk.
    const tables = [...policyHandbook.matchAll(/(?:^\|.*\|[ \t]*(?:\n|$))+/gm)];
    expect(tables.length).toBeGreaterThan(0);
    for (const t of tables) {
      const start = t.index;
      const end = start + t[0].trimEnd().length;
      expect(chunks.some((c) => c.start <= start && end <= c.end), t[0].slice(0, 40)).toBe(true);
    }
  });
});

describe('contextual headers with a very long heading', () => {
  it('shorten the title in the header (not in headingPath), so one long heading does not halve every chunk', async () => {
    const long = 'A heading that is really a whole paragraph ' + 'of words '.repeat(40);
    const text = `# Guide\n\n${'Short body text. '.repeat(20)}\n\n${long.trim()}\n---\n\nBody under it.`;
    const chunks = await chunk(text, { strategy: 'markdown', size: 500, overlap: 0, headers: true });
    const under = chunks.find((c) => c.text.includes('Body under it'))!;
    expect(under.metadata.headingPath!.at(-1)).toBe(long.trim());
    expect(under.metadata.prefix!.length).toBeLessThan(100);
    expect(under.metadata.prefix!).toContain('…');
    // The first section is cut with almost the whole size, not half of it.
    expect(chunks.filter((c) => c.text.includes('Short body text')).length).toBe(1);
  });
});

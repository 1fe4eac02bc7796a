import { describe, expect, it } from 'vitest';
import { HAVE_SHARED_CORPUS, NEEDS_SHARED_CORPUS, readSharedCorpus } from '../../testing/sharedData';
// The page's markdown sample: real text with headings and a table (a string; core code never imports the UI).
import { policyHandbook } from '../../ui/samples/policyHandbook';
import { validateOptions } from '../options';
import { loadStrategy } from '../strategies';
import type { ChunkContext, ChunkOptions, ResolvedOptions } from '../types';
import { getUnit } from '../units';
import { markdownStructure } from '../strategies/markdown/split';
import { mergeParamsFor, packLevels } from '../merge';
import type { SplitSpan, LoadedStrategy } from '../registry';
import { separatorLevels } from '../segment/separators';
import { splitRetrievalUnits, unitSizeLimit, type RangeSplitter, type UnitSpan } from './index';

const markdownStrategy = (await loadStrategy('markdown'));
const htmlStrategy = (await loadStrategy('html'));

type RetrievalOptions = Pick<ResolvedOptions, 'retrieval' | 'parentSize' | 'window' | 'levels'>;

async function contextFor(options: ChunkOptions, retrieval: RetrievalOptions, hooks: Partial<ChunkContext> = {}): Promise<ChunkContext> {
  const resolved = { ...validateOptions(options), ...retrieval };
  return { unit: await getUnit(resolved.unit), options: resolved, ...hooks };
}

const texts = (text: string, units: UnitSpan[]) => units.map((u) => text.slice(u.start, u.end));

describe('parent–child units', () => {
  // Four paragraphs of 50 characters each: two fit a 110-character parent (50 + 2 + 50 = 102), three do not.
  const para = (letter: string) => `${letter}${letter}${letter} `.repeat(12) + letter.repeat(2);
  const paras = ['a', 'b', 'c', 'd'].map(para);
  const text = paras.join('\n\n');

  it("cuts parents of parentSize at blank lines and the strategy's chunks inside each parent, in pre-order", async () => {
    expect(paras.every((p) => p.length === 50)).toBe(true);
    const ctx = await contextFor({ strategy: 'recursive', size: 60, overlap: 0 }, { retrieval: 'parent-child', parentSize: 110 });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    expect(texts(text, units)).toEqual([
      `${paras[0]}\n\n${paras[1]}`,
      paras[0],
      paras[1],
      `${paras[2]}\n\n${paras[3]}`,
      paras[2],
      paras[3],
    ]);
    expect(units.map((u) => [u.level, u.parent, u.leaf])).toEqual([
      [0, null, false],
      [1, 0, true],
      [1, 0, true],
      [0, null, false],
      [1, 3, true],
      [1, 3, true],
    ]);
    expect(units.map((u) => unitSizeLimit(u, ctx.options))).toEqual([110, 60, 60, 110, 60, 60]);
  });

  it('defaults parents to four times the size', async () => {
    // size 26 → parents of 104: two paragraphs each; children of 26 cut each paragraph at spaces.
    const ctx = await contextFor({ strategy: 'recursive', size: 26, overlap: 0 }, { retrieval: 'parent-child' });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    const parents = units.filter((u) => u.level === 0);
    expect(texts(text, parents)).toEqual([`${paras[0]}\n\n${paras[1]}`, `${paras[2]}\n\n${paras[3]}`]);
    for (const child of units.filter((u) => u.level === 1)) expect(child.end - child.start).toBeLessThanOrEqual(26);
  });

  it('children never cross their parent even where the strategy alone would overlap across', async () => {
    // With overlap, the recursive strategy over the whole text shares words between chunks; inside parents it
    // can only share words with chunks of the same parent.
    const ctx = await contextFor({ strategy: 'recursive', size: 30, overlap: 10 }, { retrieval: 'parent-child', parentSize: 110 });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    for (const u of units) {
      if (u.parent === null) continue;
      const p = units[u.parent]!;
      expect(u.start).toBeGreaterThanOrEqual(p.start);
      expect(u.end).toBeLessThanOrEqual(p.end);
    }
  });

  it("uses a strategy's splitRange (whole document as context) when it has one: same children as on slices here", async () => {
    const recursive = (await loadStrategy('recursive'));
    const ranges: [number, number, boolean][] = [];
    // The recursive strategy's own cut (separator levels + core packer), run over a range of the whole text.
    const ranged: LoadedStrategy & RangeSplitter = {
      ...recursive,
      splitRange(source, range, ctx) {
        ranges.push([range.start, range.end, source === text]);
        const out: SplitSpan[] = [];
        const levels = separatorLevels(source, ctx.options.separators, false, ctx.options.keepSeparator);
        packLevels(source, range.start, range.end, levels, mergeParamsFor(source, ctx), out);
        return out;
      },
    };
    const ctx = await contextFor({ strategy: 'recursive', size: 30, overlap: 10 }, { retrieval: 'parent-child', parentSize: 110 });
    const viaRange = await splitRetrievalUnits(text, ranged, ctx);
    expect(viaRange).toEqual(await splitRetrievalUnits(text, recursive, ctx));
    expect(ranges.map(([s, e, whole]) => [text.slice(s, e), whole])).toEqual(
      viaRange.filter((u) => u.level === 0).map((p) => [text.slice(p.start, p.end), true]),
    );
    const outside: LoadedStrategy & RangeSplitter = { ...recursive, splitRange: (_s, range) => [{ start: range.start, end: range.end + 1 }] };
    await expect(splitRetrievalUnits(text, outside, ctx)).rejects.toThrow(/outside the range/);
  });

  const markdown = [
    '# Travel Policy',
    '',
    'This policy covers all business travel.',
    '',
    '## 5. International travel',
    '',
    'Book international flights through the agency.',
    '',
    '### 5.3 Per diem',
    '',
    'Per diem rates follow the government table. Claim meals only once per day. Keep every receipt for audit.',
    '',
    '## 6. Expenses',
    '',
    'Submit expenses within thirty days.',
  ].join('\n');

  it('structure strategies: parents are sections, children carry their real ancestry in the whole document', async () => {
    const ctx = await contextFor({ strategy: 'markdown', size: 60, overlap: 0 }, { retrieval: 'parent-child', parentSize: 1000 });
    const units = await splitRetrievalUnits(markdown, markdownStrategy, ctx);
    const parents = units.filter((u) => u.level === 0);
    expect(texts(markdown, parents).map((t) => t.split('\n')[0])).toEqual([
      '# Travel Policy',
      '## 5. International travel',
      '### 5.3 Per diem',
      '## 6. Expenses',
    ]);
    expect(parents.map((p) => p.headingPath)).toEqual([
      ['Travel Policy'],
      ['Travel Policy', '5. International travel'],
      ['Travel Policy', '5. International travel', '5.3 Per diem'],
      ['Travel Policy', '6. Expenses'],
    ]);
    // The per-diem section is cut into children; run alone on the section, the splitter would only know "5.3 Per diem".
    const perDiem = units.filter((u) => u.parent === units.indexOf(parents[2]!));
    expect(perDiem.length).toBeGreaterThan(1);
    for (const child of perDiem) expect(child.headingPath).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
    expect(texts(markdown, perDiem).join(' ')).toContain('Keep every receipt for audit.');
  });

  it('structure strategies: a section larger than parentSize is cut into blocks of at most parentSize', async () => {
    const ctx = await contextFor({ strategy: 'markdown', size: 30, overlap: 0 }, { retrieval: 'parent-child', parentSize: 60 });
    const units = await splitRetrievalUnits(markdown, markdownStrategy, ctx);
    const parents = units.filter((u) => u.level === 0);
    for (const p of parents) expect(p.end - p.start).toBeLessThanOrEqual(60);
    // "Per diem rates ... audit." (105 characters) lies in two or more parents, all under the 5.3 heading.
    const inPerDiem = parents.filter((p) => markdown.slice(p.start, p.end).match(/Per diem rates|receipt/));
    expect(inPerDiem.length).toBeGreaterThanOrEqual(2);
    for (const p of inPerDiem) expect(p.headingPath).toEqual(['Travel Policy', '5. International travel', '5.3 Per diem']);
    // No parent spans two sections: the "## 6." heading starts a parent.
    expect(parents.some((p) => p.start === markdown.indexOf('## 6.'))).toBe(true);
  });
});

describe('sentence windows', () => {
  it('gives each sentence w neighbours on each side, clipped at the document edges', async () => {
    const text = 'One is first. Two comes next. Three is here. Four is near the end. Five ends it.';
    const ctx = await contextFor({ strategy: 'sentence', size: 100, overlap: 0 }, { retrieval: 'window', window: 1 });
    const units = await splitRetrievalUnits(text, (await loadStrategy('sentence')), ctx);
    expect(texts(text, units)).toEqual(['One is first.', 'Two comes next.', 'Three is here.', 'Four is near the end.', 'Five ends it.']);
    const windows = units.map((u) => text.slice(u.window!.start, u.window!.end));
    expect(windows).toEqual([
      'One is first. Two comes next.',
      'One is first. Two comes next. Three is here.',
      'Two comes next. Three is here. Four is near the end.',
      'Three is here. Four is near the end. Five ends it.',
      'Four is near the end. Five ends it.',
    ]);
    expect(units.every((u) => u.level === 0 && u.leaf && u.parent === null)).toBe(true);
    expect(unitSizeLimit(units[0]!, ctx.options)).toBe(Infinity);
  });

  it('defaults to 3 sentences on each side, and w = 0 gives the sentence alone', async () => {
    const text = Array.from({ length: 9 }, (_, i) => `Sentence number ${i + 1} is here.`).join(' ');
    const three = await splitRetrievalUnits(text, (await loadStrategy('sentence')), await contextFor({ strategy: 'sentence' }, { retrieval: 'window' }));
    const middle = three[4]!;
    expect(text.slice(middle.window!.start, middle.window!.end)).toBe(text.slice(three[1]!.start, three[7]!.end));
    const zero = await splitRetrievalUnits(text, (await loadStrategy('sentence')), await contextFor({ strategy: 'sentence' }, { retrieval: 'window', window: 0 }));
    expect(zero.every((u) => u.window!.start === u.start && u.window!.end === u.end)).toBe(true);
  });

  it('stops windows at section boundaries and carries the heading path', async () => {
    const text = '# Guide\n\nFirst part. Second part.\n\n## Setup\n\nInstall it. Run it.';
    const ctx = await contextFor({ strategy: 'markdown', size: 100, overlap: 0 }, { retrieval: 'window', window: 5 });
    const units = await splitRetrievalUnits(text, markdownStrategy, ctx);
    const byText = new Map(units.map((u) => [text.slice(u.start, u.end), u]));
    const second = byText.get('Second part.')!;
    expect(text.slice(second.window!.start, second.window!.end)).toBe('# Guide\n\nFirst part. Second part.');
    expect(second.headingPath).toEqual(['Guide']);
    const install = byText.get('Install it.')!;
    expect(text.slice(install.window!.start, install.window!.end)).toBe('## Setup\n\nInstall it. Run it.');
    expect(install.headingPath).toEqual(['Guide', 'Setup']);
  });
});

describe('HTML documents', () => {
  const html = [
    '<html><head><title>Parcel API</title></head><body>',
    '<h1>Parcel API</h1>',
    '<p>Send parcels anywhere. Track them live.</p>',
    '<h2>Authentication</h2>',
    '<p>Use an API key. Rotate it every year.</p>',
    '<h2>Rates</h2>',
    '<p>Rates depend on weight. Ask sales for volume prices.</p>',
    '</body></html>',
  ].join('\n');

  it('windows stop at the h2 sections and sentences carry the h1 > h2 path', async () => {
    const ctx = await contextFor({ strategy: 'html', size: 200, overlap: 0 }, { retrieval: 'window', window: 5 });
    const units = await splitRetrievalUnits(html, htmlStrategy, ctx);
    const key = units.find((u) => html.slice(u.start, u.end).includes('Use an API key.'))!;
    const win = html.slice(key.window!.start, key.window!.end);
    expect(win).toContain('Rotate it every year.');
    expect(win).not.toContain('Track them live.');
    expect(win).not.toContain('Rates depend');
    expect(key.headingPath).toEqual(['Parcel API', 'Authentication']);
  });

  it('parent–child: one parent per section, children inside it with the whole-document path', async () => {
    const ctx = await contextFor({ strategy: 'html', size: 40, overlap: 0 }, { retrieval: 'parent-child', parentSize: 400 });
    const units = await splitRetrievalUnits(html, htmlStrategy, ctx);
    const rates = units.findIndex((u) => u.level === 0 && html.slice(u.start, u.end).startsWith('<h2>Rates'));
    expect(rates).toBeGreaterThan(0);
    const children = units.filter((u) => u.parent === rates);
    expect(children.length).toBeGreaterThan(1);
    for (const c of children) expect(c.headingPath).toEqual(['Parcel API', 'Rates']);
    expect(children.map((c) => html.slice(c.start, c.end)).join(' ')).toContain('Ask sales for volume prices.');
  });
});

describe('hierarchical units', () => {
  const text = [
    'The first paragraph talks about rivers and the sea, and it goes on for a while.',
    'The second paragraph is about mountains. It has two sentences.',
    'A third, shorter one.',
    'The fourth paragraph closes the document with a last long thought about weather.',
  ].join('\n\n');

  it('nests levels largest first; each level tiles the unit above; leaves are the last level', async () => {
    const levels = [120, 60, 25];
    const ctx = await contextFor({ strategy: 'recursive', size: 25, overlap: 0 }, { retrieval: 'hierarchical', levels });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    for (const [i, u] of units.entries()) {
      expect(u.end - u.start).toBeLessThanOrEqual(levels[u.level]!);
      expect(u.leaf).toBe(u.level === 2);
      if (u.level === 0) expect(u.parent).toBeNull();
      else expect(units[u.parent!]!.level).toBe(u.level - 1);
      // Pre-order: the parent is the nearest earlier unit one level up.
      if (u.parent !== null) {
        const nearest = units.slice(0, i).map((x, k) => [x, k] as const).reverse().find(([x]) => x.level === u.level - 1)!;
        expect(nearest[1]).toBe(u.parent);
      }
    }
    // Level-0 units: "first" (79) alone; "second" (62) + "third" (21) = 85 with the break; "fourth" (80) alone.
    expect(texts(text, units.filter((u) => u.level === 0)).map((t) => t.slice(0, 10))).toEqual(['The first ', 'The second', 'The fourth']);
    // A unit that fits the next size has exactly one child with the same span.
    const third = units.find((u) => u.level === 1 && text.slice(u.start, u.end) === 'A third, shorter one.')!;
    const thirdChildren = units.filter((u) => u.parent === units.indexOf(third));
    expect(thirdChildren.map((c) => [c.start, c.end])).toEqual([[third.start, third.end]]);
  });

  it('uses 2048/512/128 by default and refuses levels that do not shrink', async () => {
    const ctx = await contextFor({ strategy: 'recursive' }, { retrieval: 'hierarchical' });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    // The text (268 characters) is one 2048 unit and one 512 unit, cut into 128-character leaves.
    expect(text.length).toBeLessThan(512);
    expect(units.map((u) => u.level)).toEqual([0, 1, 2, 2, 2]);
    expect(units.map((u) => unitSizeLimit(u, ctx.options))).toEqual([2048, 512, 128, 128, 128]);
    for (const bad of [[512, 512], [128, 512], [512, 0], [], [2.5]]) {
      const badCtx = await contextFor({ strategy: 'recursive' }, { retrieval: 'hierarchical', levels: bad });
      await expect(splitRetrievalUnits(text, (await loadStrategy('recursive')), badCtx)).rejects.toMatchObject({ name: 'ChunkOptionsError', field: 'levels' });
    }
  });

  it('counts levels in the chosen unit (cl100k_base tokens)', async () => {
    const ctx = await contextFor({ strategy: 'recursive', unit: 'cl100k_base' }, { retrieval: 'hierarchical', levels: [40, 12] });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    expect(units.some((u) => u.end - u.start > 40)).toBe(true); // more characters than tokens
    for (const u of units) expect(ctx.unit.count(text.slice(u.start, u.end))).toBeLessThanOrEqual([40, 12][u.level]!);
  });
});

describe('runs', () => {
  const text = 'Alpha beta gamma. Delta epsilon.\n'.repeat(4000);

  it('reports increasing progress ending at 1 in every mode', async () => {
    for (const retrieval of ['parent-child', 'window', 'hierarchical'] as const) {
      const seen: number[] = [];
      const ctx = await contextFor({ strategy: 'recursive', size: 200, overlap: 0 }, { retrieval }, { onProgress: (f) => seen.push(f) });
      await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.at(-1)).toBe(1);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    }
  });

  it('stops with an AbortError when the signal turns true', async () => {
    for (const retrieval of ['parent-child', 'window', 'hierarchical'] as const) {
      const signal = { aborted: false };
      let calls = 0;
      const ctx = await contextFor({ strategy: 'recursive', size: 200, overlap: 0 }, { retrieval }, {
        signal,
        onProgress: () => {
          if (++calls === 2) signal.aborted = true;
        },
      });
      await expect(splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx)).rejects.toMatchObject({ name: 'AbortError' });
    }
  });

  it('gives no units for empty or whitespace-only text, and the same units on a second run', async () => {
    for (const retrieval of ['parent-child', 'window', 'hierarchical'] as const) {
      const ctx = await contextFor({ strategy: 'markdown', size: 40, overlap: 0 }, { retrieval, levels: [80, 20] });
      for (const blank of ['', '  \n\n \t']) expect(await splitRetrievalUnits(blank, markdownStrategy, ctx)).toEqual([]);
      const doc = '# A\n\nOne sentence here. Another one follows.\n\n## B\n\nLast words of the text.';
      expect(await splitRetrievalUnits(doc, markdownStrategy, ctx)).toEqual(await splitRetrievalUnits(doc, markdownStrategy, ctx));
    }
  });

  it("uses the caller's structure when given (null: none), else the strategy's", async () => {
    const doc = '# Guide\n\nFirst part. Second part.\n\n## Setup\n\nInstall it. Run it.';
    const ctx = await contextFor({ strategy: 'markdown', size: 100, overlap: 0 }, { retrieval: 'window', window: 5 });
    const own = await splitRetrievalUnits(doc, markdownStrategy, ctx);
    expect(await splitRetrievalUnits(doc, markdownStrategy, ctx, markdownStructure(doc, 3))).toEqual(own);
    // Without structure the whole document is one section: windows run across the "## Setup" heading.
    const flat = await splitRetrievalUnits(doc, markdownStrategy, ctx, null);
    expect(flat.every((u) => u.headingPath === undefined && u.window!.start === 0 && u.window!.end === doc.length)).toBe(true);
  });

  it("'chunks' returns the strategy's own spans as level-0 leaves", async () => {
    const ctx = await contextFor({ strategy: 'recursive', size: 200, overlap: 20 }, { retrieval: 'chunks' });
    const units = await splitRetrievalUnits(text, (await loadStrategy('recursive')), ctx);
    const plain = await (await loadStrategy('recursive')).split(text, ctx);
    expect(units.map((u) => [u.start, u.end])).toEqual(plain.map((s) => [s.start, s.end]));
    expect(units.every((u) => u.level === 0 && u.leaf && u.parent === null)).toBe(true);
  });
});

describe('real documents', () => {
  it('the policy handbook: children in "2.2" carry the whole-document path and keep the table header repeated', async () => {
    const ctx = await contextFor({ strategy: 'markdown', size: 300, overlap: 0 }, { retrieval: 'parent-child' });
    const units = await splitRetrievalUnits(policyHandbook, markdownStrategy, ctx);
    const leave = ['Northwind Labs Employee Handbook', '2. Time off', '2.2 Leave entitlements at a glance'];
    const parent = units.findIndex((u) => u.level === 0 && policyHandbook.slice(u.start).startsWith('### 2.2 Leave'));
    expect(units[parent]!.headingPath).toEqual(leave);
    const children = units.filter((u) => u.parent === parent);
    const tables = children.filter((c) => c.contentType === 'table');
    // The table (about 700 characters) does not fit 300: row groups, each repeating the header and delimiter rows.
    expect(tables.length).toBeGreaterThan(1);
    for (const t of tables) {
      expect(t.headingPath).toEqual(leave);
      expect(t.content!.startsWith('| Type of leave | Paid | Entitlement | Notice required | Evidence |\n|---|---|---|---|---|')).toBe(true);
    }
    // Every "### x.y" section is one parent (the sections fit 1,200 characters), under its "## x." heading.
    const subsections = [...policyHandbook.matchAll(/^### (\d)\.\d .*$/gm)];
    for (const m of subsections) {
      const p = units.find((u) => u.level === 0 && u.start === m.index)!;
      expect(p.headingPath!.slice(-1)).toEqual([m[0].slice(4)]);
      expect(p.headingPath![1]!.startsWith(`${m[1]}. `)).toBe(true);
    }
  });

  const corpus = HAVE_SHARED_CORPUS ? readSharedCorpus(200_000) : '';

  it.skipIf(!HAVE_SHARED_CORPUS)(`corpus (200 KB): children are the recursive chunks of each parent; leaves cover the text ${NEEDS_SHARED_CORPUS}`, async () => {
    const ctx = await contextFor({ strategy: 'recursive', size: 400, overlap: 50 }, { retrieval: 'parent-child' });
    const units = await splitRetrievalUnits(corpus, (await loadStrategy('recursive')), ctx);
    const parents = units.map((u, i) => [u, i] as const).filter(([u]) => u.level === 0);
    expect(parents.length).toBeGreaterThan(50);
    for (const [p, i] of parents.slice(0, 40)) {
      const slice = corpus.slice(p.start, p.end);
      const own = (await (await loadStrategy('recursive')).split(slice, ctx)).map((s) => [s.start + p.start, s.end + p.start]);
      expect(units.filter((u) => u.parent === i).map((u) => [u.start, u.end])).toEqual(own);
    }
    let covered = 0;
    for (const u of units) if (u.leaf) covered += corpus.slice(u.start, u.end).replace(/\s/g, '').length;
    // Children of one parent may overlap; they never miss a character.
    expect(covered).toBeGreaterThanOrEqual(corpus.replace(/\s/g, '').length);
  });

  it.skipIf(!HAVE_SHARED_CORPUS)(`corpus (200 KB): one window per sentence, as Intl.Segmenter finds them line by line ${NEEDS_SHARED_CORPUS}`, async () => {
    const ctx = await contextFor({ strategy: 'recursive' }, { retrieval: 'window', window: 2 });
    const units = await splitRetrievalUnits(corpus, (await loadStrategy('recursive')), ctx);
    // Sentences always end at a line break, so segmenting each line on its own finds the same sentences.
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const expected: string[] = [];
    for (const line of corpus.split('\n')) for (const s of segmenter.segment(line)) if (s.segment.trim()) expected.push(s.segment.trim());
    expect(texts(corpus, units)).toEqual(expected);
  });
});

describe('sentence windows and numbered headings', () => {
  it('a numbered heading is one sentence, not "## 1." and the rest', async () => {
    const { chunk } = await import('../index');
    const text = '# Handbook\n\n## 1. Working hours and location\n\nWe work from ten. We stop at three.\n\n### 1.1. Core hours\n\nCore hours are fixed.';
    const chunks = await chunk(text, { strategy: 'markdown', window: 1 });
    const texts = chunks.map((c) => c.text);
    expect(texts).toContain('## 1. Working hours and location');
    expect(texts).toContain('### 1.1. Core hours');
    expect(texts).not.toContain('## 1.');
    expect(texts).toContain('We work from ten.');
  });
});

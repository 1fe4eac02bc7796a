import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWhitespaceCode } from '../measure';
import { validateOptions } from '../options';
import type { LoadedStrategy } from '../registry';
import { loadStrategy } from '../strategies';
import type { ChunkContext, ResolvedOptions, UnitName } from '../types';
import { getUnit } from '../units';
import { splitRetrievalUnits, type UnitSpan } from './index';

/**
 * Generated markdown-ish documents (LF or CRLF) whose headings are known from the generator (not from the parser), so heading
 * ancestry and section boundaries are checked against an independent truth. Sections start at headings of depth
 * <= 3 (the markdown strategy's default headingDepth); depth-4 headings are deeper structure inside a section.
 */

type Block = { kind: 'heading'; depth: number; title: string } | { kind: 'para'; sentences: string[]; lineBreaks: boolean };

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '😀', '日本語', 'Ünïcode', 'x', 'per', 'diem', '👨‍👩‍👧', 'rate');
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));
const sentence = fc.tuple(words(1, 10), fc.constantFrom('.', '!', '?', '.')).map(([w, end]) => w.charAt(0).toUpperCase() + w.slice(1) + end);

const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('heading' as const), depth: fc.integer({ min: 1, max: 4 }), title: words(1, 3) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('para' as const), sentences: fc.array(sentence, { minLength: 1, maxLength: 6 }), lineBreaks: fc.boolean() }),
  },
);
const gap = fc.constantFrom('\n\n', '\n\n\n', '\n \n', '\n\n  ');

interface Doc {
  text: string;
  headings: { start: number; depth: number; title: string }[];
}

const doc: fc.Arbitrary<Doc> = fc
  .tuple(
    fc.array(block, { minLength: 1, maxLength: 14 }),
    fc.array(gap, { minLength: 14, maxLength: 14 }),
    fc.constantFrom('', '  ', '\n'),
    fc.constantFrom('\n', '\n', '\r\n'),
  )
  .map(([blocks, gaps, lead, nl]) => {
    let text = lead.replace('\n', nl);
    const headings: Doc['headings'] = [];
    blocks.forEach((b, i) => {
      if (i > 0) text += gaps[i]!.replaceAll('\n', nl);
      if (b.kind === 'heading') {
        // A heading must start a line: the leading "  " above would make it a paragraph continuation otherwise.
        if (text !== '' && !text.endsWith('\n')) text += nl + nl;
        headings.push({ start: text.length, depth: b.depth, title: b.title });
        text += `${'#'.repeat(b.depth)} ${b.title}`;
      } else {
        text += b.sentences.join(b.lineBreaks ? nl : ' ');
      }
    });
    return { text, headings };
  });

/** Ancestry at `offset` from the generator's headings: the stack of open headings after the last one at or before it. */
function truePath(d: Doc, offset: number): string[] {
  const stack: { depth: number; title: string }[] = [];
  for (const h of d.headings) {
    if (h.start > offset) break;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

/** Index of the section holding `offset` (sections start at headings of depth <= 3). */
function sectionOf(d: Doc, offset: number): number {
  let k = 0;
  for (const h of d.headings) if (h.depth <= 3 && h.start <= offset) k = h.start;
  return k;
}

const firstNonBlank = (text: string, u: { start: number; end: number }): number => {
  let s = u.start;
  while (s < u.end && isWhitespaceCode(text.charCodeAt(s))) s++;
  return s;
};

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Offsets exact and trimmed, not inside a surrogate pair; pre-order; children inside their parent, siblings in order. */
function checkTree(text: string, units: UnitSpan[]): void {
  const lastChildStart = new Map<number | null, number>();
  units.forEach((u, i) => {
    expect(Number.isInteger(u.start) && Number.isInteger(u.end)).toBe(true);
    expect(0 <= u.start && u.start < u.end && u.end <= text.length).toBe(true);
    expect(isWhitespaceCode(text.charCodeAt(u.start))).toBe(false);
    expect(isWhitespaceCode(text.charCodeAt(u.end - 1))).toBe(false);
    expect(isLow(text.charCodeAt(u.start))).toBe(false);
    expect(u.end < text.length && isLow(text.charCodeAt(u.end))).toBe(false);
    // Pre-order: the parent is the nearest earlier unit one level up.
    let nearest: number | null = null;
    for (let k = i - 1; k >= 0; k--) {
      if (units[k]!.level === u.level - 1) {
        nearest = k;
        break;
      }
      if (units[k]!.level < u.level - 1) break;
    }
    expect(u.parent).toBe(u.level === 0 ? null : nearest);
    if (u.parent !== null) {
      const p = units[u.parent]!;
      expect(p.level).toBe(u.level - 1);
      expect(p.leaf).toBe(false);
      expect(p.start <= u.start && u.end <= p.end).toBe(true);
    }
    const previous = lastChildStart.get(u.parent);
    if (previous !== undefined) expect(u.start).toBeGreaterThan(previous);
    lastChildStart.set(u.parent, u.start);
  });
}

/** Every non-whitespace character of the text lies in some of `spans`. */
function checkCovers(text: string, spans: readonly { start: number; end: number }[]): void {
  const covered = new Uint8Array(text.length + 1);
  for (const s of spans) for (let i = s.start; i < s.end; i++) covered[i] = 1;
  for (let i = 0; i < text.length; i++) if (!covered[i] && !isWhitespaceCode(text.charCodeAt(i))) expect.fail(`offset ${i} is in no unit`);
}

function checkHeadings(d: Doc, units: UnitSpan[], structured: boolean): void {
  for (const u of units) {
    if (structured) expect(u.headingPath).toEqual(truePath(d, firstNonBlank(d.text, u)));
    else expect(u.headingPath).toBeUndefined();
  }
}

const strategies: { strategy: LoadedStrategy; structured: boolean }[] = [
  { strategy: (await loadStrategy('recursive')), structured: false },
  { strategy: (await loadStrategy('sentence')), structured: false },
  { strategy: (await loadStrategy('markdown')), structured: true },
];
const pick = fc.constantFrom(...strategies);
const unitName = fc.constantFrom<UnitName>('chars', 'words');

async function contextFor(strategy: LoadedStrategy, unit: UnitName, size: number, overlap: number, retrieval: Partial<ResolvedOptions>): Promise<ChunkContext> {
  const options: ResolvedOptions = { ...validateOptions({ strategy: strategy.id, size, overlap, unit }), ...retrieval };
  return { unit: await getUnit(unit), options };
}

const RUNS = 60;

describe('retrieval unit properties', () => {
  it('parent–child: exact offsets, pre-order, children inside parents, leaves cover the text, real ancestry', async () => {
    await fc.assert(
      fc.asyncProperty(doc, pick, unitName, fc.integer({ min: 4, max: 60 }), fc.integer({ min: 1, max: 6 }), fc.nat(3), async (d, s, unit, size, factor, overlapPart) => {
        const parentSize = size * factor;
        const overlap = Math.floor((size * overlapPart) / 8);
        const ctx = await contextFor(s.strategy, unit, size, overlap, { retrieval: 'parent-child', parentSize });
        const units = await splitRetrievalUnits(d.text, s.strategy, ctx);
        checkTree(d.text, units);
        expect(units.every((u) => (u.level === 0 && !u.leaf) || (u.level === 1 && u.leaf))).toBe(true);
        checkCovers(d.text, units.filter((u) => u.leaf));
        checkHeadings(d, units, s.structured);
        for (const p of units.filter((u) => u.level === 0)) {
          if (!p.oversize) expect(ctx.unit.count(d.text.slice(p.start, p.end))).toBeLessThanOrEqual(parentSize);
          // A parent is a section or a piece of one.
          if (s.structured) expect(sectionOf(d, p.end - 1)).toBe(sectionOf(d, p.start));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('windows: each contains its sentence, spans whole neighbouring sentences, and stays inside its section', async () => {
    await fc.assert(
      fc.asyncProperty(doc, pick, fc.nat(4), async (d, s, w) => {
        const ctx = await contextFor(s.strategy, 'chars', 100, 0, { retrieval: 'window', window: w });
        const units = await splitRetrievalUnits(d.text, s.strategy, ctx);
        checkTree(d.text, units);
        checkCovers(d.text, units);
        checkHeadings(d, units, s.structured);
        const section = (offset: number) => (s.structured ? sectionOf(d, offset) : 0);
        units.forEach((u, i) => {
          const win = u.window!;
          expect(win.start <= u.start && u.end <= win.end).toBe(true);
          expect(section(u.start)).toBe(section(u.end - 1));
          expect(section(win.start)).toBe(section(u.start));
          expect(section(win.end - 1)).toBe(section(u.start));
          // The window runs from the w-th sentence before to the w-th after, unless the section ends first.
          const first = units.findIndex((x) => x.start === win.start);
          const last = units.findIndex((x) => x.end === win.end);
          expect(first >= 0 && last >= 0).toBe(true);
          expect(i - first).toBeLessThanOrEqual(w);
          expect(last - i).toBeLessThanOrEqual(w);
          if (i - first < w) expect(first === 0 || section(units[first - 1]!.start) !== section(u.start)).toBe(true);
          if (last - i < w) expect(last === units.length - 1 || section(units[last + 1]!.start) !== section(u.start)).toBe(true);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('hierarchical: level sizes bounded unless oversize, each level tiles the one above, leaves are the last level', async () => {
    const sizes = fc.uniqueArray(fc.integer({ min: 3, max: 300 }), { minLength: 1, maxLength: 4 }).map((a) => a.sort((x, y) => y - x));
    await fc.assert(
      fc.asyncProperty(doc, pick, unitName, sizes, async (d, s, unit, levels) => {
        const ctx = await contextFor(s.strategy, unit, 100, 0, { retrieval: 'hierarchical', levels });
        const units = await splitRetrievalUnits(d.text, s.strategy, ctx);
        checkTree(d.text, units);
        checkHeadings(d, units, s.structured);
        checkCovers(d.text, units.filter((u) => u.level === 0));
        units.forEach((u, i) => {
          expect(u.leaf).toBe(u.level === levels.length - 1);
          if (!u.oversize) expect(ctx.unit.count(d.text.slice(u.start, u.end))).toBeLessThanOrEqual(levels[u.level]!);
          if (s.structured && u.level === 0) expect(sectionOf(d, u.end - 1)).toBe(sectionOf(d, u.start));
          if (u.leaf) return;
          // Children tile the unit: no overlap between them, and together they hold all its non-whitespace.
          const children = units.filter((c) => c.parent === i);
          expect(children.length).toBeGreaterThan(0);
          for (let k = 1; k < children.length; k++) expect(children[k]!.start).toBeGreaterThanOrEqual(children[k - 1]!.end);
          const inside = d.text.slice(u.start, u.end);
          checkCovers(inside, children.map((c) => ({ start: c.start - u.start, end: c.end - u.start })));
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('token units: parents and levels are bounded in cl100k_base tokens', async () => {
    await fc.assert(
      fc.asyncProperty(doc, fc.integer({ min: 8, max: 40 }), async (d, size) => {
        const strategy = (await loadStrategy('recursive'));
        const pc = await splitRetrievalUnits(d.text, strategy, await contextFor(strategy, 'cl100k_base', size, 0, { retrieval: 'parent-child', parentSize: size * 3 }));
        checkTree(d.text, pc);
        checkCovers(d.text, pc.filter((u) => u.leaf));
        const ctx = await contextFor(strategy, 'cl100k_base', size, 0, { retrieval: 'hierarchical', levels: [size * 3, size, 4] });
        const h = await splitRetrievalUnits(d.text, strategy, ctx);
        checkTree(d.text, h);
        for (const u of h) if (!u.oversize) expect(ctx.unit.count(d.text.slice(u.start, u.end))).toBeLessThanOrEqual([size * 3, size, 4][u.level]!);
      }),
      { numRuns: 25 },
    );
  });
});

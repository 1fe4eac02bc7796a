import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsUnit } from '../units';
import { buildOutline } from './markdown';
import { splitMarkdown } from './markdownSplit';
import { splitHtml } from './htmlSplit';

/**
 * A heading with no body joins what follows: no chunk is a bare heading line while its own section's text follows,
 * unless the heading and the first word after it do not fit in one chunk together.
 */
describe('markdown: no heading-only chunk before its own body', () => {
  it('holds for random documents, sizes and overlaps', () => {
    const word = fc.constantFrom('record', 'stay', 'policy', 'travel', 'meal', 'hotel', 'per', 'diem', 'a');
    const paragraph = fc.array(word, { minLength: 1, maxLength: 40 }).map((w) => w.join(' ') + '.');
    const section = fc.record({
      depth: fc.integer({ min: 1, max: 3 }),
      title: fc.array(word, { minLength: 1, maxLength: 3 }),
      body: fc.array(paragraph, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 8 }), fc.integer({ min: 20, max: 300 }), fc.constantFrom(0, 0.1), (sections, size, fraction) => {
        const text = sections.map((s) => `${'#'.repeat(s.depth)} ${s.title.join(' ')}\n\n${s.body.join('\n\n')}`).join('\n\n');
        const outline = buildOutline(text);
        const spans = splitMarkdown(text, { size, overlap: Math.floor(size * fraction), unit: charsUnit, outline });
        const headingAt = new Map(outline.headings.map((h) => [h.start, h]));
        spans.forEach((s, i) => {
          const t = text.slice(s.start, s.end);
          const lead = s.start + (t.length - t.trimStart().length);
          const heading = headingAt.get(lead);
          const next = spans[i + 1];
          // A bare heading, while the next chunk starts in its own section (before the next heading).
          const nextHeading = outline.headings.find((h) => h.start > lead);
          const bodyFollows = next !== undefined && next.start < (nextHeading?.start ?? text.length) && text.slice(s.end, nextHeading?.start ?? text.length).trim() !== '';
          if (heading && heading.end >= s.start + t.trimEnd().length && bodyFollows) {
            const firstWord = /\S+/.exec(text.slice(s.end))![0];
            const together = text.slice(lead, s.end + text.slice(s.end).indexOf(firstWord) + firstWord.length);
            expect(charsUnit.count(together) > size, JSON.stringify({ t, together, size })).toBe(true);
          }
          // Sizes stay within the limit unless flagged.
          if (!s.oversize) expect(charsUnit.count(t)).toBeLessThanOrEqual(size);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a heading before a code block too large to keep whole stays alone: no chunk mixes it with code', () => {
    // Found by the fragments property test: the heading was packed again at words with the block's first piece.
    const text = '# 😀\n\n```\n😀\na\n😀\nrecord\nstay\nper\n```\n\n# record\n\n';
    const spans = splitMarkdown(text, { size: 30, overlap: 3, unit: charsUnit, outline: buildOutline(text), maxDepth: 3 });
    expect(spans.map((s) => [text.slice(s.start, s.end), s.contentType])).toEqual([
      ['# 😀', 'text'],
      ['```\n😀\na\n😀\nrecord\nstay\nper', 'code'],
      ['per\n```', 'code'],
      ['# record', 'text'],
    ]);
  });

  it('holds for HTML too (heading elements, <p> bodies; sizes count the source, tags included)', () => {
    const word = fc.constantFrom('record', 'stay', 'policy', 'travel', 'meal', 'hotel', 'per', 'diem', 'a', '&amp;');
    const paragraph = fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => `<p>${w.join(' ')}.</p>`);
    const section = fc.record({ depth: fc.integer({ min: 1, max: 3 }), title: fc.array(word, { minLength: 1, maxLength: 3 }), body: fc.array(paragraph, { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 6 }), fc.integer({ min: 30, max: 300 }), fc.boolean(), (sections, size, rawHtml) => {
        const parts: string[] = [];
        const headings: { start: number; end: number }[] = [];
        let length = 0;
        for (const s of sections) {
          const h = `<h${s.depth}>${s.title.join(' ')}</h${s.depth}>`;
          headings.push({ start: length, end: length + h.length });
          const block = [h, ...s.body].join('\n') + '\n';
          parts.push(block);
          length += block.length;
        }
        const text = parts.join('');
        const spans = splitHtml(text, { size, overlap: 0, unit: charsUnit, rawHtml });
        spans.forEach((s, i) => {
          const heading = headings.find((h) => h.start === s.start && h.end >= s.end);
          const next = spans[i + 1];
          const nextHeading = headings.find((h) => h.start > s.start);
          if (!heading || !next || next.start >= (nextHeading?.start ?? text.length)) return;
          // The heading and its body's first word (with the tags between) do not fit together
          const firstWord = /[^\s<>]+(?=[^>]*(<|$))/.exec(text.slice(heading.end).replace(/<[^>]*>/g, (m) => ' '.repeat(m.length)))!;
          // (with the tags right after the word: a cut falls between a word and its closing tag only when needed)
          const wordEnd = heading.end + firstWord.index + firstWord[0].length;
          const together = text.slice(heading.start, wordEnd + /^(<[^>]*>)*/.exec(text.slice(wordEnd))![0].length);
          expect(charsUnit.count(together) > size, JSON.stringify({ heading: text.slice(s.start, s.end), together, size })).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });
});

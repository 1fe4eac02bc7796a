import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { lineMarks, parseMarkdownBlocks } from './markdownBlocks';

/**
 * The block pass's own pieces against markdown-it's: the line marks found with a native search per line must be the
 * ones markdown-it's StateBlock constructor finds with its loop over every character (the rules read nothing else
 * about the lines); and the blocks found when each line tries only the rules it can start (by its first character,
 * its indentation, the next line for tables) must be those found trying every rule on every line.
 */
const piece = fc.constantFrom('a', 'word', ' ', '  ', '    ', '\t', ' \t', '\n', '\n\n', '> ', '- ', '1. ', '```', '#', '|', '\u00a0', '😀', '\r');
const source = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

describe('lineMarks', () => {
  it("equals markdown-it's StateBlock line marks (start, end, indentation in characters and columns)", () => {
    const md = new MarkdownIt();
    fc.assert(
      fc.property(source, (src) => {
        const theirs = new md.block.State(src, md, {}, []);
        const ours = { bMarks: [0], eMarks: [0], tShift: [0], sCount: [0], bsCount: [0], lineMax: 0 };
        lineMarks(ours, src);
        expect(ours).toEqual({
          bMarks: theirs.bMarks,
          eMarks: theirs.eMarks,
          tShift: theirs.tShift,
          sCount: theirs.sCount,
          bsCount: theirs.bsCount,
          lineMax: theirs.lineMax,
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('covers the edge cases markdown-it has: no final line break, a last line of only blanks, empty text', () => {
    const md = new MarkdownIt();
    for (const src of ['', 'a', 'a\n', '  ', 'a\n  ', 'a\n\t', '\n', ' \n', '\t\tx', '  \tx\n   \ty']) {
      const theirs = new md.block.State(src, md, {}, []);
      const ours = { bMarks: [], eMarks: [], tShift: [], sCount: [], bsCount: [], lineMax: 0 };
      lineMarks(ours, src);
      expect([ours.bMarks, ours.eMarks, ours.tShift, ours.sCount, ours.lineMax]).toEqual([theirs.bMarks, theirs.eMarks, theirs.tShift, theirs.sCount, theirs.lineMax]);
    }
  });

  it('gives the blocks of documents with blank-only last lines and tabs (through the parser)', () => {
    expect(parseMarkdownBlocks('# A\n\n  ').map((b) => [b.type, b.start, b.end])).toEqual([['heading', 0, 3]]);
    expect(parseMarkdownBlocks('\t\tcode\n\ntext').map((b) => [b.type, b.start, b.end])).toEqual([
      ['code', 0, 6],
      ['paragraph', 8, 12],
    ]);
  });
});

// Lines of every kind markdown-it's rules start on, with container prefixes and indentation (tabs included), so that
// lines are tried in quotes, list items and footnotes, lazily, as paragraph continuations and as table headers.
const blockLine = fc.constantFrom(
  'plain words', 'x | y', '| a | b |', '|---|---|', '--- | ---', ':-:|--', '| 1 |', '# Title', '###### six', '####### seven', '#nospace',
  'Title', '===', '---', '- - -', '***', '___', '* * *', '```', '```js', '~~~', '````', '``` x`y', '- item', '* item', '+ item', '1. item',
  '2) item', '10. ten', '1.', '-', '> quote', '>', '<div>', '</div>', '<!-- c', '-->', '<table>', '</table>', '<?php', '?>', '<script>',
  '</script>', '<![CDATA[', ']]>', '<b>x</b>', '[a]: /u', '[a]: /u "t"', '[^1]: note', '[^x]:', '[b]: javascript:x', '[a]', '😀 日本',
  '\u00a0nbsp', '', '', '  ', '\t',
);
const prefix = fc.constantFrom('', '', '', ' ', '  ', '   ', '    ', '     ', '\t', ' \t', '> ', '>> ', '- ', '  ', '1. ', '   ', '> - ');
const blockDocument = fc
  .tuple(fc.array(fc.tuple(prefix, blockLine), { minLength: 1, maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, finalEol]) => lines.map(([p, l]) => p + l).join(eol) + (finalEol ? eol : ''));

describe('parseMarkdownBlocks: rules tried by first character', () => {
  it('finds the blocks that trying every rule on every line finds, offsets and rows included', () => {
    fc.assert(
      fc.property(blockDocument, (src) => {
        expect(parseMarkdownBlocks(src)).toEqual(parseMarkdownBlocks(src, { everyRule: true }));
      }),
      { numRuns: 3000 },
    );
  });

  it("on the repository README and this folder's notes (headings, lists, code, tables)", () => {
    for (const path of ['../../../README.md', './README.md']) {
      const src = readFileSync(new URL(path, import.meta.url), 'utf8');
      const blocks = parseMarkdownBlocks(src);
      expect(blocks).toEqual(parseMarkdownBlocks(src, { everyRule: true }));
      expect(blocks.some((b) => b.type === 'code') && blocks.some((b) => b.type === 'heading') && blocks.some((b) => b.type === 'list')).toBe(true);
    }
  });
});

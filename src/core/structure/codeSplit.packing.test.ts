import { describe, expect, it } from 'vitest';
import type { Range } from '../types';
import { getUnit } from '../units';
import type { CodeDefinition } from './code';
import { describeSpan, fitPrefix, packAtom, type Atom, type Piece } from './codeSplit';

/** Pieces as their text, each piece's atoms joined by `|`. */
const show = (text: string, pieces: Piece[]): string[] => pieces.map((p) => p.atoms.map((a) => text.slice(a.start, a.end)).join('|'));
const within = (max: number) => (r: Range): boolean => r.end - r.start <= max;

function packAll(text: string, atoms: Atom[], max: number): Piece[] {
  const pieces: Piece[] = [];
  const add = (a: Atom): void => packAtom(pieces, a, text, within(max), add);
  for (const a of atoms) add(a);
  return pieces;
}

describe('packAtom: atoms glued into pieces that start at line starts', () => {
  it('glues an atom inside a line to the piece before it, and starts a new piece at a line start', () => {
    const text = 'foo(x)\nbar';
    const pieces = packAll(text, [{ start: 0, end: 3 }, { start: 3, end: 6 }, { start: 7, end: 10 }], 100);
    expect(show(text, pieces)).toEqual(['foo|(x)', 'bar']);
    expect(pieces.map((p) => [p.start, p.end])).toEqual([
      [0, 6],
      [7, 10],
    ]);
  });

  it('keeps a closing token on its own line with the code it closes, but only while they fit', () => {
    const text = 'f {\n}';
    expect(show(text, packAll(text, [{ start: 0, end: 3 }, { start: 4, end: 5, closing: true }], 5))).toEqual(['f {|}']);
    expect(show(text, packAll(text, [{ start: 0, end: 3 }, { start: 4, end: 5, closing: true }], 4))).toEqual(['f {', '}']);
  });

  it('moves the cut back to the line start when an atom cannot join its line piece', () => {
    // `}` glued to `x {` from its line start; `y` does not fit with both: the piece is cut before `}`.
    const text = 'x {\n} y';
    const pieces = packAll(text, [{ start: 0, end: 3 }, { start: 4, end: 5, closing: true }, { start: 6, end: 7 }], 6);
    expect(show(text, pieces)).toEqual(['x {', '}|y']);
    expect(pieces.map((p) => [p.start, p.end])).toEqual([
      [0, 4],
      [4, 7],
    ]);
  });

  it('reopens the atom spanning the line start (its children are added instead) rather than cutting mid-line', () => {
    const text = 'ab\ncd ef';
    const pieces: Piece[] = [];
    const add = (a: Atom): void => packAtom(pieces, a, text, within(5), add);
    let reopened = 0;
    add({
      start: 0,
      end: 5,
      reopen: () => {
        reopened++;
        add({ start: 0, end: 2 });
        add({ start: 3, end: 5 });
      },
    });
    add({ start: 6, end: 8 });
    expect(reopened).toBe(1);
    expect(show(text, pieces)).toEqual(['ab', 'cd|ef']);
  });

  it('leaves an atom that fits nowhere else as a piece of its own, mid-line', () => {
    const text = 'aaaa bbbb';
    expect(show(text, packAll(text, [{ start: 0, end: 4 }, { start: 5, end: 9 }], 4))).toEqual(['aaaa', 'bbbb']);
  });
});

describe('fitPrefix: at most half the size, outermost signatures dropped first, then the path line', async () => {
  const unit = await getUnit('chars');
  const definitions = [
    { indent: '', signature: 'class Outer:', signatureStart: 0 },
    { indent: '    ', signature: 'def inner(self):', signatureStart: 13 },
  ] as CodeDefinition[];
  // '# file: a.py\n' is 13 chars, 'class Outer:\n' 13, '    def inner(self):\n' 21: 47 in all.
  const env = (size: number) => ({ pathLine: '# file: a.py', definitions, unit, size });

  it.each([
    [100, '# file: a.py', [0, 1], 47],
    [80, '# file: a.py', [1], 34],
    [60, '# file: a.py', [], 13],
    [20, null, [], 0],
  ])('size %i: path %s, signatures %j, prefix size %i', (size, pathLine, signatures, prefixSize) => {
    expect(fitPrefix(env(size), [0, 1])).toEqual({ pathLine, signatures, size: prefixSize });
  });

  it('is empty with no path and no enclosing definition', () => {
    expect(fitPrefix({ ...env(100), pathLine: null }, [])).toEqual({ pathLine: null, signatures: [], size: 0 });
  });
});

describe('describeSpan: the prefix a chunk carries', async () => {
  const unit = await getUnit('chars');
  const text = 'class A:\n    def f(self):\n        return 1\n';
  const definitions: CodeDefinition[] = [
    { start: 0, end: text.length, name: 'A', signature: 'class A:', signatureStart: 0, indent: '', parent: -1 },
    { start: 13, end: text.length, name: 'f', signature: 'def f(self):', signatureStart: 13, indent: '    ', parent: 0 },
  ];
  const ret = text.indexOf('return');
  const span = { start: ret, end: ret + 'return 1'.length };
  const kept = { pathLine: null, signatures: [0, 1] };

  it('repeats the enclosing signatures, each with its indentation, and the first line indentation when it fits', () => {
    const d = describeSpan({ text, definitions, unit, size: 100 }, kept, span);
    expect(d.prefix).toBe('class A:\n    def f(self):\n        ');
    expect(d.content).toBe('class A:\n    def f(self):\n        return 1');
    expect(d.signature).toBe('class A:\ndef f(self):');
    expect(d.headingPath).toEqual(['A', 'f']);
    expect(d.contentType).toBe('code');
  });

  it('drops the first-line indentation when only the signatures and the text fit', () => {
    const size = 'class A:\n    def f(self):\nreturn 1'.length;
    const d = describeSpan({ text, definitions, unit, size }, kept, span);
    expect(d.prefix).toBe('class A:\n    def f(self):\n');
    expect(d.content!.length).toBe(size);
  });

  it('leaves out signatures the chunk shows itself, and adds no prefix when none is left', () => {
    const d = describeSpan({ text, definitions, unit, size: 100 }, kept, { start: 13, end: text.length - 1 });
    expect(d.signature).toBe('class A:');
    expect(d.prefix).toBe('class A:\n    ');
    const top = describeSpan({ text, definitions, unit, size: 100 }, kept, { start: 0, end: text.length - 1 });
    expect(top.prefix).toBeUndefined();
    expect(top.content).toBeUndefined();
    expect(top.signature).toBeUndefined();
  });

  it('clears `oversize` once the content with its prefix fits the size, keeps it otherwise', () => {
    expect(describeSpan({ text, definitions, unit, size: 100 }, kept, { ...span, oversize: true }).oversize).toBeUndefined();
    expect(describeSpan({ text, definitions, unit, size: 20 }, kept, { ...span, oversize: true }).oversize).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { earlyInput, earlyKey, takeEarlyInput } from './earlyInput';

const plain = { ctrlKey: false, metaKey: false, altKey: false };

describe('earlyKey', () => {
  it('keeps every printable character, one code point, surrogate pairs included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((s) => [...s].length === 1), (ch) => {
        expect(earlyKey({ key: ch, ...plain })).toEqual({ kind: 'type', text: ch });
      }),
    );
    expect(earlyKey({ key: '😀', ...plain })).toEqual({ kind: 'type', text: '😀' });
  });

  it('turns Enter, Backspace and Delete into edits and leaves named keys, shortcuts and composition alone', () => {
    expect(earlyKey({ key: 'Enter', ...plain })).toEqual({ kind: 'type', text: '\n' });
    expect(earlyKey({ key: 'Backspace', ...plain })).toEqual({ kind: 'deleteLeft' });
    expect(earlyKey({ key: 'Delete', ...plain })).toEqual({ kind: 'deleteRight' });
    for (const key of ['ArrowLeft', 'Tab', 'Shift', 'PageDown', 'Escape', 'F5']) expect(earlyKey({ key, ...plain })).toBeNull();
    expect(earlyKey({ key: 'a', ...plain, ctrlKey: true })).toBeNull();
    expect(earlyKey({ key: 'v', ...plain, metaKey: true })).toBeNull();
    expect(earlyKey({ key: 'a', ...plain, isComposing: true })).toBeNull();
  });
});

describe('takeEarlyInput', () => {
  it('hands over what was recorded once and leaves the record empty', () => {
    earlyInput.selection = { anchor: 3, focus: 3 };
    earlyInput.keys.push({ kind: 'type', text: 'x' });
    earlyInput.scroll = { line: 4, within: 2 };
    expect(takeEarlyInput()).toEqual({ selection: { anchor: 3, focus: 3 }, keys: [{ kind: 'type', text: 'x' }], scroll: { line: 4, within: 2 } });
    expect(takeEarlyInput()).toEqual({ selection: null, keys: [], scroll: null });
  });
});

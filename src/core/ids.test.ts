import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkIdMaker, documentIdFor, hashString } from './ids';

describe('hashString', () => {
  it('gives different hashes to different strings (random Unicode, including lone surrogates)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (a, b) => {
        fc.pre(a !== b);
        expect(hashString(a)).not.toBe(hashString(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('is 11 base-36 digits and depends on the seed', () => {
    expect(hashString('chunk')).toMatch(/^[0-9a-z]{11}$/);
    expect(hashString('')).toMatch(/^[0-9a-z]{11}$/);
    expect(hashString('chunk', 1)).not.toBe(hashString('chunk'));
  });

  it('tells a lone surrogate from U+FFFD, which UTF-8 encodes the same', () => {
    expect(hashString('a\ud800b')).not.toBe(hashString('a\ufffdb'));
    expect(hashString('a\udc00b')).not.toBe(hashString('a\ud800b'));
  });

  it('sees every character of a long text, across the encoder blocks', () => {
    const base = 'The quick brown fox jumps over the lazy dog. '.repeat(5000); // 225k units: many blocks
    const seen = new Set([hashString(base)]);
    for (const at of [0, 16383, 16384, 100_000, base.length - 1]) {
      const changed = base.slice(0, at) + 'X' + base.slice(at + 1);
      seen.add(hashString(changed));
    }
    seen.add(hashString(base + ' '));
    expect(seen.size).toBe(7);
  });

  it('keeps a surrogate pair that straddles a block edge whole (differs from both halves replaced)', () => {
    const pad = 'a'.repeat(16383);
    const withEmoji = pad + '\u{1F600}' + 'tail';
    expect(hashString(withEmoji)).not.toBe(hashString(pad + '\ufffd\ufffd' + 'tail'));
    expect(hashString(withEmoji)).not.toBe(hashString(pad + '\u{1F601}' + 'tail'));
  });
});

describe('documentIdFor', () => {
  it('is the hash of the text, the same on a second call and for an equal string built another way', () => {
    const text = 'one\n\ntwo';
    const id = documentIdFor(text);
    expect(id).toBe('doc-' + hashString(text));
    expect(documentIdFor(['one', 'two'].join('\n\n'))).toBe(id);
    expect(documentIdFor(text + '!')).not.toBe(id);
  });
});

describe('ids stay the same across releases', () => {
  // Ids are stored in people's indexes (LanceDB, JSONL): a faster hash or digit writer must give the same strings.
  it('hashString and chunk ids are the values they have always been', () => {
    expect(hashString('hello')).toBe('2de7qcdfz5v');
    expect(hashString('')).toBe('1t7arkgt4h1');
    const id = chunkIdMaker('doc-x', '{}');
    expect(id(0, 1000)).toBe('0hl1ifecpc7');
    expect(id(70000, 2 ** 31 - 1)).toBe('2962g8m3hvj');
  });
});

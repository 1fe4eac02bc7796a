import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  SHARE_FRAGMENT_LIMIT,
  SHARE_TEXT_CAP,
  decodeShareFragment,
  encodeShareFragment,
  fromBase64Url,
  hasSharedDocument,
  makeShareFile,
  parseShareFile,
  shareFileName,
  shareLink,
  ShareLinkError,
  toBase64Url,
} from './shareLink';

describe('share link fragment', () => {
  it('round-trips a document and its name', () => {
    const doc = { text: '# Handbook\n\nVacation: 25 days. “Quotes”, emoji 🧩, CJK 日本語.\r\n', name: 'my notes (v2).md' };
    const fragment = encodeShareFragment(doc);
    expect(fragment.startsWith('doc=')).toBe(true);
    expect(hasSharedDocument(`#${fragment}`)).toBe(true);
    expect(decodeShareFragment(`#${fragment}`)).toEqual(doc);
    expect(decodeShareFragment(fragment)).toEqual(doc);
  });

  it('keeps the fragment URL-safe: nothing a browser would escape or send', () => {
    const fragment = encodeShareFragment({ text: 'a'.repeat(1000) + 'é\u0000\uFFFF', name: 'a b&c=d#e.txt' });
    const url = new URL(`https://example.test/?strategy=fixed#${fragment}`);
    expect(url.hash.slice(1)).toBe(fragment);
    expect(decodeShareFragment(url.hash)).toEqual({ text: 'a'.repeat(1000) + 'é\u0000\uFFFF', name: 'a b&c=d#e.txt' });
  });

  it('round-trips arbitrary Unicode text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: null }), (text, name) => {
        const decoded = decodeShareFragment(encodeShareFragment({ text, name }));
        expect(decoded).toEqual({ text, name: name ? name : null });
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips strings of composite graphemes (combining marks, ZWJ emoji) exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 500 }), (text) => {
        expect(decodeShareFragment(encodeShareFragment({ text, name: null }))?.text).toBe(text);
      }),
    );
  });

  it('base64url round-trips every byte string', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(Array.from(fromBase64Url(text))).toEqual(Array.from(bytes));
      }),
    );
  });

  it('a fragment without a document is not a shared document', () => {
    expect(hasSharedDocument('')).toBe(false);
    expect(hasSharedDocument('#section-2')).toBe(false);
    expect(decodeShareFragment('#name=x.md')).toBeNull();
  });

  it('a damaged or cut-off fragment fails with one plain line', () => {
    const fragment = encodeShareFragment({ text: 'Some text that compresses. '.repeat(50), name: null });
    expect(() => decodeShareFragment(fragment.slice(0, 20))).toThrow(ShareLinkError);
    expect(() => decodeShareFragment('doc=@@@')).toThrow(/damaged/);
  });

  it('a crafted fragment that expands past the cap is refused', () => {
    const bomb = toBase64Url(deflateSync(new Uint8Array(SHARE_TEXT_CAP + 10).fill(97), { level: 9 }));
    expect(bomb.length).toBeLessThan(SHARE_FRAGMENT_LIMIT);
    expect(() => decodeShareFragment(`doc=${bomb}`)).toThrow(/larger than 8 MB/);
  });
});

describe('share link size limit', () => {
  it('makes a link with the configuration in the query and the document in the fragment', () => {
    const result = shareLink('http://localhost:4173/?strategy=recursive&size=120#old', { text: 'Hello', name: 'a.md' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const url = new URL(result.url);
    expect(url.search).toBe('?strategy=recursive&size=120');
    expect(decodeShareFragment(url.hash)).toEqual({ text: 'Hello', name: 'a.md' });
    expect(result.fragmentLength).toBeLessThanOrEqual(SHARE_FRAGMENT_LIMIT);
  });

  it('past the limit: no link, and a message that states the sizes and the share file', () => {
    // Random words compress poorly: ~100 KB of them is far past 32 KB compressed.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = Array.from({ length: 20_000 }, () => Math.floor(rnd() * 1e9).toString(36)).join(' ');
    const result = shareLink('http://localhost:4173/?strategy=fixed', { text, name: null });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fragmentLength).toBeGreaterThan(SHARE_FRAGMENT_LIMIT);
    expect(result.message).toMatch(/too large for a link/);
    expect(result.message).toContain('links carry up to 32,000');
    expect(result.message).toMatch(/Download a share file/);
  });

  it('the limit is on the fragment: a document right at the limit still makes a link', () => {
    const doc = { text: 'x'.repeat(50_000), name: null };
    const length = encodeShareFragment(doc).length;
    expect(shareLink('http://h/?a=1', doc, length).ok).toBe(true);
    expect(shareLink('http://h/?a=1', doc, length - 1).ok).toBe(false);
  });
});

describe('share file', () => {
  it('round-trips the configuration query and the document', () => {
    const text = makeShareFile('?strategy=recursive&size=120', { text: 'Body\n', name: 'notes.md' });
    expect(parseShareFile(text)).toEqual({ kind: 'chunkscope-share', version: 1, query: 'strategy=recursive&size=120', document: { name: 'notes.md', text: 'Body\n' } });
  });

  it('other JSON is not a share file; a damaged share file says so', () => {
    expect(parseShareFile('{"chunks":[]}')).toBeNull();
    expect(parseShareFile('not json chunkscope-share')).toBeNull();
    expect(() => parseShareFile('{"kind":"chunkscope-share","version":1,"query":"x"}')).toThrow(/damaged/);
    expect(() => parseShareFile('{"kind":"chunkscope-share","version":9,"query":"","document":{"text":""}}')).toThrow(/version 9/);
  });

  it('names the file after the document', () => {
    expect(shareFileName('Employee handbook.md')).toBe('Employee-handbook.chunkscope.json');
    expect(shareFileName(null)).toBe('document.chunkscope.json');
  });
});

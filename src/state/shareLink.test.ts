import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Hex } from './crc32';
import {
  SHARE_FRAGMENT_LIMIT,
  SHARE_TEXT_CAP,
  decodeShareFragment,
  encodeLegacyShareFragment,
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
    expect(fragment).toMatch(/^v=2&len=\d+&crc=[0-9a-f]{8}&doc=/);
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
    // Version 2: the declared length is checked first, and a payload longer than it declares is refused.
    expect(() => decodeShareFragment(`v=2&len=${SHARE_TEXT_CAP + 10}&crc=00000000&doc=${bomb}`)).toThrow(/larger than 8 MB/);
    expect(() => decodeShareFragment(`v=2&len=10&crc=00000000&doc=${bomb}`)).toThrow(/^This link is damaged/);
  });
});

describe('share links verify themselves (issue 29)', () => {
  const doc = { text: 'Vacation: 25 days. Sick leave: 10 days.\n'.repeat(40), name: 'policy.md' };

  it('CRC-32 is the standard one (zip, gzip, PNG)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32Hex(new Uint8Array(0))).toBe('00000000');
  });

  it('1.9 M × "Q" after #doc= (it inflates as raw DEFLATE to junk) is damaged, not opened', () => {
    expect(() => decodeShareFragment(`#doc=${'Q'.repeat(1_900_000)}`)).toThrow(/^This link is damaged: it is longer than any link/);
  });

  it('an empty payload is damaged (it said "larger than 8 MB")', () => {
    expect(() => decodeShareFragment('#doc=')).toThrow(/^This link is damaged: it carries no document/);
    expect(() => decodeShareFragment('#v=2&len=0&crc=00000000&doc=')).toThrow(/^This link is damaged/);
    expect(() => decodeShareFragment('#doc=&name=x.md')).toThrow(/^This link is damaged/);
  });

  it('an empty document still travels in version 2', () => {
    expect(decodeShareFragment(encodeShareFragment({ text: '', name: null }))).toEqual({ text: '', name: null });
  });

  it('a wrong version, a missing or wrong length or checksum is damaged', () => {
    const fragment = encodeShareFragment(doc);
    expect(() => decodeShareFragment(fragment.replace('v=2', 'v=3'))).toThrow(/damaged: its format version is "3"/);
    expect(() => decodeShareFragment(fragment.replace(/crc=[0-9a-f]{8}&/, ''))).toThrow(/damaged: its length or checksum is missing/);
    expect(() => decodeShareFragment(fragment.replace(/len=\d+/, 'len=12'))).toThrow(/does not match/);
    expect(() => decodeShareFragment(fragment.replace(/crc=([0-9a-f])/, (_m, c: string) => `crc=${c === '0' ? '1' : '0'}`))).toThrow(/does not match/);
  });

  it('every cut and every flipped character of a version 2 link is refused or gives the exact document (property)', () => {
    const fragment = encodeShareFragment(doc);
    const start = fragment.indexOf('&doc=') + 5;
    const payloadEnd = fragment.indexOf('&name=');
    fc.assert(
      fc.property(fc.integer({ min: start, max: payloadEnd - 1 }), fc.integer({ min: 0, max: 63 }), fc.boolean(), (at, symbol, cut) => {
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const broken = cut ? fragment.slice(0, at) : fragment.slice(0, at) + alphabet[symbol] + fragment.slice(at + 1);
        let opened: unknown;
        try {
          opened = decodeShareFragment(broken);
        } catch (err) {
          expect(err).toBeInstanceOf(ShareLinkError);
          expect((err as Error).message).toMatch(/^This link is damaged: [^\n]+\.$/);
          return;
        }
        expect((opened as { text: string }).text).toBe(doc.text);
      }),
      { numRuns: 400 },
    );
  });

  it('links in the old format (no version, no checksum) still open', () => {
    expect(decodeShareFragment(encodeLegacyShareFragment(doc))).toEqual(doc);
    expect(decodeShareFragment(encodeLegacyShareFragment({ text: 'x', name: null }))).toEqual({ text: 'x', name: null });
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

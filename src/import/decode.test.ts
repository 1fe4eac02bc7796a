import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextSniffer, DecodeError, decodeDocumentBytes } from './decode';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-decode-'));
const utf8 = (s: string) => new TextEncoder().encode(s);
const BOM8 = [0xef, 0xbb, 0xbf];

function utf16(s: string, order: 'le' | 'be'): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  out.set(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    out[2 + 2 * i + (order === 'le' ? 0 : 1)] = u & 0xff;
    out[2 + 2 * i + (order === 'le' ? 1 : 0)] = u >> 8;
  }
  return out;
}

/** The sniffer fed in blocks of `size` bytes: the same verdict as decoding the whole. */
function sniff(bytes: Uint8Array, size: number): DecodeError | null {
  const sniffer = createTextSniffer();
  try {
    for (let i = 0; i < bytes.length; i += size) sniffer.push(bytes.subarray(i, i + size));
    sniffer.end();
    return null;
  } catch (err) {
    if (err instanceof DecodeError) return err;
    throw err;
  }
}

describe('decodeDocumentBytes: one rule for encodings', () => {
  it('keeps a UTF-8 BOM as U+FEFF at offset 0, as readFileSync(f, "utf8") does', () => {
    const bytes = new Uint8Array([...BOM8, ...utf8('Héllo\r\nworld')]);
    const path = join(dir, 'bom.txt');
    writeFileSync(path, bytes);
    const decoded = decodeDocumentBytes(bytes);
    expect(decoded.text).toBe(readFileSync(path, 'utf8'));
    expect(decoded.text.charCodeAt(0)).toBe(0xfeff);
    expect(decoded).toMatchObject({ encoding: 'utf-8-bom', bom: true });
    expect(decoded.notes[0]).toMatch(/byte-order mark/);
    expect(decodeDocumentBytes(utf8('plain'))).toEqual({ text: 'plain', encoding: 'utf-8', bom: false, notes: [] });
    expect(decodeDocumentBytes(new Uint8Array())).toEqual({ text: '', encoding: 'utf-8', bom: false, notes: [] });
  });

  it('decodes UTF-16 LE and BE with a BOM (kept as character 0), and says so', () => {
    const text = 'Grüße — 𝄞 ok\r\n';
    const le = decodeDocumentBytes(utf16(text, 'le'));
    expect(le).toMatchObject({ text: '\ufeff' + text, encoding: 'utf-16le', bom: true });
    const path = join(dir, 'le.txt');
    writeFileSync(path, utf16(text, 'le'));
    expect(le.text).toBe(readFileSync(path, 'utf16le'));
    expect(decodeDocumentBytes(utf16(text, 'be'))).toMatchObject({ text: '\ufeff' + text, encoding: 'utf-16be', bom: true });
    expect(le.notes[0]).toMatch(/UTF-16 little-endian/);
  });

  it('refuses NULs, invalid UTF-8, broken UTF-16 and BOM-less UTF-16, each with its reason', () => {
    const reason = (b: Uint8Array) => {
      try {
        decodeDocumentBytes(b);
        return null;
      } catch (err) {
        return (err as DecodeError).failure;
      }
    };
    expect(reason(new Uint8Array([104, 0, 105]))).toBe('binary');
    expect(reason(new Uint8Array([0x47, 0x72, 0xfc, 0xdf, 0x65]))).toBe('invalid-utf8');
    expect(reason(new Uint8Array([0xff, 0xfe, 0x41]))).toBe('invalid-utf16'); // odd length
    expect(reason(new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]))).toBe('invalid-utf16'); // lone surrogate
    expect(reason(utf16('hello world, plain ASCII', 'le').subarray(2))).toBe('utf16-without-bom');
    expect(reason(utf16('a\0b', 'le'))).toBe('binary');
  });

  it('property: every file decodes to readFileSync(f, "utf8") or is refused for its NUL; the sniffer agrees', () => {
    const piece = fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('\r\n', '\n', '\r', '\0', '\ufeff', ' ', 'é', '𝄞'));
    let i = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 700 }), (bom, pieces, block) => {
        const text = pieces.join('');
        const bytes = new Uint8Array([...(bom ? BOM8 : []), ...utf8(text)]);
        const path = join(dir, `p${i++ % 50}.txt`);
        writeFileSync(path, bytes);
        const sniffed = sniff(bytes, block);
        if (text.includes('\0')) {
          expect(() => decodeDocumentBytes(bytes)).toThrow(DecodeError);
          expect(sniffed?.failure).toMatch(/binary|utf16-without-bom/);
          return;
        }
        expect(sniffed).toBeNull();
        const decoded = decodeDocumentBytes(bytes);
        expect(decoded.text).toBe(readFileSync(path, 'utf8'));
        expect(decoded.encoding).toBe(bom ? 'utf-8-bom' : text.startsWith('\ufeff') ? 'utf-8-bom' : 'utf-8');
      }),
      { seed: 29, numRuns: 300 },
    );
  });

  it('the sniffer refuses random bytes and zeros in the first block, and invalid UTF-8 cut across blocks', () => {
    const random = new Uint8Array(65536);
    let x = 12345;
    for (let i = 0; i < random.length; i++) random[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    expect(sniff(random, 65536)?.failure).toMatch(/invalid-utf8|binary/);
    expect(sniff(new Uint8Array(65536), 65536)?.failure).toBe('binary');
    // "é" split between two blocks is fine; a file that stops inside it is not.
    expect(sniff(utf8('a'.repeat(600) + 'é'), 601)).toBeNull();
    expect(sniff(utf8('a'.repeat(600) + 'é').subarray(0, 601), 300)?.failure).toBe('invalid-utf8');
  });
});

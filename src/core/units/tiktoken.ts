import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { TokenEncodingName, TokenSpan, Unit } from '../types';

/**
 * BPE token counts with js-tiktoken. Ranks are bundled with the package and imported lazily, one file per
 * encoding, so nothing is fetched at run time and the page only loads the encoding it uses.
 *
 * Counting is cached per pre-token piece: tiktoken first splits text with its pattern and then runs BPE on each
 * piece independently, so the count of a text is exactly the sum of its pieces' counts. Re-counting the same
 * document after a slider move then costs one regex pass plus map look-ups instead of BPE.
 */

const RANK_LOADERS: Record<TokenEncodingName, () => Promise<{ default: TiktokenBPE }>> = {
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  p50k_base: () => import('js-tiktoken/ranks/p50k_base'),
  r50k_base: () => import('js-tiktoken/ranks/r50k_base'),
  gpt2: () => import('js-tiktoken/ranks/gpt2'),
};

export const TOKEN_ENCODINGS = Object.keys(RANK_LOADERS) as TokenEncodingName[];

/** Pieces longer than this are not cached (they are rare and would bloat the cache). */
const MAX_CACHED_PIECE = 64;

export class TiktokenUnit implements Unit {
  readonly name: TokenEncodingName;
  readonly encoder: Tiktoken;
  private readonly pattern: RegExp;
  private readonly pieceCounts = new Map<string, number>();

  constructor(name: TokenEncodingName, ranks: TiktokenBPE) {
    this.name = name;
    this.encoder = new Tiktoken(ranks);
    this.pattern = new RegExp(ranks.pat_str, 'gu');
  }

  /** Encode as ordinary text: special-token strings such as <|endoftext|> are not special here. */
  encode(text: string): number[] {
    return this.encoder.encode(text, [], []);
  }

  decode(ids: number[]): string {
    return this.encoder.decode(ids);
  }

  count(text: string): number {
    let total = 0;
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const piece = m[0];
      if (piece.length > MAX_CACHED_PIECE) {
        total += this.encoder.encode(piece, [], []).length;
        continue;
      }
      let n = this.pieceCounts.get(piece);
      if (n === undefined) {
        n = this.encoder.encode(piece, [], []).length;
        this.pieceCounts.set(piece, n);
      }
      total += n;
    }
    return total;
  }

  /**
   * Tokens with UTF-16 offsets. A token that ends inside a multi-byte character (emoji, CJK split across
   * tokens) gets its end moved to the end of that character, so a span is never a half character; the next
   * token then starts there and may be empty (start === end).
   */
  tokenize(text: string): TokenSpan[] {
    const spans: TokenSpan[] = [];
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const piece = m[0];
      const ids = this.encoder.encode(piece, [], []);
      if (ids.length === 1) {
        spans.push({ start: m.index, end: m.index + piece.length, ids });
        continue;
      }
      // Map each token's byte length back to UTF-16 offsets within the piece.
      const charByteEnds = utf8CharEnds(piece);
      let byteEnd = 0;
      let ci = 0; // index into charByteEnds
      let prev = m.index;
      for (const id of ids) {
        byteEnd += this.tokenByteLength(id);
        while (ci < charByteEnds.length && charByteEnds[ci]!.bytes < byteEnd) ci++;
        const end = ci < charByteEnds.length ? m.index + charByteEnds[ci]!.utf16 : m.index + piece.length;
        spans.push({ start: prev, end, ids: [id] });
        prev = end;
      }
    }
    return spans;
  }

  private readonly byteLengths = new Map<number, number>();
  private tokenByteLength(id: number): number {
    let n: number | undefined = this.byteLengths.get(id);
    if (n === undefined) {
      // js-tiktoken keeps the token bytes privately; decoding a lone token and re-encoding is lossy for partial
      // UTF-8, so read the byte table it exposes at run time.
      const bytes = (this.encoder as unknown as { textMap: Map<number, Uint8Array> }).textMap.get(id);
      n = bytes ? bytes.length : utf8Length(this.encoder.decode([id]));
      this.byteLengths.set(id, n);
    }
    return n;
  }
}

/** For each character of `s`: the UTF-8 byte offset and UTF-16 offset just after it. */
function utf8CharEnds(s: string): { bytes: number; utf16: number }[] {
  const out: { bytes: number; utf16: number }[] = [];
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    // Lone surrogates encode as U+FFFD (3 bytes), matching TextEncoder.
    i += units;
    out.push({ bytes, utf16: i });
  }
  return out;
}

function utf8Length(s: string): number {
  const ends = utf8CharEnds(s);
  return ends.length ? ends[ends.length - 1]!.bytes : 0;
}

const loaded = new Map<TokenEncodingName, Promise<TiktokenUnit>>();

/** One cached unit per encoding for the life of the process or worker (its piece cache is the speed-up). */
export function loadTiktokenUnit(name: TokenEncodingName): Promise<TiktokenUnit> {
  let p = loaded.get(name);
  if (!p) {
    p = RANK_LOADERS[name]().then((mod) => new TiktokenUnit(name, mod.default));
    loaded.set(name, p);
  }
  return p;
}

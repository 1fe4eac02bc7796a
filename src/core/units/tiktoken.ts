import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { TokenEncodingName, TokenSpan, Unit } from '../types';
import { BytePairEncoder } from './bpe';

/**
 * BPE tokens of the tiktoken encodings: js-tiktoken's pattern and bundled ranks (imported lazily, one file per
 * encoding, so nothing is fetched at run time and the page only loads the encoding it uses), merged by our own
 * BytePairEncoder (bpe.ts), which gives js-tiktoken's token ids (property-tested) several times faster and in
 * O(n log n) on a giant piece, where js-tiktoken's merge is quadratic.
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

export interface PreTokenTable {
  starts: Int32Array;
  ends: Int32Array;
  countsBefore: Float64Array;
  pieceAt: Int32Array;
}

export class TiktokenUnit implements Unit {
  readonly name: TokenEncodingName;
  readonly bpe: BytePairEncoder;
  private readonly pattern: RegExp;
  private readonly sticky: RegExp;
  private readonly pieceCounts = new Map<string, number>();
  private readonly ranks: TiktokenBPE;
  private jsTiktoken: Tiktoken | null = null;

  constructor(name: TokenEncodingName, ranks: TiktokenBPE, bpe?: BytePairEncoder) {
    this.name = name;
    this.ranks = ranks;
    this.bpe = bpe ?? new BytePairEncoder(ranks);
    this.pattern = new RegExp(ranks.pat_str, 'gu');
    this.sticky = new RegExp(ranks.pat_str, 'yu');
  }

  /**
   * A js-tiktoken encoder on the same ranks, built on first use (about 0.4 s for cl100k): for code that reads its
   * byte table or special tokens. Chunking itself never needs it.
   */
  get encoder(): Tiktoken {
    return (this.jsTiktoken ??= new Tiktoken(this.ranks));
  }

  /** The same encoding with empty caches (sharing the rank tables): what a fresh worker has, for benchmarks. */
  withEmptyCaches(): TiktokenUnit {
    return new TiktokenUnit(this.name, this.ranks, this.bpe);
  }

  /** The encoding's special-token strings and ids. */
  get specialTokens(): Record<string, number> {
    return this.bpe.specialTokens;
  }

  /** Encode as ordinary text: special-token strings such as <|endoftext|> are not special here. */
  encode(text: string): number[] {
    const ids: number[] = [];
    let p = 0;
    while (p < text.length) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      for (const id of this.bpe.encodePiece(text.slice(p, q))) ids.push(id);
      p = q;
    }
    return ids;
  }

  decode(ids: number[]): string {
    return this.bpe.decode(ids);
  }

  /** UTF-8 bytes in token `id`. */
  tokenByteLength(id: number): number {
    return this.bpe.byteLength(id);
  }

  /**
   * Where the pre-token piece that starts at `p` ends. The encodings' patterns match every character (letters,
   * digits, whitespace and "anything else" each have an alternative), so pieces tile the text and a sticky match at
   * the end of the previous piece finds exactly what a global scan finds, without allocating a match array.
   */
  private pieceEnd(text: string, p: number): number {
    const sticky = this.sticky;
    sticky.lastIndex = p;
    if (sticky.test(text) && sticky.lastIndex > p) return sticky.lastIndex;
    // Not reached with the bundled patterns; a global scan would skip this character, so do the same.
    const pattern = this.pattern;
    pattern.lastIndex = p;
    const m = pattern.exec(text);
    return m ? -m.index - 1 : -text.length - 1;
  }

  count(text: string): number {
    return this.countUpTo(text, Infinity);
  }

  /** count(text) when it is at most `limit`; otherwise some number over `limit` (counting stops there). */
  countUpTo(text: string, limit: number): number {
    let total = 0;
    const n = text.length;
    let p = 0;
    while (p < n) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      total += this.countPiece(text.slice(p, q));
      if (total > limit) return total;
      p = q;
    }
    return total;
  }

  /** Tokens in one pre-token piece, cached for short pieces (long ones are rare and would bloat the cache). */
  private countPiece(piece: string): number {
    if (piece.length > MAX_CACHED_PIECE) return this.bpe.countPiece(piece);
    let n = this.pieceCounts.get(piece);
    if (n === undefined) {
      n = this.bpe.countPiece(piece);
      this.pieceCounts.set(piece, n);
    }
    return n;
  }

  /**
   * The pre-token pieces of a whole document with their token counts, for counting its spans quickly:
   * starts/ends[i] are piece i's UTF-16 range, countsBefore[i] the tokens of pieces 0..i-1 (length pieces + 1),
   * and pieceAt[p] is i + 1 when a piece starts at offset p (0 otherwise).
   */
  preTokens(text: string): PreTokenTable {
    const n = text.length;
    // Pieces average 4-5 characters in prose; grow when the guess is short.
    let starts = new Int32Array(Math.max(16, n >> 2));
    let ends = new Int32Array(starts.length);
    let counts = new Float64Array(starts.length + 1);
    const pieceAt = new Int32Array(n + 1);
    let k = 0;
    let p = 0;
    while (p < n) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      if (k === starts.length) {
        starts = grow(starts);
        ends = grow(ends);
        const c2 = new Float64Array(starts.length + 1);
        c2.set(counts);
        counts = c2;
      }
      pieceAt[p] = k + 1;
      starts[k] = p;
      ends[k] = q;
      counts[k + 1] = counts[k]! + this.countPiece(text.slice(p, q));
      k++;
      p = q;
    }
    return { starts: starts.slice(0, k), ends: ends.slice(0, k), countsBefore: counts.slice(0, k + 1), pieceAt };
  }

  /**
   * Exactly count(source.slice(start, end)) — the slice is pre-tokenized for real where that can differ from the
   * document — with the pieces in between taken from the document's table, so a span costs its two edge pieces, not
   * its length.
   *
   * Why that is exact: the encodings' patterns have no lookbehind and no anchors, so scanning the slice from any
   * position where its scan and the document's both start a piece repeats the document's pieces for as long as
   * the pattern only looks at characters inside the slice. It does, for every piece that ends at a position
   * holding a non-whitespace character (the runs each alternative scans end at the first character outside their
   * class, whitespace runs end at that character, and the one lookahead, (?!\S), sits on whitespace). So the slice
   * is scanned until one of its pieces ends on a document piece start ("resync"); the table gives the pieces from
   * there to a document piece start followed by a non-whitespace character near the end (or to the end itself,
   * when the span ends a document piece with a non-whitespace character); the rest is scanned again.
   * tiktoken.countSpan.test.ts checks this against count(slice) on spans anywhere.
   */
  countSpan(source: string, start: number, end: number, table: PreTokenTable): number {
    if (end <= start) return 0;
    const { pieceAt, countsBefore } = table;
    const text = source.slice(start, end);
    const n = text.length;
    let total = 0;
    let p = 0;
    // Scan until the slice's pieces meet a document piece start.
    while (p < n && (p === 0 ? pieceAt[start]! === 0 : pieceAt[start + p]! === 0)) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      total += this.countPiece(text.slice(p, q));
      p = q;
    }
    if (p >= n) return total;
    const first = pieceAt[start + p]! - 1; // document piece where the slice's scan now agrees
    // Where the table stops: the span's end, if it ends a document piece with a non-whitespace character;
    // otherwise the last document piece start before the end that holds a non-whitespace character.
    let stop: number; // table index one past the last piece taken
    let tail: number; // slice offset where scanning resumes
    const endsPiece = end === source.length || pieceAt[end]! > 0;
    if (endsPiece && !isPatternSpace(source.charCodeAt(end - 1))) {
      stop = end === source.length ? table.ends.length : pieceAt[end]! - 1;
      tail = n;
    } else {
      let k = end - 1;
      while (k > start + p && (pieceAt[k]! === 0 || isPatternSpace(source.charCodeAt(k)))) k--;
      stop = pieceAt[k]! - 1;
      tail = k - start;
    }
    if (stop > first) total += countsBefore[stop]! - countsBefore[first]!;
    else tail = p;
    p = tail;
    while (p < n) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      total += this.countPiece(text.slice(p, q));
      p = q;
    }
    return total;
  }

  /**
   * Tokens with UTF-16 offsets. A token that ends inside a multi-byte character (emoji, CJK split across
   * tokens) gets its end moved to the end of that character, so a span is never a half character; the next
   * token then starts there and may be empty (start === end).
   * Cached per pre-token piece, and the last text's result is kept (a slider move re-tokenizes the same document).
   */
  tokenize(text: string): TokenSpan[] {
    if (this.lastTokenized && this.lastTokenized.text === text) return this.lastTokenized.spans;
    const spans: TokenSpan[] = [];
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const piece = m[0];
      const at = m.index;
      const { ids, ends } = this.tokenizePiece(piece);
      let prev = at;
      for (let t = 0; t < ids.length; t++) {
        const end = at + ends[t]!;
        spans.push({ start: prev, end, ids: [ids[t]!] });
        prev = end;
      }
    }
    this.lastTokenized = { text, spans };
    return spans;
  }

  private lastTokenized: { text: string; spans: TokenSpan[] } | null = null;
  private readonly pieceTokens = new Map<string, { ids: number[]; ends: number[] }>();

  /** Token ids of one piece with each token's end as a UTF-16 offset in the piece (widened to whole characters). */
  private tokenizePiece(piece: string): { ids: number[]; ends: number[] } {
    const cached = piece.length <= MAX_CACHED_PIECE ? this.pieceTokens.get(piece) : undefined;
    if (cached) return cached;
    const ids = this.bpe.encodePiece(piece);
    let ends: number[];
    if (ids.length === 1) {
      ends = [piece.length];
    } else {
      // Map each token's byte length back to UTF-16 offsets within the piece.
      const charByteEnds = utf8CharEnds(piece);
      ends = [];
      let byteEnd = 0;
      let ci = 0; // index into charByteEnds
      for (const id of ids) {
        byteEnd += this.bpe.byteLength(id);
        while (ci < charByteEnds.length && charByteEnds[ci]!.bytes < byteEnd) ci++;
        ends.push(ci < charByteEnds.length ? charByteEnds[ci]!.utf16 : piece.length);
      }
    }
    const result = { ids, ends };
    if (piece.length <= MAX_CACHED_PIECE) this.pieceTokens.set(piece, result);
    return result;
  }

}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** `\s` of the encodings' patterns (JavaScript's, with the u flag). */
function isPatternSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
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

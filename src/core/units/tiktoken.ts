import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { TokenEncodingName, TokenSpan, Unit } from '../types';
import { documentCache, instanceKey } from '../documentCache';
import { BytePairEncoder } from './bpe';
import { lowerBound, upperBound } from '../sorted';
import type { SpanMeter } from './meter';
import { tiktokenMeter } from './tiktokenMeter';
import { TOKEN_ENCODINGS } from './tokens';

/**
 * BPE tokens of the tiktoken encodings: js-tiktoken's pattern and bundled ranks (imported lazily, one file per
 * encoding, so nothing is fetched at run time and the page only loads the encoding it uses), merged by our own
 * BytePairEncoder (bpe.ts), which gives js-tiktoken's token ids (property-tested) several times faster, and in
 * linear time on a giant piece (bpeBacktrack.ts), where js-tiktoken's merge is quadratic.
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

export { TOKEN_ENCODINGS };

/** Pieces longer than this are not cached (they are rare and would bloat the cache). */
const MAX_CACHED_PIECE = 64;

export interface PreTokenTable {
  starts: Int32Array;
  ends: Int32Array;
  countsBefore: Float64Array;
  /** Pieces longer than GIANT_PIECE, by piece index: their tokens' exact boundaries (see GiantPiece). */
  giant: Map<number, GiantPiece>;
}

/**
 * The tokens of one long piece of a document, as the places between characters where one token ends and the next
 * begins (`at`, document offsets, from the piece's start to its end) and the tokens before each (`before`).
 *
 * Why this counts sub-spans exactly: BPE only ever joins parts, so a boundary in the final tokens of a piece is one
 * no merge crossed; the merges on either side are then the ones BPE of each side alone would make, in the same
 * order (each was the least pair of its side when it was made). So BPE of the piece's text from one boundary to
 * another is exactly the piece's tokens in between, and a span of a giant piece between two boundaries costs two
 * binary searches instead of a quadratic-looking BPE of the span.
 */
export interface GiantPiece {
  ids: number[];
  at: Int32Array;
  before: Int32Array;
}

/** Tokens as parallel arrays: token i is ids[i] over [starts[i], ends[i]) (see TiktokenUnit.tokenOffsets). */
export interface TokenOffsets {
  ids: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
}

/** Estimated bytes of one TokenSpan object with its one-id array. */
const TOKEN_SPAN_BYTES = 96;

/** Estimated bytes of a pre-token table: its arrays' buffers (views keep the whole buffer) and its giant pieces. */
function tableBytes(table: PreTokenTable): number {
  let bytes = table.starts.buffer.byteLength + table.ends.buffer.byteLength + table.countsBefore.buffer.byteLength;
  for (const g of table.giant.values()) bytes += g.ids.length * 8 + g.at.byteLength + g.before.byteLength + 64;
  return bytes;
}

/** Pieces at least this long (UTF-16 units) keep their token boundaries in the pre-token table. */
const GIANT_PIECE = 256;

/** Units matched at a time when a pre-token piece is too long for the regex engine (see pieceEnd). */
const PIECE_WINDOW = 1 << 20;

export class TiktokenUnit implements Unit {
  readonly name: TokenEncodingName;
  /** What isTiktokenUnit (./unit.ts) asks, so code that only needs to know what a unit is imports no class. */
  readonly countsTiktokenTokens = true;
  readonly bpe: BytePairEncoder;

  /** How it counts spans of one source (the descriptor's meter, tokens.ts, which holds no import of this file). */
  spanMeter(source: string): SpanMeter {
    return tiktokenMeter(this, source);
  }

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
      const piece = text.slice(p, q);
      const whole = this.bpe.wholeToken(piece);
      if (whole !== undefined) ids.push(whole);
      else for (const id of this.tokenizePiece(piece).ids) ids.push(id);
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
    // The rest of a piece already found too long: no second attempt (each failed one costs a quarter second).
    if (this.windowedUntil && this.windowedUntil.at === p && this.windowedUntil.text === text) return this.pieceEndInWindow(text, p);
    sticky.lastIndex = p;
    let matched: boolean;
    try {
      matched = sticky.test(text);
    } catch (error) {
      // V8's regex engine runs out of stack on a piece of several million symbols (a 16 MiB line of emoji), where
      // js-tiktoken throws. Such a piece is matched PIECE_WINDOW units at a time instead: it is cut there, so its
      // token count may differ from one BPE of the whole by a token or two per cut.
      if (!(error instanceof RangeError)) throw error;
      return this.pieceEndInWindow(text, p);
    }
    if (matched && sticky.lastIndex > p) return sticky.lastIndex;
    // Not reached with the bundled patterns; a global scan would skip this character, so do the same.
    const pattern = this.pattern;
    pattern.lastIndex = p;
    const m = pattern.exec(text);
    return m ? -m.index - 1 : -text.length - 1;
  }

  /** pieceEnd on text[p, p + PIECE_WINDOW) (never splitting a surrogate pair): see pieceEnd. */
  private pieceEndInWindow(text: string, p: number): number {
    let end = Math.min(text.length, p + PIECE_WINDOW);
    if (end < text.length && text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff) end--;
    const window = text.slice(p, end);
    const sticky = this.sticky;
    sticky.lastIndex = 0;
    const q = sticky.test(window) && sticky.lastIndex > 0 ? p + sticky.lastIndex : -(p + 1) - 1;
    this.windowedUntil = q === end && end < text.length ? { text, at: end } : null;
    return q;
  }

  /** Where a piece cut by pieceEndInWindow continues. */
  private windowedUntil: { text: string; at: number } | null = null;

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
   * (pieces tile the text: ends[i] === starts[i + 1]).
   */
  preTokens(text: string): PreTokenTable {
    return this.scan(text, false).table;
  }

  /**
   * The tokens of `text` as parallel arrays (ids, UTF-16 starts and ends; ends widened to whole characters as in
   * tokenize), built in the same pass as the pre-token table; kept in the document's cache (a slider move
   * re-windows the same document). 12 bytes a token, where an object per token costs several times that.
   */
  tokenOffsets(text: string): TokenOffsets {
    return documentCache.get<TokenOffsets>(text, this.documentKey('offsets')) ?? this.scan(text, true).offsets!;
  }

  /** A key of this unit's entries in the document cache: per unit object, so a fresh unit starts with none. */
  private documentKey(what: string): string {
    return `tiktoken.${what}:${instanceKey('unit', this)}`;
  }

  /** One pass of the pattern over `text`: the pre-token table, and with `withTokens` the token offsets too. */
  private scan(text: string, withTokens: boolean): { table: PreTokenTable; offsets: TokenOffsets | null } {
    const n = text.length;
    // Pieces and tokens average 4-5 characters in prose (3 in code and other scripts): a guess that rarely needs
    // to grow, since growing copies (and a peak holds both copies).
    let starts = new Int32Array(Math.max(16, Math.ceil(n / 3)));
    let ends = new Int32Array(starts.length);
    let counts = new Float64Array(starts.length + 1);
    const giant = new Map<number, GiantPiece>();
    let ids = withTokens ? new Int32Array(Math.max(16, Math.ceil(n / 3))) : new Int32Array(0);
    let tokenStarts = withTokens ? new Int32Array(ids.length) : ids;
    let tokenEnds = withTokens ? new Int32Array(ids.length) : ids;
    let t = 0;
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
      starts[k] = p;
      ends[k] = q;
      const g = q - p >= this.giantPiece ? this.giantOf(text, p, q) : null;
      if (g) giant.set(k, g);
      if (withTokens) {
        const piece = text.slice(p, q);
        const tokens = g ? this.piecePositions(piece, g.ids) : this.tokenizePiece(piece);
        const count = tokens.ids.length;
        counts[k + 1] = counts[k]! + count;
        while (t + count > ids.length) {
          ids = grow(ids);
          tokenStarts = grow(tokenStarts);
          tokenEnds = grow(tokenEnds);
        }
        let prev = p;
        for (let i = 0; i < count; i++, t++) {
          ids[t] = tokens.ids[i]!;
          tokenStarts[t] = prev;
          prev = p + tokens.ends[i]!;
          tokenEnds[t] = prev;
        }
      } else {
        counts[k + 1] = counts[k]! + (g ? g.ids.length : this.countPiece(text.slice(p, q)));
      }
      k++;
      p = q;
    }
    // Views, not copies: a copy would double the peak for a moment, and the spare capacity is small.
    const table: PreTokenTable = { starts: starts.subarray(0, k), ends: ends.subarray(0, k), countsBefore: counts.subarray(0, k + 1), giant };
    documentCache.set(text, this.documentKey('table'), table, tableBytes(table));
    if (!withTokens) return { table, offsets: null };
    const offsets = { ids: ids.subarray(0, t), starts: tokenStarts.subarray(0, t), ends: tokenEnds.subarray(0, t) };
    documentCache.set(text, this.documentKey('offsets'), offsets, ids.buffer.byteLength * 3);
    return { table, offsets };
  }

  /** The pre-token table of `text`, kept in the document's cache (the meter, tokenize and cut filters share it). */
  tableFor(text: string): PreTokenTable {
    return documentCache.get<PreTokenTable>(text, this.documentKey('table')) ?? this.preTokens(text);
  }

  /**
   * Where a splitter cutting between characters may cut `text` so that token counts stay cheap and exact: anywhere,
   * except inside a giant piece (a long run without spaces), where only between two of its tokens (GiantPiece).
   * null when the text has no giant piece.
   */
  cutFilter(text: string): ((position: number) => boolean) | null {
    const table = this.tableFor(text);
    if (table.giant.size === 0) return null;
    // One byte per offset: 0 strictly inside a giant piece except between two of its tokens.
    const allowed = new Uint8Array(text.length + 1).fill(1);
    for (const [i, g] of table.giant) {
      allowed.fill(0, table.starts[i]! + 1, table.ends[i]!);
      for (const at of g.at) allowed[at] = 1;
    }
    return (position) => allowed[position] === 1;
  }

  /** GIANT_PIECE; lowered by tests to reach the giant-piece paths on small texts. */
  giantPiece = GIANT_PIECE;

  private giantOf(text: string, start: number, end: number): GiantPiece {
    const piece = text.slice(start, end);
    const ids = this.bpe.encodePiece(piece);
    const at: number[] = [start];
    const before: number[] = [0];
    forTokenEnds(piece, ids, this.bpe, (t, utf16End, exact) => {
      if (exact) {
        at.push(start + utf16End);
        before.push(t + 1);
      }
    });
    return { ids, at: Int32Array.from(at), before: Int32Array.from(before) };
  }

  /** Tokens of source[a, b), a pre-token piece of a slice (see GiantPiece for the shortcut inside giant pieces). */
  private countSlicePiece(source: string, a: number, b: number, table: PreTokenTable): number {
    if (b - a >= 64 && table.giant.size > 0) {
      const i = upperBound(table.ends, a);
      const g = table.giant.get(i);
      if (g && b <= table.ends[i]!) {
        const x = indexOf(g.at, a);
        const y = x < 0 ? -1 : indexOf(g.at, b);
        if (y >= 0) return g.before[y]! - g.before[x]!;
      }
    }
    return this.countPiece(source.slice(a, b));
  }

  /**
   * An estimate of the tokens of source[a, b) inside one giant piece (the piece's tokens that overlap the span),
   * or -1 when the span is not inside a giant piece. Within a token or two of the exact count at the edges.
   */
  estimateInGiant(a: number, b: number, table: PreTokenTable, piece: number): number {
    const g = table.giant.get(piece);
    if (!g) return -1;
    const x = Math.max(0, upperBound(g.at, a) - 1); // last boundary <= a
    const y = Math.min(g.at.length - 1, lowerBound(g.at, b)); // first boundary >= b
    return g.before[y]! - g.before[x]!;
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
    const { starts: pieceStarts, countsBefore } = table;
    const text = source.slice(start, end);
    const n = text.length;
    let total = 0;
    let p = 0;
    // Scan until the slice's pieces meet a document piece start.
    let first = indexOf(pieceStarts, start);
    while (p < n && first < 0) {
      const q = this.pieceEnd(text, p);
      if (q < 0) {
        p = -q - 1;
        continue;
      }
      total += this.countSlicePiece(source, start + p, start + q, table);
      p = q;
      if (p < n) first = indexOf(pieceStarts, start + p);
    }
    if (p >= n) return total;
    // first: the document piece where the slice's scan now agrees.
    // Where the table stops: the span's end, if it ends a document piece with a non-whitespace character;
    // otherwise the last document piece start before the end that holds a non-whitespace character.
    let stop: number; // table index one past the last piece taken
    let tail: number; // slice offset where scanning resumes
    const atEnd = end === source.length ? pieceStarts.length : indexOf(pieceStarts, end);
    if (atEnd >= 0 && !isPatternSpace(source.charCodeAt(end - 1))) {
      stop = atEnd;
      tail = n;
    } else {
      let i = upperBound(table.ends, end - 1);
      while (i > first && isPatternSpace(source.charCodeAt(pieceStarts[i]!))) i--;
      stop = i;
      tail = pieceStarts[i]! - start;
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
      total += this.countSlicePiece(source, start + p, start + q, table);
      p = q;
    }
    return total;
  }

  /**
   * Tokens with UTF-16 offsets. A token that ends inside a multi-byte character (emoji, CJK split across
   * tokens) gets its end moved to the end of that character, so a span is never a half character; the next
   * token then starts there and may be empty (start === end).
   * Cached per pre-token piece, and kept in the document's cache (a slider move re-tokenizes the same document).
   */
  tokenize(text: string): TokenSpan[] {
    return documentCache.getOrCompute(text, this.documentKey('spans'), () => this.tokenSpans(text), (spans) => spans.length * TOKEN_SPAN_BYTES);
  }

  private tokenSpans(text: string): TokenSpan[] {
    const { ids, starts, ends } = this.tokenOffsets(text);
    const spans: TokenSpan[] = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) spans[i] = { start: starts[i]!, end: ends[i]!, ids: [ids[i]!] };
    return spans;
  }
  private readonly pieceTokens = new Map<string, { ids: number[]; ends: number[] }>();

  /** Token ids of one piece with each token's end as a UTF-16 offset in the piece (widened to whole characters). */
  private tokenizePiece(piece: string): { ids: number[]; ends: number[] } {
    const cached = piece.length <= MAX_CACHED_PIECE ? this.pieceTokens.get(piece) : undefined;
    if (cached) return cached;
    const result = this.piecePositions(piece, this.bpe.encodePiece(piece));
    if (piece.length <= MAX_CACHED_PIECE) this.pieceTokens.set(piece, result);
    return result;
  }

  private piecePositions(piece: string, ids: number[]): { ids: number[]; ends: number[] } {
    if (ids.length === 1) return { ids, ends: [piece.length] };
    const ends: number[] = new Array(ids.length);
    forTokenEnds(piece, ids, this.bpe, (t, utf16End) => {
      ends[t] = utf16End;
    });
    return { ids, ends };
  }
}

/**
 * For each token of `piece`: the UTF-16 end of the character holding its last byte, and whether the token ends
 * exactly there (false: it ends inside a multi-byte character, and the end was widened to the character's end).
 */
function forTokenEnds(piece: string, ids: readonly number[], bpe: BytePairEncoder, each: (token: number, utf16End: number, exact: boolean) => void): void {
  let ci = 0; // UTF-16 offset after the characters consumed
  let charBytes = 0; // their UTF-8 length
  let byteEnd = 0;
  const n = piece.length;
  for (let t = 0; t < ids.length; t++) {
    byteEnd += bpe.byteLength(ids[t]!);
    while (ci < n && charBytes < byteEnd) {
      const c = piece.charCodeAt(ci);
      if (c < 0x80) {
        charBytes += 1;
        ci += 1;
      } else if (c < 0x800) {
        charBytes += 2;
        ci += 1;
      } else if (c >= 0xd800 && c <= 0xdbff && ci + 1 < n && (piece.charCodeAt(ci + 1) & 0xfc00) === 0xdc00) {
        charBytes += 4;
        ci += 2;
      } else {
        charBytes += 3; // BMP, or a lone surrogate written as U+FFFD
        ci += 1;
      }
    }
    each(t, ci, charBytes === byteEnd);
  }
}

/** Index of x in the ascending array a, or -1. */
function indexOf(a: Int32Array, x: number): number {
  const i = lowerBound(a, x);
  return i < a.length && a[i] === x ? i : -1;
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
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

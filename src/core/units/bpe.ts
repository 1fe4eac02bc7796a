/**
 * Byte-pair encoding of one pre-token piece with tiktoken's ranks (the files js-tiktoken bundles), written for speed:
 * - ranks are keyed by "byte strings" (one UTF-16 unit per byte, as atob returns them), so a piece of ASCII is its
 *   own key and a piece that is a whole token costs one Map look-up;
 * - the merge is tiktoken's (repeatedly join the adjacent pair of lowest rank, the leftmost on ties), done by a scan
 *   for short pieces and with a heap for long ones, where the scan is quadratic (a 2 MiB line without spaces is
 *   one piece). The heap pops the least (rank, position), which is the scan's leftmost minimum, so both give the
 *   same tokens. Giant pieces are merged by backtracking instead (bpeBacktrack.ts), in linear time, once they are
 *   common enough to pay for its tables.
 */

import { BacktrackingMerge } from './bpeBacktrack';
import { PairTable } from './pairTable';

/**
 * atob and TextDecoder, which every host of the engine has (workers, Node, browsers) but core's type library (no
 * DOM) does not declare.
 */
const host = globalThis as unknown as {
  atob(data: string): string;
  TextDecoder: new (label: string) => { decode(bytes: Uint8Array): string };
};

/** The bundled rank files' shape (js-tiktoken's TiktokenBPE). */
export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

/** Pieces up to this many bytes are merged by scanning; longer ones with the heap. */
const SCAN_LIMIT = 96;
/**
 * Pieces at least this many bytes may be merged by backtracking (bpeBacktrack.ts), which is linear, but whose
 * tables cost about as much to make as the heap merge of BACKTRACK_AFTER bytes. So they are made once pieces that
 * long have added up to that much: no text then pays more than about twice the cheaper of the two ways.
 */
const BACKTRACK_FROM = 4096;
const BACKTRACK_AFTER = 256 * 1024;

export class BytePairEncoder {
  private readonly ranks = new Map<string, number>();
  /** Token bytes by rank, as byte strings. */
  private readonly tokens: string[] = [];
  readonly specialTokens: Record<string, number>;
  /**
   * Merge steps done so far (pairs compared by the scan, entries popped from the heap, tokens tried by
   * backtracking): for tests of growth.
   */
  work = 0;
  /** Pieces merged by backtracking so far. */
  backtrackedPieces = 0;
  private readonly specialById = new Map<number, string>();

  constructor(file: RankFile) {
    // Each line: a name, the rank of its first token, then base64 tokens of consecutive ranks.
    for (const line of file.bpe_ranks.split('\n')) {
      if (!line) continue;
      const fields = line.split(' ');
      let rank = Number.parseInt(fields[1]!, 10);
      for (let i = 2; i < fields.length; i++, rank++) {
        const bytes = host.atob(fields[i]!);
        this.ranks.set(bytes, rank);
        this.tokens[rank] = bytes;
      }
    }
    this.specialTokens = { ...file.special_tokens };
    for (const [text, id] of Object.entries(this.specialTokens)) this.specialById.set(id, text);
  }

  /** Bytes in token `id` (special tokens: their UTF-8 length). */
  byteLength(id: number): number {
    const t = this.tokens[id];
    if (t !== undefined) return t.length;
    const special = this.specialById.get(id);
    return special === undefined ? 0 : byteString(special).length;
  }

  /** UTF-8 bytes of token `id`. */
  bytesOf(id: number): Uint8Array | undefined {
    const t = this.tokens[id] ?? (this.specialById.has(id) ? byteString(this.specialById.get(id)!) : undefined);
    if (t === undefined) return undefined;
    const out = new Uint8Array(t.length);
    for (let i = 0; i < t.length; i++) out[i] = t.charCodeAt(i);
    return out;
  }

  /** The text of `ids` (partial UTF-8 at the edges becomes U+FFFD, as js-tiktoken's decode does). */
  decode(ids: readonly number[]): string {
    let bytes = '';
    for (const id of ids) bytes += this.tokens[id] ?? (this.specialById.has(id) ? byteString(this.specialById.get(id)!) : '');
    const out = new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
    return new host.TextDecoder('utf-8').decode(out);
  }

  /** The id of the token that is exactly this piece, or undefined. */
  wholeToken(piece: string): number | undefined {
    return this.ranks.get(byteString(piece));
  }

  /** Token ids of one pre-token piece (special-token strings are ordinary text here). */
  encodePiece(piece: string): number[] {
    const bytes = byteString(piece);
    const whole = this.ranks.get(bytes);
    if (whole !== undefined) return [whole];
    return this.merge(bytes);
  }

  /** Number of tokens of one piece. */
  countPiece(piece: string): number {
    const bytes = byteString(piece);
    if (this.ranks.has(bytes)) return 1;
    return this.merge(bytes).length;
  }

  private merge(bytes: string): number[] {
    if (bytes.length <= SCAN_LIMIT) return this.mergeByScan(bytes);
    if (bytes.length >= BACKTRACK_FROM) {
      this.longPieceBytes += bytes.length;
      if (this.backtrackingMerge || this.longPieceBytes >= BACKTRACK_AFTER) {
        const backtracking = this.backtracking();
        const steps = backtracking.steps;
        const ids = backtracking.encode(bytes);
        this.work += backtracking.steps - steps;
        this.backtrackedPieces++;
        return ids;
      }
    }
    return this.mergeByHeap(bytes);
  }

  /** The heap merge of a piece, whatever its length (for tests comparing the merges). */
  encodeByHeap(piece: string): number[] {
    return this.mergeByHeap(byteString(piece));
  }

  private backtrackingMerge: BacktrackingMerge | undefined;
  /** Bytes of pieces of BACKTRACK_FROM bytes or more merged so far. */
  private longPieceBytes = 0;
  /** The linear merge for this vocabulary, built on first use. */
  backtracking(): BacktrackingMerge {
    this.backtrackingMerge ??= new BacktrackingMerge(this.tokens, (bytes) => this.ranks.get(bytes));
    return this.backtrackingMerge;
  }

  private rankOf(bytes: string, start: number, end: number): number {
    return this.ranks.get(bytes.slice(start, end)) ?? Infinity;
  }

  /** tiktoken's merge as written: parts[i] starts at starts[i]; pairRank[i] is the rank of parts i and i + 1 joined. */
  private mergeByScan(bytes: string): number[] {
    const n = bytes.length;
    const starts: number[] = new Array(n + 1);
    for (let i = 0; i <= n; i++) starts[i] = i;
    const pairRank: number[] = new Array(n);
    for (let i = 0; i < n - 1; i++) pairRank[i] = this.rankOf(bytes, i, i + 2);
    pairRank[n - 1] = Infinity;
    let parts = n;
    while (parts > 1) {
      let best = Infinity;
      let at = -1;
      this.work += parts;
      for (let i = 0; i < parts - 1; i++) {
        if (pairRank[i]! < best) {
          best = pairRank[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      pairRank.splice(at + 1, 1);
      parts--;
      pairRank[at] = at + 2 <= parts ? this.rankOf(bytes, starts[at]!, starts[at + 2]!) : Infinity;
      if (at > 0) pairRank[at - 1] = this.rankOf(bytes, starts[at - 1]!, starts[at + 1]!);
    }
    const out: number[] = new Array(parts);
    for (let i = 0; i < parts; i++) out[i] = this.ranks.get(bytes.slice(starts[i]!, starts[i + 1]!))!;
    return out;
  }

  /**
   * The rank of the token made of tokens `left` and `right` joined (NONE: none), remembered per pair: a long
   * piece repeats the same pairs many times. The rank of a merged pair is the merged token's id.
   */
  private joinedRank(left: number, right: number): number {
    // 2^18 slots (3 MiB), made on the first long piece and cleared when 3/4 full.
    const pairs = (this.pairs ??= new PairTable(18));
    const cached = pairs.get(left, right);
    if (cached !== PairTable.MISSING) return cached;
    if (pairs.count >= (3 << pairs.bits) >> 2) pairs.clear();
    const r = this.ranks.get(this.tokens[left]! + this.tokens[right]!) ?? NONE;
    pairs.set(left, right, r);
    return r;
  }
  private pairs: PairTable | null = null;
  /** The token id of each single byte (every byte is a token in tiktoken's vocabularies). */
  private byteIds: Int32Array | null = null;
  private idOfByte(byte: number): number {
    if (!this.byteIds) {
      this.byteIds = new Int32Array(256).fill(-1);
      for (let b = 0; b < 256; b++) this.byteIds[b] = this.ranks.get(String.fromCharCode(b)) ?? -1;
    }
    return this.byteIds[byte]!;
  }

  /**
   * The same merge in O(n log n): parts form a linked list over byte positions, each knows its token id, and every
   * pair's current rank has an entry in a min-heap ordered by (rank, position); an entry is acted on only if it
   * still describes a current pair.
   */
  private mergeByHeap(bytes: string): number[] {
    const n = bytes.length;
    const next = new Int32Array(n + 1);
    const prev = new Int32Array(n + 1);
    const id = new Int32Array(n);
    const pairRank = new Int32Array(n + 1); // NONE: no pair, or a part merged away
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    for (let i = 0; i < n; i++) id[i] = this.idOfByte(bytes.charCodeAt(i));
    const heap = new PairHeap(n);
    const rankAfter = (i: number): number => {
      const j = next[i]!;
      return j >= n ? NONE : this.joinedRank(id[i]!, id[j]!);
    };
    for (let i = 0; i < n; i++) {
      const r = rankAfter(i);
      pairRank[i] = r;
      if (r !== NONE) heap.push(r, i);
    }
    while (heap.size > 0) {
      const r = heap.topRank();
      const i = heap.pop();
      this.work++;
      if (pairRank[i] !== r) continue; // stale: that pair was merged or re-ranked since
      const j = next[i]!;
      pairRank[j] = NONE; // j is merged into i
      next[i] = next[j]!;
      prev[next[j]!] = i;
      id[i] = r; // the merged token
      const ri = rankAfter(i);
      pairRank[i] = ri;
      if (ri !== NONE) heap.push(ri, i);
      const p = prev[i]!;
      if (p >= 0) {
        const rp = rankAfter(p);
        pairRank[p] = rp;
        if (rp !== NONE) heap.push(rp, p);
      }
    }
    const out: number[] = [];
    for (let i = 0; i < n; i = next[i]!) out.push(id[i]!);
    return out;
  }
}

/** No pair: larger than any rank. */
const NONE = 0x7fffffff;

/** A binary min-heap of (rank, position) pairs, ordered by rank, then position. */
class PairHeap {
  private ranks: Int32Array;
  private positions: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.ranks = new Int32Array(Math.max(16, capacity));
    this.positions = new Int32Array(this.ranks.length);
  }
  topRank(): number {
    return this.ranks[0]!;
  }
  push(rank: number, position: number): void {
    if (this.size === this.ranks.length) {
      const r = new Int32Array(this.ranks.length * 2);
      r.set(this.ranks);
      this.ranks = r;
      const q = new Int32Array(r.length);
      q.set(this.positions);
      this.positions = q;
    }
    const R = this.ranks;
    const P = this.positions;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pr = R[parent]!;
      if (pr < rank || (pr === rank && P[parent]! < position)) break;
      R[i] = pr;
      P[i] = P[parent]!;
      i = parent;
    }
    R[i] = rank;
    P[i] = position;
  }
  /** Removes the least pair and returns its position. */
  pop(): number {
    const R = this.ranks;
    const P = this.positions;
    const top = P[0]!;
    const size = --this.size;
    const rank = R[size]!;
    const position = P[size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const c2 = child + 1;
      if (c2 < size && (R[c2]! < R[child]! || (R[c2] === R[child] && P[c2]! < P[child]!))) child = c2;
      const cr = R[child]!;
      if (cr > rank || (cr === rank && P[child]! > position)) break;
      R[i] = cr;
      P[i] = P[child]!;
      i = child;
    }
    R[i] = rank;
    P[i] = position;
    return top;
  }
}

/** UTF-8 bytes of `s` as a byte string (a lone surrogate becomes U+FFFD, as TextEncoder writes it). */
export function byteString(s: string): string {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out += String.fromCharCode(c);
      continue;
    }
    if (c < 0x800) {
      out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 63));
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out += String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

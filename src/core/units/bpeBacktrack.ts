/**
 * tiktoken's byte-pair merge in linear time, for giant pre-token pieces (a line of letters without spaces is one
 * piece of megabytes, where the heap merge in bpe.ts costs about a microsecond a byte).
 *
 * The idea is that of GitHub's `bpe` crate (rust-gems), written anew here: BPE's result is the one way to cut the
 * bytes into tokens in which every two neighbouring tokens are "compatible" (BPE of the two joined gives back the
 * same two). So the text is read left to right taking the longest token that matches, each one checked against the
 * token before it; when no prefix of the match is compatible, the previous token is taken back and its next shorter
 * prefix tried, and the position given up is marked so that it is never tried again. Compatibility is decided
 * without running BPE: each token's last merge (its "split") is recovered, and the check walks the two merge trees
 * down from the joint, asking whether some merge across it would have come first.
 *
 * This holds for a vocabulary in which every token is the BPE of its own bytes: tokensNotSelfEncoded() finds the
 * exceptions, and bpeBacktrack.test.ts checks that there are none in every bundled encoding and compares this merge with the
 * heap merge on random text.
 *
 * The tables (a trie of the tokens, made from one sort, and every token's split in rank order) take 0.1–0.4 s to
 * make, so bpe.ts makes them only once giant pieces are common enough.
 */

import { PairTable } from './pairTable';

/** No token. Also "larger than any rank", where ranks are compared. */
const NONE = 0x7fffffff;
/** Pairs checked for compatibility by encode() are remembered in 2^16 slots (one per hash, the latest wins). */
const COMPATIBLE_MEMO_BITS = 16;

export class BacktrackingMerge {
  /** Byte length of each token (0 where the rank has no token). */
  private readonly length: Int32Array;
  /** The longest token that is a proper prefix of each token (NONE for single bytes). */
  private readonly shorterPrefix: Int32Array;
  /** Each token's last BPE merge: the two tokens it joins (a single byte splits into itself twice). */
  private readonly splitLeft: Int32Array;
  private readonly splitRight: Int32Array;
  private readonly trie: TokenTrie;
  /** Each split pair (left, right) → the token it makes. */
  private readonly merges: PairTable;
  private readonly memoLeft = new Int32Array(1 << COMPATIBLE_MEMO_BITS).fill(-1);
  private readonly memoRight = new Int32Array(1 << COMPATIBLE_MEMO_BITS);
  private readonly memoResult = new Uint8Array(1 << COMPATIBLE_MEMO_BITS);
  /** Tokens tried so far (each match or shorter prefix weighed against the token before): for tests of growth. */
  steps = 0;

  /** `tokens`: each rank's bytes as a byte string (one UTF-16 unit per byte); `rankOf`: the rank of a byte string. */
  constructor(
    private readonly tokens: readonly (string | undefined)[],
    rankOf: (bytes: string) => number | undefined,
  ) {
    const n = tokens.length;
    this.length = new Int32Array(n);
    for (let id = 0; id < n; id++) this.length[id] = tokens[id]?.length ?? 0;
    this.trie = new TokenTrie(tokens);
    this.shorterPrefix = new Int32Array(n).fill(NONE);
    for (let id = 0; id < n; id++) {
      const t = tokens[id];
      if (t !== undefined && t.length > 1) this.shorterPrefix[id] = this.trie.longestMatch(t, 0, t.length - 1);
    }
    // Splits in rank order: a token's parts rank below it, so their splits are known when it is reached. Its last
    // merge is the longest prefix token whose rest is a token and which BPE would join (compatible below its rank).
    this.splitLeft = new Int32Array(n);
    this.splitRight = new Int32Array(n);
    this.merges = PairTable.forEntries(n);
    for (let id = 0; id < n; id++) {
      this.splitLeft[id] = id;
      this.splitRight[id] = id;
      const t = tokens[id];
      if (t === undefined) continue;
      for (let left = this.shorterPrefix[id]!; left !== NONE; left = this.shorterPrefix[left]!) {
        const right = rankOf(t.slice(this.length[left]!));
        if (right === undefined || left >= id || right >= id || !this.compatible(left, right)) continue;
        this.merges.set(left, right, id);
        this.splitLeft[id] = left;
        this.splitRight[id] = right;
        break;
      }
    }
  }

  /**
   * Tokens that are not the BPE of their own bytes, where this merge would go wrong. None in the bundled encodings
   * (bpeBacktrack.test.ts checks each), so encoding does not pay for this check at run time.
   */
  tokensNotSelfEncoded(): number[] {
    const wrong: number[] = [];
    for (let id = 0; id < this.tokens.length; id++) {
      const t = this.tokens[id];
      if (t === undefined) continue;
      const ids = this.encode(t);
      if (ids.length !== 1 || ids[0] !== id) wrong.push(id);
    }
    return wrong;
  }

  /** Token ids of a byte string, as BPE merges it. */
  encode(bytes: string): number[] {
    const n = bytes.length;
    const trie = this.trie;
    const length = this.length;
    // dead[p]: backtracking found no compatible way on from p, whatever token ends there.
    const dead = new Uint8Array(n + 1);
    const out: number[] = [];
    let pos = 0;
    let next = n > 0 ? trie.longestMatch(bytes, 0, n) : NONE;
    while (next !== NONE) {
      let token = next;
      const last = out.length > 0 ? out[out.length - 1]! : NONE;
      for (;;) {
        this.steps++;
        const end = pos + length[token]!;
        if (dead[end] === 0 && (last === NONE || this.compatibleNeighbours(last, token))) {
          out.push(token);
          pos = end;
          next = pos < n ? trie.longestMatch(bytes, pos, n) : NONE;
          break;
        }
        const shorter = this.shorterPrefix[token]!;
        if (shorter !== NONE) {
          token = shorter;
          continue;
        }
        // Nothing fits after `last` here: take it back and try its shorter prefixes next.
        dead[pos] = 1;
        out.pop();
        pos -= length[last]!;
        next = last;
        break;
      }
    }
    return out;
  }

  /** compatible(left, right) for neighbours in a text, remembered per pair (text repeats pairs). */
  private compatibleNeighbours(left: number, right: number): boolean {
    const slot = (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca77)) >>> (32 - COMPATIBLE_MEMO_BITS);
    if (this.memoLeft[slot] === left && this.memoRight[slot] === right) return this.memoResult[slot] === 1;
    const result = this.compatible(left, right);
    this.memoLeft[slot] = left;
    this.memoRight[slot] = right;
    this.memoResult[slot] = result ? 1 : 0;
    return result;
  }

  /**
   * Whether BPE of the bytes of `left` then `right` gives exactly these two tokens: undo the two tokens' merges from
   * the joint outwards (the later-made side first) and fail if a merge across the joint (a pair that is some
   * token's split) ranks before the merge being undone.
   */
  private compatible(left: number, right: number): boolean {
    let limit = NONE;
    for (;;) {
      const across = this.merges.get(left, right);
      if (across !== PairTable.MISSING && across < limit) return false;
      if (left > right) {
        limit = left;
        left = this.splitRight[left]!;
        if (left === limit) {
          limit = right + 1;
          right = this.splitLeft[right]!;
          if (right + 1 === limit) return true;
        }
      } else {
        limit = right + 1;
        right = this.splitLeft[right]!;
        if (right + 1 === limit) {
          limit = left;
          left = this.splitRight[left]!;
          if (left === limit) return true;
        }
      }
    }
  }
}

/**
 * The tokens' bytes as a trie in breadth-first order: the children of a node are consecutive nodes sorted by their
 * byte, found by binary search (the root's through a table of 256). Made from the tokens sorted by their bytes,
 * where the tokens under a node are one run and the node's own token, if any, comes first.
 */
class TokenTrie {
  /** The byte on the edge into each node. */
  private readonly edge: Uint8Array;
  private readonly firstChild: Int32Array;
  private readonly childCount: Int32Array;
  /** The token a node spells, or NONE. */
  private readonly tokenAt: Int32Array;
  private readonly rootChild = new Int32Array(256).fill(NONE);
  /** The node of each two-byte prefix (first byte * 256 + second), or NONE: the widest binary searches skipped. */
  private readonly secondLevel = new Int32Array(1 << 16).fill(NONE);

  constructor(tokens: readonly (string | undefined)[]) {
    const ids: number[] = [];
    let bytes = 0;
    for (let id = 0; id < tokens.length; id++) {
      const t = tokens[id];
      if (t === undefined) continue;
      ids.push(id);
      bytes += t.length;
    }
    // Byte strings compare as their bytes (every unit is below 256).
    ids.sort((a, b) => (tokens[a]! < tokens[b]! ? -1 : 1));
    const capacity = bytes + 1;
    const edge = new Uint8Array(capacity);
    const firstChild = new Int32Array(capacity);
    const childCount = new Int32Array(capacity);
    const tokenAt = new Int32Array(capacity).fill(NONE);
    // Each node's run of sorted tokens [from, to) and its depth, for the breadth-first pass.
    const from = new Int32Array(capacity);
    const to = new Int32Array(capacity);
    const depth = new Int32Array(capacity);
    from[0] = 0;
    to[0] = ids.length;
    let nodes = 1;
    for (let node = 0; node < nodes; node++) {
      const d = depth[node]!;
      let i = from[node]!;
      const end = to[node]!;
      if (i < end && tokens[ids[i]!]!.length === d) tokenAt[node] = ids[i++]!;
      firstChild[node] = nodes;
      while (i < end) {
        const byte = tokens[ids[i]!]!.charCodeAt(d);
        let j = i + 1;
        while (j < end && tokens[ids[j]!]!.charCodeAt(d) === byte) j++;
        edge[nodes] = byte;
        from[nodes] = i;
        to[nodes] = j;
        depth[nodes] = d + 1;
        nodes++;
        i = j;
      }
      childCount[node] = nodes - firstChild[node]!;
    }
    this.edge = edge.slice(0, nodes);
    this.firstChild = firstChild.slice(0, nodes);
    this.childCount = childCount.slice(0, nodes);
    this.tokenAt = tokenAt.slice(0, nodes);
    for (let c = this.firstChild[0]!; c < this.firstChild[0]! + this.childCount[0]!; c++) {
      this.rootChild[this.edge[c]!] = c;
      for (let d = this.firstChild[c]!; d < this.firstChild[c]! + this.childCount[c]!; d++) this.secondLevel[(this.edge[c]! << 8) | this.edge[d]!] = d;
    }
  }

  /** The longest token that bytes[from, ...) starts with, reading no further than `to`; NONE if none. */
  longestMatch(bytes: string, from: number, to: number): number {
    if (from >= to) return NONE;
    const first = bytes.charCodeAt(from);
    let node = this.rootChild[first]!;
    if (node === NONE) return NONE;
    let best = this.tokenAt[node]!;
    if (from + 1 >= to) return best;
    const second = this.secondLevel[(first << 8) | bytes.charCodeAt(from + 1)]!;
    if (second === NONE) return best;
    node = second;
    if (this.tokenAt[node] !== NONE) best = this.tokenAt[node]!;
    for (let i = from + 2; i < to; i++) {
      const byte = bytes.charCodeAt(i);
      // Binary search among the node's children for this byte.
      let lo = this.firstChild[node]!;
      let hi = lo + this.childCount[node]!;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.edge[mid]! < byte) lo = mid + 1;
        else hi = mid;
      }
      if (lo === this.firstChild[node]! + this.childCount[node]! || this.edge[lo] !== byte) break;
      node = lo;
      const t = this.tokenAt[node]!;
      if (t !== NONE) best = t;
    }
    return best;
  }
}

/**
 * (left, right) → value for pairs of token ids, in an open-addressing table of typed arrays: a Map keyed by
 * left * 2^18 + right (not a small integer) was a third of a long piece's merge. Used by both merges in bpe.ts and
 * bpeBacktrack.ts.
 */
export class PairTable {
  static readonly MISSING = -1;
  private readonly lefts: Int32Array;
  private readonly rights: Int32Array;
  private readonly values: Int32Array;
  private readonly shift: number;
  private readonly mask: number;
  /** Entries stored since the table was made or cleared. */
  count = 0;

  /** Room for 2^bits slots (fill it at most to about 3/4). */
  constructor(readonly bits: number) {
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.lefts = new Int32Array(1 << bits).fill(-1);
    this.rights = new Int32Array(1 << bits);
    this.values = new Int32Array(1 << bits);
  }

  /** A table with at least twice `entries` slots. */
  static forEntries(entries: number): PairTable {
    let bits = 4;
    while (1 << bits < 2 * entries) bits++;
    return new PairTable(bits);
  }

  private slot(left: number, right: number): number {
    let i = (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca77)) >>> this.shift;
    while (this.lefts[i] !== -1 && (this.lefts[i] !== left || this.rights[i] !== right)) i = (i + 1) & this.mask;
    return i;
  }

  get(left: number, right: number): number {
    const i = this.slot(left, right);
    return this.lefts[i] === -1 ? PairTable.MISSING : this.values[i]!;
  }

  set(left: number, right: number, value: number): void {
    const i = this.slot(left, right);
    if (this.lefts[i] === -1) this.count++;
    this.lefts[i] = left;
    this.rights[i] = right;
    this.values[i] = value;
  }

  clear(): void {
    this.lefts.fill(-1);
    this.count = 0;
  }
}

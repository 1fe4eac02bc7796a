/** A vocabulary table's slots, as `VocabTable.toSlots` gives them. */
export interface VocabSlots {
  lengths: Uint16Array;
  ids: Int32Array;
  chars: Uint16Array;
}

/**
 * The vocabulary as an open-addressing hash table over UTF-16 code units: a word is looked up from its bounds in
 * any string, without slicing it out, and an ASCII word straight from the original text, lowercased unit by unit
 * while it is hashed and compared (what `toLowerCase` does to ASCII). Inserting a word again replaces its id, as
 * Map.set does. An empty word is never looked up (no token is empty) and is not kept by `toSlots`.
 */
export class VocabTable {
  private used = 0;
  size = 0;

  private constructor(
    private readonly mask: number,
    /** Per slot: offset of the word in `chars`, or -1 for an empty slot. */
    private readonly offsets: Int32Array,
    private readonly lengths: Int32Array,
    private readonly ids: Int32Array,
    private chars: Uint16Array,
  ) {}

  /** An empty table sized for `expectedWords` words of `expectedChars` code units in all. */
  static empty(expectedWords: number, expectedChars: number): VocabTable {
    let capacity = 16;
    while (capacity < expectedWords * 2) capacity *= 2;
    return new VocabTable(capacity - 1, new Int32Array(capacity).fill(-1), new Int32Array(capacity), new Int32Array(capacity), new Uint16Array(Math.max(16, expectedChars)));
  }

  /**
   * The table as its slots: per slot the word's length (0: empty), the ids of the filled slots in slot order, and
   * their words concatenated in slot order. `fromSlots` rebuilds the same table with no hashing (vocabFile.ts).
   */
  toSlots(): VocabSlots {
    const capacity = this.mask + 1;
    const lengths = new Uint16Array(capacity);
    const ids = new Int32Array(this.size);
    const chars = new Uint16Array(this.used);
    let filled = 0;
    let at = 0;
    for (let slot = 0; slot < capacity; slot++) {
      const from = this.offsets[slot]!;
      const length = this.lengths[slot]!;
      if (from < 0 || length === 0) continue;
      if (length > 0xffff) throw new Error('a vocabulary word is longer than 65,535 code units');
      lengths[slot] = length;
      ids[filled++] = this.ids[slot]!;
      chars.set(this.chars.subarray(from, from + length), at);
      at += length;
    }
    return { lengths, ids: ids.subarray(0, filled), chars: chars.subarray(0, at) };
  }

  /** The table `toSlots` gave (its slot count a power of two). */
  static fromSlots({ lengths, ids, chars }: VocabSlots): VocabTable {
    const capacity = lengths.length;
    if (capacity < 16 || (capacity & (capacity - 1)) !== 0) throw new Error(`vocabulary table: ${capacity} slots is not a power of two`);
    const table = new VocabTable(capacity - 1, new Int32Array(capacity).fill(-1), new Int32Array(capacity), new Int32Array(capacity), chars);
    let filled = 0;
    let at = 0;
    for (let slot = 0; slot < capacity; slot++) {
      const length = lengths[slot]!;
      if (length === 0) continue;
      if (filled >= ids.length || at + length > chars.length) throw new Error('vocabulary table: slots and words disagree');
      table.offsets[slot] = at;
      table.lengths[slot] = length;
      table.ids[slot] = ids[filled++]!;
      at += length;
    }
    if (filled !== ids.length || at !== chars.length) throw new Error('vocabulary table: slots and words disagree');
    table.used = at;
    table.size = filled;
    return table;
  }

  /**
   * The live probe arrays (read-only by contract) for a lookup that mirrors `slotOf` elsewhere: the WebAssembly
   * embedder copies them into its memory (wasm/asciiEmbed.ts).
   */
  probeArrays(): { mask: number; offsets: Int32Array; lengths: Int32Array; ids: Int32Array; chars: Uint16Array } {
    return { mask: this.mask, offsets: this.offsets, lengths: this.lengths, ids: this.ids, chars: this.chars.subarray(0, this.used) };
  }

  set(word: string, id: number): void {
    const slot = this.slotOf(word, 0, word.length, false);
    if (this.offsets[slot]! >= 0) {
      this.ids[slot] = id;
      return;
    }
    if (this.size * 2 >= this.mask) throw new Error('vocabulary table is full');
    if (this.used + word.length > this.chars.length) {
      const bigger = new Uint16Array(Math.max(this.chars.length * 2, this.used + word.length));
      bigger.set(this.chars);
      this.chars = bigger;
    }
    for (let i = 0; i < word.length; i++) this.chars[this.used + i] = word.charCodeAt(i);
    this.offsets[slot] = this.used;
    this.lengths[slot] = word.length;
    this.ids[slot] = id;
    this.used += word.length;
    this.size++;
  }

  /** The id of text[from, to), or -1. */
  get(text: string, from: number, to: number): number {
    const slot = this.slotOf(text, from, to, false);
    return this.offsets[slot]! >= 0 ? this.ids[slot]! : -1;
  }

  /** The id of text[from, to) with A-Z lowercased (the caller has checked the range is ASCII), or -1. */
  getAsciiLowered(text: string, from: number, to: number): number {
    const slot = this.slotOf(text, from, to, true);
    return this.offsets[slot]! >= 0 ? this.ids[slot]! : -1;
  }

  /** The slot holding text[from, to) (lowered: A-Z read as a-z), or the empty slot where it would go. */
  private slotOf(text: string, from: number, to: number, lowered: boolean): number {
    let h = 0x811c9dc5 | 0;
    for (let i = from; i < to; i++) {
      let u = text.charCodeAt(i);
      if (lowered && u >= 0x41 && u <= 0x5a) u += 0x20;
      h = Math.imul(h ^ u, 0x01000193);
    }
    const length = to - from;
    const { offsets, lengths, chars, mask } = this;
    for (let slot = (h ^ (h >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      const at = offsets[slot]!;
      if (at < 0) return slot;
      if (lengths[slot] !== length) continue;
      let i = 0;
      for (; i < length; i++) {
        let u = text.charCodeAt(from + i);
        if (lowered && u >= 0x41 && u <= 0x5a) u += 0x20;
        if (chars[at + i] !== u) break;
      }
      if (i === length) return slot;
    }
  }
}

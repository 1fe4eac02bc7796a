import type { Range } from '../../types';

/**
 * A string the reference computed, with where each of its characters came from in the source: most are plain
 * substrings (`base + i`); a RecursiveChunker whitespace join puts in spaces of its own (-1, from nowhere); a
 * decoded token window is located as one range. Used to give each package chunk the best matching exact source
 * span when its own offsets or text are not one.
 */
export class Traced {
  private constructor(
    readonly text: string,
    /** Source offset of text[0] when the text is a plain substring, else -1. */
    private readonly base: number,
    /** Per character: its source offset, or -1 for a character the reference made up. */
    private readonly map: Int32Array | null,
    /** Where an empty or made-up-only text sits in the source. */
    private readonly at: number,
    /** A decoded token window: the range it came from (its text need not be a substring). */
    private readonly located: Range | null,
  ) {}

  static source(text: string): Traced {
    return new Traced(text, 0, null, 0, null);
  }

  /** A decoded token window of this string's characters [start, end). */
  window(text: string, start: number, end: number): Traced {
    const a = this.sub(start, end).span();
    return new Traced(text, -1, null, a.start, a);
  }

  /** text.slice(start, end) with its origins (start/end clamped like String.prototype.slice). */
  sub(start: number, end: number): Traced {
    const n = this.text.length;
    const s = Math.min(Math.max(start, 0), n);
    const e = Math.max(s, Math.min(end, n));
    const text = this.text.slice(s, e);
    if (this.located) return new Traced(text, -1, null, this.located.start, this.located);
    if (this.map === null) return new Traced(text, this.base + s, null, this.base + s, null);
    return new Traced(text, -1, this.map.subarray(s, e), this.originAt(s), null);
  }

  /** The pieces joined with `glue` (made-up characters), optionally after a made-up `lead`. */
  static join(pieces: readonly Traced[], glue: string, lead = ''): Traced {
    if (glue === '' && lead === '' && pieces.length > 0 && pieces.every((p, i) => p.follows(pieces[i - 1]))) {
      const first = pieces[0]!;
      return new Traced(pieces.map((p) => p.text).join(''), first.base, null, first.at, null);
    }
    const text = lead + pieces.map((p) => p.text).join(glue);
    if (text.length === 0) return new Traced('', -1, null, pieces[0]?.at ?? 0, null);
    const map = new Int32Array(text.length).fill(-1);
    let k = lead.length;
    pieces.forEach((p, i) => {
      if (i > 0) k += glue.length;
      for (let j = 0; j < p.text.length; j++) map[k + j] = p.origin(j);
      k += p.text.length;
    });
    return new Traced(text, -1, map, pieces[0]?.at ?? 0, null);
  }

  /** A plain substring starting where `prev` (a plain substring, or none) ends. */
  private follows(prev: Traced | undefined): boolean {
    if (this.map !== null || this.located || this.base < 0) return false;
    return prev === undefined || (prev.map === null && !prev.located && prev.base >= 0 && prev.base + prev.text.length === this.base);
  }

  /** Source offset of character i, or -1. */
  origin(i: number): number {
    if (this.located) return -1;
    if (this.map === null) return this.base + i;
    return this.map[i]!;
  }

  private originAt(i: number): number {
    for (let j = i; j < (this.map?.length ?? 0); j++) if (this.map![j]! >= 0) return this.map![j]!;
    return this.at;
  }

  /** The source range from the first to the last character that came from the source. */
  span(): Range {
    if (this.located) return this.located;
    if (this.map === null) return { start: this.base, end: this.base + this.text.length };
    let first = -1;
    let last = -1;
    for (let i = 0; i < this.map.length; i++) {
      const o = this.map[i]!;
      if (o < 0) continue;
      if (first < 0 || o < first) first = o;
      if (o + 1 > last) last = o + 1;
    }
    return first < 0 ? { start: this.at, end: this.at } : { start: first, end: last };
  }
}

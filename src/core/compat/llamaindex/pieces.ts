import type { SplitSpan } from '../../registry';
import type { ChunkContext, Unit } from '../../types';
import { meterFor, type SpanMeter } from '../../measure';
import type { TiktokenUnit } from '../../units/tiktoken';
import { isTiktokenUnit, rejectSpecialTokenText } from '../../units/unit';
import { unitDescriptor } from '../../units';

/**
 * A piece of the source as LlamaIndex has it: [start, end) is where it came from, and its string is
 * `source.slice(start, end)` unless `text` says otherwise (a sentence the tokenizer did not give back verbatim).
 */
export interface Piece {
  start: number;
  end: number;
  text?: string;
  /** With `text`, when known: the source offset of each of its characters (increasing), so pieces cut from it are
   * placed exactly. */
  at?: Int32Array;
}

export const pieceText = (source: string, p: Piece): string => p.text ?? source.slice(p.start, p.end);

/** Token counts of pieces: the unit's count of the piece's string (through the per-span meter when it is a slice). */
export class PieceCounter {
  private readonly meter: SpanMeter;
  private readonly maxTokenUnits: number;
  constructor(
    private readonly source: string,
    private readonly unit: Unit,
  ) {
    this.meter = meterFor(unit, source);
    this.maxTokenUnits = isTiktokenUnit(unit) ? longestToken(unit) : (unitDescriptor(unit.name)?.mostCodeUnitsPerCount ?? Infinity);
  }
  count(p: Piece): number {
    return p.text === undefined ? this.meter.exact(p.start, p.end) : this.unit.count(p.text);
  }
  /**
   * The count when it is at most `limit`; otherwise any number over `limit` (Infinity when known without counting).
   * A token is at most `longestToken` bytes and a UTF-16 unit is at least one UTF-8 byte, so a piece longer than
   * limit * longestToken units has more than `limit` tokens: the package's count of a whole 1 MiB text (to learn
   * that it does not fit) costs nothing here.
   */
  countUpTo(p: Piece, limit: number): number {
    const length = p.text?.length ?? p.end - p.start;
    if (length > limit * this.maxTokenUnits) return Infinity;
    // A long piece (a paragraph) is usually over the limit: stop counting there instead of counting it all — unless
    // it is a slice of a document large enough for the meter's pre-token table, which every piece's count needs
    // anyway and from which a slice's count costs its two edge pieces (no second pre-tokenization of the paragraph).
    const tabled = p.text === undefined && this.source.length >= TABLE_SIZE;
    if (isTiktokenUnit(this.unit) && length > 4 * limit && !tabled) return this.unit.countUpTo(pieceText(this.source, p), limit);
    return this.count(p);
  }
}

/** From this size on the tiktoken meter counts spans from its pre-token table (measure.ts TABLE_THRESHOLD). */
const TABLE_SIZE = 32_768;

const longest = new WeakMap<TiktokenUnit, number>();
/**
 * The byte length of the encoding's longest token, from the unit's own byte table (ids up to the special tokens,
 * which sit at the top): building js-tiktoken's encoder for its table would cost ~0.4 s on a first run.
 */
function longestToken(unit: TiktokenUnit): number {
  let n = longest.get(unit);
  if (n === undefined) {
    const top = Math.max(0, ...Object.values(unit.specialTokens));
    n = 0;
    for (let id = 0; id < top; id++) {
      const bytes = unit.tokenByteLength(id);
      if (bytes > n) n = bytes;
    }
    if (n === 0) n = Infinity; // unknown: always count
    longest.set(unit, n);
  }
  return n;
}

/**
 * The pieces `split` makes of a piece's string, placed in the source: exact slices when the piece is one,
 * otherwise (a piece whose string is not the source's) each sub-piece carries its string and the piece's range
 * clipped to where it would be.
 */
function subPieces(source: string, p: Piece, split: (s: string) => { start: number; end: number; text?: string }[]): Piece[] {
  const s = pieceText(source, p);
  const local = split(s);
  if (p.text === undefined) {
    return local.map((l) => (l.text === undefined ? { start: p.start + l.start, end: p.start + l.end } : { start: p.start + l.start, end: p.start + l.end, text: l.text }));
  }
  const at = p.at;
  if (at && at.length === s.length) {
    return local.map((l): Piece => {
      const start = l.start < at.length ? at[l.start]! : p.end;
      const end = l.end > l.start ? at[l.end - 1]! + 1 : start;
      const text = l.text ?? s.slice(l.start, l.end);
      // A part the source has as it is becomes a plain slice again (exact, and counted through the meter).
      if (l.text === undefined && end - start === text.length && source.startsWith(text, start)) return { start, end };
      return l.text === undefined ? { start, end, text, at: at.subarray(l.start, l.end) } : { start, end, text };
    });
  }
  const span = p.end - p.start;
  return local.map((l) => ({
    start: p.start + Math.min(l.start, span),
    end: p.start + Math.min(l.end, span),
    text: l.text ?? s.slice(l.start, l.end),
  }));
}

/**
 * Where each character of `text` is in source[start, end) when `text` is that span with characters deleted (the
 * secondary regex's lost punctuation): the earliest match of each character in turn; undefined when it is not
 * (a placeholder left in a URI).
 */
export function deletionMap(source: string, start: number, end: number, text: string): Int32Array | undefined {
  const at = new Int32Array(text.length);
  let i = start;
  for (let k = 0; k < text.length; k++) {
    const ch = text.charCodeAt(k);
    while (i < end && source.charCodeAt(i) !== ch) i++;
    if (i >= end) return undefined;
    at[k] = i++;
  }
  return at;
}

/** split(sep) with the separator put back at the start of every part but the first; empty parts dropped. */
export function splitKeepSeparator(s: string, sep: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (sep === '') {
    for (let i = 0; i < s.length; i++) out.push({ start: i, end: i + 1 });
    return out;
  }
  let from = 0;
  let partStart = 0; // the part's start including its separator
  for (;;) {
    const at = s.indexOf(sep, from);
    const end = at === -1 ? s.length : at;
    if (end > partStart) out.push({ start: partStart, end });
    if (at === -1) return out;
    partStart = at;
    from = at + sep.length;
  }
}

/** split(""): UTF-16 code units (an emoji becomes two lone surrogates). */
export function splitUnits(s: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < s.length; i++) out.push({ start: i, end: i + 1 });
  return out;
}

/** text.match(new RegExp(pattern, "g")): the matches only; characters no match covers are lost. */
export function regexMatches(s: string, re: RegExp): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * A chunk joined from pieces and trimmed, as LlamaIndex makes it: `content` is the joined string trimmed (JavaScript
 * trim); the span runs from the source offset of its first kept character to that of its last. null when the
 * chunk trims to nothing.
 */
export function joinedChunk(source: string, pieces: readonly Piece[]): SplitSpan | null {
  const texts = pieces.map((p) => pieceText(source, p));
  const joined = texts.join('');
  const content = joined.trim();
  if (content === '') return null;
  const lead = joined.length - joined.trimStart().length;
  const trail = joined.length - joined.trimEnd().length;
  const start = offsetAt(pieces, texts, lead, false);
  const end = offsetAt(pieces, texts, joined.length - trail, true);
  const span = source.slice(start, end);
  return span === content ? { start, end } : { start, end: Math.max(start, end), content };
}

/** The source offset of position `k` of the joined string (at a piece's end when `atEnd`, else at its start). */
function offsetAt(pieces: readonly Piece[], texts: readonly string[], k: number, atEnd: boolean): number {
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    const len = texts[i]!.length;
    const p = pieces[i]!;
    if (atEnd ? k <= at + len : k < at + len) {
      const local = k - at;
      if (p.text === undefined) return p.start + local;
      if (p.at && p.at.length === len) return atEnd ? (local > 0 ? p.at[local - 1]! + 1 : p.start) : local < len ? p.at[local]! : p.end;
      return Math.min(p.end, p.start + local);
    }
    at += len;
  }
  return pieces.length > 0 ? pieces[pieces.length - 1]!.end : 0;
}

/**
 * js-tiktoken's `encode(text)` with its defaults (disallowedSpecial "all"), which LlamaIndex's default tokenizer
 * calls: text containing a special token such as <|endoftext|> throws, with js-tiktoken's message.
 */
export function rejectSpecialTokens(source: string, ctx: ChunkContext): void {
  if (isTiktokenUnit(ctx.unit)) rejectSpecialTokenText(source, ctx.unit);
}

/**
 * Both splitters' first step: cut the text (`root`: the piece whose string is split, by default the whole source)
 * with the first splitter that cuts a piece (coarsest first), again and
 * again, until every leaf is at most chunkSize tokens. A piece no splitter can cut goes to `unsplittable`, which
 * returns the size to record for it (kept over the size) or throws.
 */
export function splitIntoLeaves(
  source: string,
  splitters: readonly ((s: string) => { start: number; end: number; text?: string }[])[],
  counter: PieceCounter,
  chunkSize: number,
  run: { step(offset: number): void },
  unsplittable: (p: Piece, tokens: number) => number,
  root: Piece = { start: 0, end: source.length },
): { leaves: Piece[]; sizes: number[] } {
  const leaves: Piece[] = [];
  const sizes: number[] = [];
  const splitPiece = (p: Piece, tokens: number): void => {
    if (tokens <= chunkSize) {
      leaves.push(p);
      sizes.push(tokens);
      return;
    }
    for (const split of splitters) {
      const parts = subPieces(source, p, split);
      if (parts.length <= 1) continue;
      for (const part of parts) splitPiece(part, counter.countUpTo(part, chunkSize));
      run.step(p.end);
      return;
    }
    leaves.push(p);
    sizes.push(unsplittable(p, tokens));
  };
  splitPiece(root, counter.countUpTo(root, chunkSize));
  return { leaves, sizes };
}

import type { TokenEncodingName, Unit, UnitName } from '../types';
import type { SpanMeter } from './meter';
import type { TiktokenUnit } from './tiktoken';

/**
 * A unit of size: everything the engine, the CLI and the page need to know about it, so a new unit is one file
 * with one of these and one line in ./index.ts (UNITS). Code asks the descriptor's fields, never the unit's name.
 */
export interface UnitDescriptor<Name extends UnitName = UnitName> {
  name: Name;
  /** Next to numbers ("512 chars", "300 tokens"). */
  label: string;
  /** Where units of one kind must be told apart (the hover): "tokens (cl100k_base)". */
  longLabel: string;
  /** The page's unit menu: "Characters", "Tokens · cl100k_base (GPT-4, GPT-3.5)". */
  title: string;
  /** One counted thing, for sentences ("about 4 characters per token"). */
  noun: string;
  /** How it counts, for help text. */
  description: string;
  /**
   * The count of a concatenation is the sum of the counts (cut at code-point boundaries): characters and bytes are,
   * words and tokens are not (two halves of a word are two words; BPE merges across a join).
   */
  additive: boolean;
  /** count(text) === text.length: sizes are offsets, and the page shows no second size in characters. */
  isLength: boolean;
  /** Counts tokens of this tiktoken encoding. */
  tokenizer?: TokenEncodingName;
  /**
   * The most UTF-16 code units one counted thing spans, when bounded by a constant (characters 1, bytes 1: a code
   * unit is at least one byte): a text longer than limit times this counts more than limit without being counted.
   */
  mostCodeUnitsPerCount?: number;
  /** The counted segments of `text`, for a unit that counts segments rather than code units (words). */
  segments?(text: string): { starts: ArrayLike<number>; ends: ArrayLike<number> };
  /** Which count of a language sample (characters, tokens) this unit's sizes compare with, for "size in words". */
  sampleCount?: 'chars' | 'tokens';
  /** How "copy as code" programs count it; absent for a token unit (the programs use its tokenizer). */
  program?: UnitProgram;
  /** The unit (a token encoding loads its ranks on first use). */
  load(): Promise<Unit>;
  /** How it counts spans of one source text (see SpanMeter): measure.ts's meterFor keeps the last one per unit. */
  meter(unit: Unit, source: string): SpanMeter;
}

/** What a generated program (src/core/export) writes to count a unit that is not a token encoding. */
export interface UnitProgram {
  /** JavaScript: the lines defining the counter, a function `(t) => number`, and its name (absent: characters, the libraries' default). */
  js?: { setup: readonly string[]; count: string };
  /** Python: a `(t) -> int` expression (absent: len, the libraries' default), and a comment line about it. */
  py?: { count: string; note?: string };
  /** Python: a callable that LlamaIndex's splitters take as `tokenizer` (they count the length of its result). */
  pyTokenizer: string;
  /** The name of Chonkie's tokenizer for it (absent: Chonkie has none). */
  chonkie?: string;
  /** About how many characters one counts (LlamaIndex's CodeSplitter counts characters). */
  charsPer: number;
}

/**
 * Whether `unit` counts tiktoken tokens (units/tiktoken.ts): the packers, windows and compat modes ask this rather
 * than `instanceof TiktokenUnit`, so they hold no import of the class and its BPE code loads only with an encoding.
 */
export function isTiktokenUnit(unit: Unit): unit is TiktokenUnit {
  return (unit as Partial<TiktokenUnit>).countsTiktokenTokens === true;
}

/**
 * js-tiktoken's `encode(text)` default (disallowedSpecial "all"), which LangChain's and LlamaIndex's token splitters
 * inherit: text holding a special token such as <|endoftext|> throws, with js-tiktoken's message (the first one in
 * the text is named).
 */
export function rejectSpecialTokenText(source: string, unit: Pick<TiktokenUnit, 'specialTokens'>): void {
  let firstAt = -1;
  let found = '';
  for (const special of Object.keys(unit.specialTokens)) {
    const at = source.indexOf(special);
    if (at !== -1 && (firstAt === -1 || at < firstAt)) {
      firstAt = at;
      found = special;
    }
  }
  if (firstAt !== -1) throw new Error(`The text contains a special token that is not allowed: ${found}`);
}

/**
 * The built-in model's tokenizer, run directly from its tokenizer.json: the steps transformers.js 4.3
 * (@huggingface/tokenizers 0.2) takes for this file, and no others, so the ids are the same:
 *
 * 1. the text is split at the added tokens that are not normalized (`[PAD]`, `[UNK]`: matched literally, before
 *    lowercasing; such a piece is its own token);
 * 2. every other piece is lowercased (`Lowercase` normalizer: String.prototype.toLowerCase on the whole piece, which
 *    is context-sensitive: a final sigma becomes ς);
 * 3. `BertPreTokenizer`: whitespace (JavaScript's `\s`) separates words, and every punctuation code point (`\p{P}` or
 *    ASCII `!-/ :-@ [-` {-~`) is a word of its own;
 * 4. `WordLevel` (transformers.js has no WordLevel class: a vocabulary object without merges or subword prefix gets
 *    its plain lookup): a word's id is its vocabulary entry, or the id of tokenizer_config.json's `unk_token`.
 *
 * `readStaticTokenizer` refuses a tokenizer.json that asks for anything else (another normalizer, pre-tokenizer,
 * post-processor, a normalized or stripping added token): such a model stays on the ONNX path.
 */

import { VocabTable } from './vocabTable';

const SPACE = 1;
const PUNCT = 2;
const WORD = 3;
const PUNCTUATION = /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u;
const WHITESPACE = /^\s$/u;

/** Class of each UTF-16 code unit, filled on first sight (0: not classified yet). */
const unitClass = new Uint8Array(0x10000);
/** Classes of astral code points (no whitespace there; a few punctuation marks, e.g. U+10100). */
const astralClass = new Map<number, number>();

function classify(codePoint: string): number {
  return WHITESPACE.test(codePoint) ? SPACE : PUNCTUATION.test(codePoint) ? PUNCT : WORD;
}
// ASCII classified up front: the scanner reads it without decoding code points.
for (let unit = 0; unit < 0x80; unit++) unitClass[unit] = classify(String.fromCharCode(unit));

function classOfUnit(unit: number): number {
  let c = unitClass[unit]!;
  if (c === 0) unitClass[unit] = c = classify(String.fromCharCode(unit));
  return c;
}

function classOfAstral(codePoint: number): number {
  let c = astralClass.get(codePoint);
  if (c === undefined) astralClass.set(codePoint, (c = classify(String.fromCodePoint(codePoint))));
  return c;
}

/** Length in code units and class of the code point at `i` (a lone surrogate is a code point of its own, as in /u). */
function codePointAt(text: string, i: number): { width: number; cls: number } {
  const info = codePointInfo(text, i);
  return { width: info >> 2, cls: info & 3 };
}

/** codePointAt packed in one number, class | width << 2 (no object in the encoder's inner loop). */
function codePointInfo(text: string, i: number, end = text.length): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return classOfAstral((unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000) | (2 << 2);
  }
  return classOfUnit(unit) | (1 << 2);
}

/** Word bounds found by bertPreTokenize: start, end pairs; grows as needed. */
class Bounds {
  data = new Int32Array(512);
  length = 0;
  push(start: number, end: number): void {
    if (this.length + 2 > this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = start;
    this.data[this.length++] = end;
  }
}

/** BertPreTokenizer on an already lowercased piece: appends each word's bounds in `piece` to `out`. */
function bertPreTokenize(piece: string, out: Bounds): void {
  const n = piece.length;
  let i = 0;
  while (i < n) {
    const unit = piece.charCodeAt(i);
    // ASCII needs no code point decoding (and is most of any English text).
    const cls = unit < 0x80 ? unitClass[unit]! : codePointAt(piece, i).cls;
    const width = unit < 0xd800 || unit > 0xdbff ? 1 : codePointAt(piece, i).width;
    if (cls === SPACE) i += width;
    else if (cls === PUNCT) {
      out.push(i, i + width);
      i += width;
    } else {
      const start = i;
      i = wordEnd(piece, i);
      out.push(start, i);
    }
  }
}

/** End of the run of word code points that starts at `i`. */
function wordEnd(piece: string, i: number): number {
  const n = piece.length;
  while (i < n) {
    const unit = piece.charCodeAt(i);
    if (unit < 0x80) {
      if (unitClass[unit] !== WORD) break;
      i++;
      continue;
    }
    const { width, cls } = codePointAt(piece, i);
    if (cls !== WORD) break;
    i += width;
  }
  return i;
}

export interface StaticTokenizer {
  /** Token ids of `text` (no special tokens are added: this tokenizer has no post-processor). */
  encode(text: string): number[];
  /** The same ids in a buffer reused by the next call (the embedder's inner loop: no array per text). */
  encodeShared(text: string): Int32Array;
  /** Token strings as transformers.js' `tokenize` gives them: each word as written after lowercasing. */
  tokens(text: string): string[];
  readonly vocabSize: number;
  /** Whether `text` holds an added token (`[UNK]`, ...: matched literally, before lowercasing). */
  containsAddedToken(text: string): boolean;
  /**
   * What a lookup outside this class needs (wasm/asciiEmbed.ts): the vocabulary, the unknown word's id, the class of
   * each ASCII code unit and of any other (1 whitespace, 2 punctuation, 3 word).
   */
  readonly lookupTables: { vocabulary: VocabTable; unkId: number; asciiClasses: Uint8Array; classOf: (unit: number) => number };
}

export interface TokenizerJson {
  added_tokens?: { id: number; content: string; single_word?: boolean; lstrip?: boolean; rstrip?: boolean; normalized?: boolean; special?: boolean }[];
  normalizer?: { type?: string } | null;
  pre_tokenizer?: { type?: string } | null;
  post_processor?: unknown;
  model?: { type?: string; vocab?: unknown; unk_token?: string; merges?: unknown; continuing_subword_prefix?: unknown };
}

/** Why this tokenizer.json cannot be run directly, or null when it can. */
function unsupported(json: TokenizerJson, config: { unk_token?: unknown }): string | null {
  const model = json.model;
  if (model?.type !== 'WordLevel' || typeof model.vocab !== 'object' || model.vocab === null || Array.isArray(model.vocab)) return 'not a WordLevel vocabulary';
  if (model.merges !== undefined || model.continuing_subword_prefix !== undefined) return 'a vocabulary with merges or subword prefix';
  if (json.normalizer?.type !== 'Lowercase') return `normalizer ${JSON.stringify(json.normalizer?.type ?? null)}`;
  if (json.pre_tokenizer?.type !== 'BertPreTokenizer') return `pre-tokenizer ${JSON.stringify(json.pre_tokenizer?.type ?? null)}`;
  if (json.post_processor !== null && json.post_processor !== undefined) return 'a post-processor';
  for (const t of json.added_tokens ?? []) {
    // transformers.js treats a special token as not normalized unless the file says otherwise.
    const normalized = t.normalized ?? !(t.special ?? false);
    if (normalized || t.lstrip || t.rstrip || t.single_word || t.content === '') return `added token ${JSON.stringify(t.content)} is normalized or strips`;
  }
  if (typeof config.unk_token !== 'string' || config.unk_token !== model.unk_token) return 'unk_token differs between tokenizer.json and tokenizer_config.json';
  return null;
}

/**
 * What a WordLevel tokenizer.json comes down to: its vocabulary as a lookup table, the unknown word's id and the
 * added tokens (matched literally before lowercasing). vocabFile.ts stores it precompiled beside tokenizer.json.
 */
export interface CompiledVocabulary {
  table: VocabTable;
  unkId: number;
  added: string[];
}

/** The compiled vocabulary of a WordLevel tokenizer.json, or the reason it must stay on the ONNX path. */
export function compileStaticTokenizer(json: TokenizerJson, config: { unk_token?: unknown }): CompiledVocabulary | { refused: string } {
  const why = unsupported(json, config);
  if (why) return { refused: why };
  const vocab = json.model!.vocab as Record<string, number>;
  const added = json.added_tokens ?? [];
  // Own keys and their values in one order (vocab[word] would read the prototype for a word "__proto__").
  const words = Object.keys(vocab);
  const values = Object.values(vocab);
  let chars = 0;
  for (const word of words) chars += word.length;
  // Later entries replace earlier ones (as Map.set): the added tokens' ids win over the vocabulary's.
  const table = VocabTable.empty(words.length + added.length, chars);
  for (let i = 0; i < words.length; i++) table.set(words[i]!, values[i]!);
  for (const t of added) table.set(t.content, t.id);
  const unk = config.unk_token as string;
  const unkId = table.get(unk, 0, unk.length);
  if (unkId < 0) return { refused: 'unk_token is not in the vocabulary' };
  return { table, unkId, added: added.map((t) => t.content) };
}

/** The tokenizer of a WordLevel tokenizer.json, or the reason it must stay on the ONNX path. */
export function readStaticTokenizer(json: TokenizerJson, config: { unk_token?: unknown }): StaticTokenizer | { refused: string } {
  const compiled = compileStaticTokenizer(json, config);
  return 'refused' in compiled ? compiled : staticTokenizerFrom(compiled);
}

/** The tokenizer of a compiled vocabulary (from compileStaticTokenizer or a vocabulary file). */
export function staticTokenizerFrom({ table, unkId, added }: CompiledVocabulary): StaticTokenizer {
  return new WordLevelTokenizer(table, unkId, added);
}

/** The capital sigma: the one code point whose lowercase depends on its neighbours (Final_Sigma). */
const CAPITAL_SIGMA = '\u03a3';

class WordLevelTokenizer implements StaticTokenizer {
  /** Added tokens by first code unit, longest first (matched before normalization, as a DictionarySplitter does). */
  private readonly addedByFirst = new Map<number, string[]>();
  /** 1 for a code unit that starts an added token. */
  private readonly firstUnits = new Uint8Array(0x10000);
  private readonly bounds = new Bounds();
  private idBuffer = new Int32Array(256);
  private idCount = 0;
  /** The first code unit of every added token when they all share one, else null. */
  private readonly onlyFirstUnit: string | null;

  constructor(
    private readonly ids: VocabTable,
    private readonly unkId: number,
    added: string[],
  ) {
    for (const content of [...new Set(added)].sort((a, b) => b.length - a.length)) {
      const first = content.charCodeAt(0);
      const list = this.addedByFirst.get(first) ?? [];
      list.push(content);
      this.addedByFirst.set(first, list);
      this.firstUnits[first] = 1;
    }
    this.onlyFirstUnit = this.addedByFirst.size === 1 ? String.fromCharCode([...this.addedByFirst.keys()][0]!) : null;
  }

  get vocabSize(): number {
    return this.ids.size;
  }

  get lookupTables(): { vocabulary: VocabTable; unkId: number; asciiClasses: Uint8Array; classOf: (unit: number) => number } {
    return { vocabulary: this.ids, unkId: this.unkId, asciiClasses: unitClass.subarray(0, 0x80), classOf: classOfUnit };
  }

  containsAddedToken(text: string): boolean {
    if (this.addedByFirst.size === 0) return false;
    const only = this.onlyFirstUnit;
    if (only !== null) {
      for (let i = text.indexOf(only); i >= 0; i = text.indexOf(only, i + 1)) if (this.addedAt(text, i) !== null) return true;
      return false;
    }
    for (let i = 0; i < text.length; i++) if (this.firstUnits[text.charCodeAt(i)] === 1 && this.addedAt(text, i) !== null) return true;
    return false;
  }

  encode(text: string): number[] {
    return Array.from(this.encodeShared(text));
  }

  encodeShared(text: string): Int32Array {
    this.idCount = 0;
    if (text.includes(CAPITAL_SIGMA)) {
      // Final_Sigma makes lowercasing depend on the whole piece: lowercase it whole, as transformers.js does.
      this.split(text, (piece) => {
        const b = this.bounds;
        for (let k = 0; k < b.length; k += 2) this.pushWord(piece, b.data[k]!, b.data[k + 1]!);
      }, (added) => this.pushAdded(added));
    } else {
      this.splitRanges(text);
    }
    return this.idBuffer.subarray(0, this.idCount);
  }

  private push(id: number): void {
    if (this.idCount === this.idBuffer.length) {
      const bigger = new Int32Array(this.idBuffer.length * 2);
      bigger.set(this.idBuffer);
      this.idBuffer = bigger;
    }
    this.idBuffer[this.idCount++] = id;
  }

  /** The id of an already lowercased word, piece[from, to). */
  private pushWord(piece: string, from: number, to: number): void {
    const id = this.ids.get(piece, from, to);
    this.push(id < 0 ? this.unkId : id);
  }

  private pushAdded(content: string): void {
    this.push(this.ids.get(content, 0, content.length));
  }

  /** encodeShared for a text without a capital sigma: the pieces between added tokens, each encoded in place. */
  private splitRanges(text: string): void {
    let from = 0;
    const n = text.length;
    const onlyFirst = this.onlyFirstUnit;
    for (let i = 0; this.addedByFirst.size > 0 && i < n; ) {
      if (onlyFirst !== null) {
        // One first unit (the usual `[`): let indexOf find the candidates.
        i = text.indexOf(onlyFirst, i);
        if (i < 0) break;
      } else if (this.firstUnits[text.charCodeAt(i)] === 0) {
        i++;
        continue;
      }
      const match = this.addedAt(text, i);
      if (match === null) {
        i++;
        continue;
      }
      this.encodeRange(text, from, i);
      this.pushAdded(match);
      i += match.length;
      from = i;
    }
    this.encodeRange(text, from, n);
  }

  /**
   * Lowercase + BertPreTokenizer + lookup of text[from, end) without copying it. Lowercasing leaves whitespace and
   * punctuation as they are and, without a capital sigma, maps each code point on its own, so the words can be found
   * in the original text: an ASCII word is looked up lowercased unit by unit; a word with other code points is
   * sliced, lowercased and pre-tokenized again (its lowercase may differ in length).
   */
  private encodeRange(text: string, from: number, end: number): void {
    let i = from;
    while (i < end) {
      const unit = text.charCodeAt(i);
      const info = unit < 0x80 ? unitClass[unit]! | (1 << 2) : codePointInfo(text, i, end);
      const cls = info & 3;
      if (cls === SPACE) {
        i += info >> 2;
        continue;
      }
      if (cls === PUNCT) {
        this.pushWord(text, i, i + (info >> 2));
        i += info >> 2;
        continue;
      }
      const start = i;
      let ascii = true;
      while (i < end) {
        const u = text.charCodeAt(i);
        if (u < 0x80) {
          if (unitClass[u] !== WORD) break;
          i++;
          continue;
        }
        const wordInfo = codePointInfo(text, i, end);
        if ((wordInfo & 3) !== WORD) break;
        ascii = false;
        i += wordInfo >> 2;
      }
      if (ascii) {
        const id = this.ids.getAsciiLowered(text, start, i);
        this.push(id < 0 ? this.unkId : id);
      } else {
        const lower = text.slice(start, i).toLowerCase();
        const b = this.bounds;
        b.length = 0;
        bertPreTokenize(lower, b);
        for (let k = 0; k < b.length; k += 2) this.pushWord(lower, b.data[k]!, b.data[k + 1]!);
      }
    }
  }

  tokens(text: string): string[] {
    const out: string[] = [];
    this.split(text, (piece) => {
      const b = this.bounds;
      for (let k = 0; k < b.length; k += 2) out.push(piece.slice(b.data[k]!, b.data[k + 1]!));
    }, (added) => out.push(added));
    return out;
  }

  /**
   * Splits `text` at the added tokens; each other piece is lowercased and pre-tokenized into this.bounds, then
   * given to `onPiece`; each added token to `onAdded`, in text order.
   */
  private split(text: string, onPiece: (lowered: string) => void, onAdded: (content: string) => void): void {
    let from = 0;
    const piece = (end: number) => {
      if (end <= from) return;
      const lower = text.slice(from, end).toLowerCase();
      this.bounds.length = 0;
      bertPreTokenize(lower, this.bounds);
      onPiece(lower);
    };
    const n = text.length;
    for (let i = 0; this.addedByFirst.size > 0 && i < n; ) {
      if (this.firstUnits[text.charCodeAt(i)] === 0) {
        i++;
        continue;
      }
      const match = this.addedAt(text, i);
      if (match === null) {
        i++;
        continue;
      }
      piece(i);
      onAdded(match);
      i += match.length;
      from = i;
    }
    piece(text.length);
  }

  /** The longest added token that starts at `i`, or null. */
  private addedAt(text: string, i: number): string | null {
    const candidates = this.addedByFirst.get(text.charCodeAt(i));
    if (!candidates) return null;
    for (const c of candidates) if (text.startsWith(c, i)) return c;
    return null;
  }
}

/**
 * The sentence tokenizer of LlamaIndex TS's SentenceSplitter (@llamaindex/core 0.6.x, node-parser; a copy of the
 * `natural` package's SentenceTokenizer with English and Spanish abbreviations, `trimSentences` off), re-implemented
 * from its behaviour with source offsets:
 *
 * 1. abbreviations (case-insensitive, anywhere: "art." inside "start." counts), then URIs and e-mail addresses, then
 *    numbers ("1,000.5") are hidden behind placeholders `{{KIND_n}}` (one counter for all kinds, in that order);
 * 2. delimiters — `[.?!… ]*[.?!…]` plus one closing quote or bracket — become placeholders too;
 * 3. the text is cut after every delimiter; each sentence is reverted placeholder by placeholder (every entry in
 *    the order it was made, with String.replace, so `$` patterns in a replacement are live), then empty sentences
 *    at either end are dropped. Sentences are not trimmed: they concatenate to the text.
 *
 * The package reverts every sentence against every placeholder of the text (quadratic) and splits with one
 * alternation of all delimiter placeholders; the fast path here finds the same cuts in a few linear passes.
 * It is exact unless the text itself contains a placeholder-like `{{ABBREV_`, `{{URI_`, `{{NUMBER_` or `{{DELIM_`,
 * or a URI contains `$` (String.replace would expand `$&`, `` $` ``, `$'`, `$$` in it): those texts take the literal
 * algorithm (`literalSentences`), which is as slow as the package.
 *
 * QUIRK reproduced: a URI that contains an abbreviation ("www.etc.com") keeps the abbreviation's placeholder in
 * the package's text ("www.{{ABBREV_0}}com"): the URI was hidden after the abbreviation inside it, and the
 * abbreviation's turn to be reverted came first. Such a sentence is not a piece of the source.
 */

const ENGLISH = ['i.e.', 'etc.', 'vs.', 'Inc.', 'A.S.A.P.', 'Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Prof.', 'Sr.', 'Jr.', 'Tel.', 'a.m.', 'p.m.', 'Art.'];
const SPANISH = ['Sr.', 'Sres.', 'Srs.', 'Sra.', 'Sras.', 'Srta.', 'Srtas.', 'Dr.', 'Drs.', 'Dra.', 'Dras.', 'Prof.', 'Profs.', 'Profa.', 'Profas.', 'Ing.', 'Lic.', 'Arq.', 'Ab.', 'Abs.'];

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** In the package's order: the first alternative that matches at a position wins (not the longest). */
const ABBREVIATIONS = new RegExp(`(${[...ENGLISH, ...SPANISH].map(escapeRe).join('|')})`, 'gi');
const URIS = /(https?:\/\/\S+|www\.\S+|ftp:\/\/\S+|(mailto:)?[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}|file:\/\/\S+)/gi;
const NUMBERS = /\b\d{1,3}(?:,\d{3})*(?:\.\d+)?\b/g;
/** Every URI alternative needs one of these (the e-mail one an "@", the others "://" or "www."). */
const URI_MARKS = /@|:\/\/|www\./gi;
const DELIMITERS = /([.?!… ]*)([.?!…])(["'”’)}\]]?)/g;
/** A text containing this could collide with the tokenizer's own placeholders. */
const PLACEHOLDER_LIKE = /\{\{(?:ABBREV|URI|NUMBER|DELIM)_/;

/** A sentence: [start, end) in the text given; `text` only when the package's string is not that slice. */
export interface SentencePiece {
  start: number;
  end: number;
  text?: string;
}

/** What one replace pass did: in the output, [outStart, outStart + outLength) stands for the input range. */
interface Replacement {
  outStart: number;
  outLength: number;
  inStart: number;
  inLength: number;
}

/**
 * Replace every match of `re` in `input` by a placeholder of `kind` (counter from `counter.n`); returns the output
 * and the replacements in order. `onMatch` sees each match's input range and text.
 */
function hide(
  input: string,
  matches: RegExp | Iterable<{ index: number; 0: string }>,
  kind: string,
  counter: { n: number },
  onMatch?: (start: number, text: string) => void,
): { out: string; reps: Replacement[] } {
  const reps: Replacement[] = [];
  let out = '';
  let last = 0;
  for (const m of matches instanceof RegExp ? regexIterator(input, matches) : matches) {
    const placeholder = `{{${kind}_${counter.n++}}}`;
    out += input.slice(last, m.index);
    reps.push({ outStart: out.length, outLength: placeholder.length, inStart: m.index, inLength: m[0].length });
    out += placeholder;
    onMatch?.(m.index, m[0]);
    last = m.index + m[0].length;
  }
  return { out: out + input.slice(last), reps };
}

function* regexIterator(input: string, re: RegExp): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(input)) !== null) yield m;
}

/**
 * The matches of URIS in `input`, found only in the whitespace-free runs holding an "@", "://" or "www.": every
 * alternative is whitespace-free and starts on a non-space character, so a match lies inside one run and the runs
 * can be scanned one by one. Scanning the whole text instead costs ~75 ms per MiB (the e-mail alternative retries
 * each word at every position) when a single "@" is anywhere in the paragraph.
 */
function uriMatches(input: string): { index: number; 0: string }[] {
  const out: { index: number; 0: string }[] = [];
  URI_MARKS.lastIndex = 0;
  let mark: RegExpExecArray | null;
  let scannedTo = 0;
  while ((mark = URI_MARKS.exec(input)) !== null) {
    if (mark.index < scannedTo) continue;
    let start = mark.index;
    while (start > scannedTo && !isJsSpace(input.charCodeAt(start - 1))) start--;
    let end = mark.index;
    while (end < input.length && !isJsSpace(input.charCodeAt(end))) end++;
    const run = input.slice(start, end);
    URIS.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = URIS.exec(run)) !== null) out.push({ index: start + m.index, 0: m[0] });
    scannedTo = end;
    URI_MARKS.lastIndex = Math.max(URI_MARKS.lastIndex, end);
  }
  return out;
}

/** JavaScript's \s (what ends \S+ in the URI pattern). */
function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Maps increasing output positions (never inside a placeholder) back to input positions. */
class Backmap {
  private i = 0;
  constructor(private readonly reps: Replacement[]) {}
  toInput(pos: number): number {
    const reps = this.reps;
    while (this.i < reps.length && reps[this.i]!.outStart + reps[this.i]!.outLength <= pos) this.i++;
    // reps[i - 1] is the last placeholder ending at or before pos.
    const prev = this.i > 0 ? reps[this.i - 1]! : null;
    if (!prev) return pos;
    return prev.inStart + prev.inLength + (pos - prev.outStart - prev.outLength);
  }
}

/** LlamaIndex TS's sentences of `text`, as ranges of it (the package's string when it is not the range's text). */
export function llamaindexSentences(text: string): SentencePiece[] {
  if (PLACEHOLDER_LIKE.test(text)) return literalSentences(text);
  const counter = { n: 0 };
  const step1 = hide(text, ABBREVIATIONS, 'ABBREV', counter);
  // URIs whose package text differs from the source (an abbreviation placeholder left inside): by their start in step1.
  const alteredUris = new Map<number, string>();
  let dollar = false;
  const step2 = hide(step1.out, uriMatches(step1.out), 'URI', counter, (start, match) => {
    if (match.includes('$')) dollar = true;
    if (match.includes('{{ABBREV_')) alteredUris.set(start, match);
  });
  if (dollar) return literalSentences(text);
  const step3 = hide(step2.out, NUMBERS, 'NUMBER', counter);

  // Delimiter ends in step3's coordinates, mapped back to the source through the three passes.
  const to2 = new Backmap(step3.reps);
  const to1 = new Backmap(step2.reps);
  const to0 = new Backmap(step1.reps);
  const cuts: number[] = [];
  DELIMITERS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DELIMITERS.exec(step3.out)) !== null) cuts.push(to0.toInput(to1.toInput(to2.toInput(m.index + m[0].length))));

  const pieces: SentencePiece[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push({ start: from, end: cut });
    from = cut;
  }
  // The text after the last delimiter (the package's trailing "" sentence is dropped).
  if (from < text.length || cuts.length === 0) pieces.push({ start: from, end: text.length });
  if (pieces.length === 1 && pieces[0]!.end === 0) return []; // "" gives no sentence
  if (alteredUris.size > 0) withAlteredUris(text, pieces, step1, alteredUris);
  return pieces;
}

/** Sentences holding a URI with a leftover abbreviation placeholder get the package's string. */
function withAlteredUris(text: string, pieces: SentencePiece[], step1: { reps: Replacement[] }, altered: Map<number, string>): void {
  // Each altered URI's source range: its step1 range mapped back (step1 output → source).
  const uris = [...altered.entries()].map(([start1, match]) => {
    const map = new Backmap(step1.reps);
    return { start: map.toInput(start1), end: new Backmap(step1.reps).toInput(start1 + match.length), text: match };
  });
  for (const piece of pieces) {
    const inside = uris.filter((u) => u.start >= piece.start && u.end <= piece.end);
    if (inside.length === 0) continue;
    let s = '';
    let at = piece.start;
    for (const u of inside) {
      s += text.slice(at, u.start) + u.text;
      at = u.end;
    }
    piece.text = s + text.slice(at, piece.end);
  }
}

/**
 * The package's algorithm as it is (placeholders, one alternation of all delimiter placeholders, sequential
 * String.replace reverts), for the texts the fast path cannot promise to match. Each sentence is located in the
 * text by searching forward from the previous one; a sentence that is not found gets the range of its length.
 */
export function literalSentences(text: string): SentencePiece[] {
  const replacements = new Map<string, string>();
  const delimiters = new Map<string, string>();
  let n = 0;
  const hideAll = (input: string, re: RegExp, kind: string, into: Map<string, string>) =>
    input.replace(re, (match: string) => {
      const placeholder = `{{${kind}_${n++}}}`;
      into.set(placeholder, match);
      return placeholder;
    });
  let s = hideAll(text, ABBREVIATIONS, 'ABBREV', replacements);
  s = hideAll(s, URIS, 'URI', replacements);
  s = hideAll(s, NUMBERS, 'NUMBER', replacements);
  s = hideAll(s, DELIMITERS, 'DELIM', delimiters);
  let sentences: string[];
  if (delimiters.size === 0) {
    sentences = [s];
  } else {
    const parts = s.split(new RegExp(`(${[...delimiters.keys()].map(escapeRe).join('|')})`));
    sentences = [];
    for (let i = 0; i < parts.length; i += 2) sentences.push(parts[i]! + (parts[i + 1] ?? ''));
  }
  const revert = (sentence: string, map: Map<string, string>): string => {
    let out = sentence;
    for (const [placeholder, value] of map) out = out.replace(new RegExp(escapeRe(placeholder), 'g'), value);
    return out;
  };
  sentences = sentences.map((x) => revert(revert(x, replacements), delimiters));
  while (sentences.length > 0 && sentences[sentences.length - 1] === '') sentences.pop();
  while (sentences.length > 0 && sentences[0] === '') sentences.shift();
  const pieces: SentencePiece[] = [];
  let at = 0;
  for (const sentence of sentences) {
    if (text.startsWith(sentence, at)) {
      pieces.push({ start: at, end: at + sentence.length });
      at += sentence.length;
      continue;
    }
    const found = text.indexOf(sentence, at);
    const start = found >= 0 ? found : Math.min(at, text.length);
    const end = found >= 0 ? found + sentence.length : Math.min(text.length, start + sentence.length);
    pieces.push({ start, end, text: sentence });
    at = end;
  }
  return pieces;
}

/**
 * Guard for separators given as regular expressions. JavaScript regexes backtrack and cannot be interrupted, so a
 * pattern such as (a+)+ can freeze the worker (or the CLI) on a crafted document. Rather than prove a pattern safe,
 * we accept a conservative subset and explain, in one line, why anything else is refused:
 *
 * - at most MAX_PATTERN_LENGTH characters, and it must compile with the `u` flag;
 * - no backreferences (\1, \k<name>): they make matching NP-hard in general;
 * - no quantifier inside a repeated group: (a+)+, (.*)*, (a?b)+, (\s*x){2,};
 * - alternation inside a repeated group only between plain literal strings none of which is a prefix of another:
 *   (\r\n|\n)+ is fine, (a|a)* and (a|ab)+ are refused;
 * - no two adjacent unbounded atoms that can match the same character: \s*\s*, .*.*, \w+\d+ (polynomial blow-up on
 *   long runs);
 * - it must not match the empty string (a separator has to consume text).
 */

const MAX_PATTERN_LENGTH = 200;

export type RegexCheck = { ok: true; regex: RegExp } | { ok: false; reason: string };

interface Quantifier {
  min: number;
  max: number; // Infinity when unbounded
}

type Node =
  | { kind: 'atom'; source: string; literal: string | null; quant: Quantifier | null }
  | { kind: 'group'; alternatives: Node[][]; quant: Quantifier | null }
  | { kind: 'assertion'; quant: null };

class PatternError extends Error {}

/** Characters used to decide whether two atoms can match the same character. */
const PROBES: string[] = (() => {
  const probes: string[] = [];
  for (let c = 0x09; c <= 0x7e; c++) probes.push(String.fromCharCode(c));
  probes.push('\u00a0', '\u2028', '\u3000', 'é', 'ß', 'я', 'ع', '中', 'あ', '😀', '\u200d');
  return probes;
})();

/** A recursive-descent reader of a pattern: alternatives, atoms (groups, classes, escapes) and quantifiers. */
class PatternParser {
  pos = 0;
  constructor(readonly pattern: string) {}

  parseAlternatives(): Node[][] {
    const alternatives: Node[][] = [[]];
    while (this.pos < this.pattern.length) {
      const ch = this.pattern[this.pos]!;
      if (ch === ')') break;
      if (ch === '|') {
        this.pos++;
        alternatives.push([]);
        continue;
      }
      const node = this.parseAtom();
      if (node.kind !== 'assertion') node.quant = this.parseQuantifier();
      alternatives[alternatives.length - 1]!.push(node);
    }
    return alternatives;
  }

  parseAtom(): Node {
    const ch = this.pattern[this.pos]!;
    if (ch === '^' || ch === '$') {
      this.pos++;
      return { kind: 'assertion', quant: null };
    }
    if (ch === '(') {
      this.pos++;
      let lookaround = false;
      if (this.pattern.startsWith('?:', this.pos)) this.pos += 2;
      else if (this.pattern.startsWith('?=', this.pos) || this.pattern.startsWith('?!', this.pos)) (this.pos += 2), (lookaround = true);
      else if (this.pattern.startsWith('?<=', this.pos) || this.pattern.startsWith('?<!', this.pos)) (this.pos += 3), (lookaround = true);
      else if (this.pattern.startsWith('?<', this.pos)) {
        const close = this.pattern.indexOf('>', this.pos);
        if (close < 0) throw new PatternError('unterminated group name');
        this.pos = close + 1;
      }
      const alternatives = this.parseAlternatives();
      if (this.pattern[this.pos] !== ')') throw new PatternError('unbalanced parenthesis');
      this.pos++;
      if (lookaround) {
        // A lookaround consumes nothing; its inside still must not be catastrophic on its own.
        checkSequenceList(alternatives);
        return { kind: 'assertion', quant: null };
      }
      return { kind: 'group', alternatives, quant: null };
    }
    if (ch === '[') {
      const start = this.pos;
      this.pos++;
      if (this.pattern[this.pos] === '^') this.pos++;
      if (this.pattern[this.pos] === ']') this.pos++;
      while (this.pos < this.pattern.length && this.pattern[this.pos] !== ']') this.pos += this.pattern[this.pos] === '\\' ? 2 : 1;
      if (this.pos >= this.pattern.length) throw new PatternError('unterminated character class');
      this.pos++;
      return { kind: 'atom', source: this.pattern.slice(start, this.pos), literal: null, quant: null };
    }
    if (ch === '\\') {
      const next = this.pattern[this.pos + 1];
      if (next === undefined) throw new PatternError('this.pattern ends with a backslash');
      if (/[1-9]/.test(next) || next === 'k') throw new PatternError('backreferences are not allowed');
      if (next === 'b' || next === 'B') {
        this.pos += 2;
        return { kind: 'assertion', quant: null };
      }
      // Escapes with a payload: \uXXXX, \u{...}, \xXX, \p{...}, \cX.
      const m = /^\\(?:u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|.)/su.exec(
        this.pattern.slice(this.pos),
      )!;
      this.pos += m[0].length;
      const source = m[0];
      const literal = /^\\[dDwWsSpPbB.]/.test(source) || /^\\[pP]/.test(source) ? null : unescapeLiteral(source);
      return { kind: 'atom', source, literal, quant: null };
    }
    if ('*+?{'.includes(ch) && !(ch === '{' && !/^\{\d+(,\d*)?\}/.test(this.pattern.slice(this.pos)))) {
      throw new PatternError('a quantifier has nothing to repeat');
    }
    const cp = this.pattern.codePointAt(this.pos)!;
    const text = String.fromCodePoint(cp);
    this.pos += text.length;
    return { kind: 'atom', source: text, literal: ch === '.' ? null : text, quant: null };
  }

  parseQuantifier(): Quantifier | null {
    const rest = this.pattern.slice(this.pos);
    let q: Quantifier | null = null;
    let m: RegExpExecArray | null;
    if (rest[0] === '*') (q = { min: 0, max: Infinity }), this.pos++;
    else if (rest[0] === '+') (q = { min: 1, max: Infinity }), this.pos++;
    else if (rest[0] === '?') (q = { min: 0, max: 1 }), this.pos++;
    else if ((m = /^\{(\d+)(,(\d*))?\}/.exec(rest))) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      q = { min, max };
      this.pos += m[0].length;
    }
    if (q && this.pattern[this.pos] === '?') this.pos++; // lazy: same backtracking risk
    if (q && '*+?{'.includes(this.pattern[this.pos] ?? '') && /^(\*|\+|\?|\{\d)/.test(this.pattern.slice(this.pos))) {
      throw new PatternError('a quantifier follows another quantifier');
    }
    return q;
  }
}

function parse(pattern: string): Node[] {
  const parser = new PatternParser(pattern);
  const top = parser.parseAlternatives();
  if (parser.pos < pattern.length) throw new PatternError('unbalanced parenthesis');
  return [top].flatMap((alts) => (alts.length === 1 ? alts[0]! : [{ kind: 'group', alternatives: alts, quant: null }]));
}

function unescapeLiteral(source: string): string | null {
  try {
    const probe = new RegExp(`^${source}$`, 'u');
    for (const candidate of ['\n', '\r', '\t', '\f', '\v', '\0']) if (probe.test(candidate)) return candidate;
    const body = source.slice(1);
    if (/^u\{/.test(body)) return String.fromCodePoint(parseInt(body.slice(2, -1), 16));
    if (/^[ux]/.test(body)) return String.fromCharCode(parseInt(body.slice(1), 16));
    if (/^c/.test(body)) return null;
    return body; // an escaped punctuation character such as \. or \|
  } catch {
    return null;
  }
}

function isRepeated(q: Quantifier | null): boolean {
  return q !== null && q.max > 1;
}

function containsQuantifier(nodes: Node[]): boolean {
  return nodes.some(
    (n) => n.quant !== null || (n.kind === 'group' && n.alternatives.some((alt) => containsQuantifier(alt))),
  );
}

/** The literal string an alternative matches, or null when it is not a plain literal. */
function literalOf(nodes: Node[]): string | null {
  let text = '';
  for (const n of nodes) {
    if (n.kind !== 'atom' || n.quant !== null || n.literal === null) return null;
    text += n.literal;
  }
  return text;
}

function mayMatchSameCharacter(a: Node, b: Node): boolean {
  if (a.kind !== 'atom' || b.kind !== 'atom') return true;
  let ra: RegExp, rb: RegExp;
  try {
    ra = new RegExp(`^(?:${a.source})$`, 'su');
    rb = new RegExp(`^(?:${b.source})$`, 'su');
  } catch {
    return true;
  }
  return PROBES.some((p) => ra.test(p) && rb.test(p));
}

function checkSequenceList(alternatives: Node[][]): void {
  for (const alt of alternatives) checkSequence(alt);
}

function checkSequence(nodes: Node[]): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.kind === 'group') {
      if (isRepeated(n.quant)) {
        if (n.alternatives.some((alt) => containsQuantifier(alt))) {
          throw new PatternError('nested quantifiers such as (a+)+ can backtrack catastrophically');
        }
        if (n.alternatives.length > 1) {
          const literals = n.alternatives.map(literalOf);
          if (literals.some((l) => l === null || l === '')) {
            throw new PatternError('alternation inside a repeated group must be between plain literal strings');
          }
          const strings = literals as string[];
          for (let x = 0; x < strings.length; x++) {
            for (let y = 0; y < strings.length; y++) {
              if (x !== y && strings[y]!.startsWith(strings[x]!)) {
                throw new PatternError('alternatives in a repeated group overlap (as in (a|a)* or (a|ab)+)');
              }
            }
          }
        }
      }
      checkSequenceList(n.alternatives);
    }
    const next = nodes[i + 1];
    if (
      next &&
      n.quant?.max === Infinity &&
      next.quant?.max === Infinity &&
      mayMatchSameCharacter(n, next)
    ) {
      throw new PatternError('two adjacent repeated parts can match the same text (as in \\s*\\s*)');
    }
  }
}

/** Check a separator pattern; on success returns the compiled global regex. */
export function checkSeparatorRegex(pattern: string): RegexCheck {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, reason: `is longer than ${MAX_PATTERN_LENGTH} characters` };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'gu');
  } catch (e) {
    const detail = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    return { ok: false, reason: `is not a valid regular expression (${detail.split('\n')[0]})` };
  }
  try {
    checkSequence(parse(pattern));
  } catch (e) {
    if (e instanceof PatternError) return { ok: false, reason: `is refused: ${e.message}` };
    throw e;
  }
  if (new RegExp(`^(?:${pattern})$`, 'u').test('')) {
    return { ok: false, reason: 'matches the empty string (a separator must consume text)' };
  }
  return { ok: true, regex };
}

import type { Node } from 'web-tree-sitter';
import { isWhitespaceCode, meterFor, type SpanMeter } from '../measure';
import { mergePieces, packLevels, RunGuard, type MergeParams } from '../merge';
import type { DocumentStructure, SplitSpan, StructureSection } from '../registry';
import { separatorLevels, splitOnSeparator } from '../segment/separators';
import type { LoadWasm, Range, Unit } from '../types';
import {
  childUnits,
  codeHeadingPathAt,
  definitionOf,
  indentBefore,
  unitsOf,
  withParsedCode,
  type CodeDefinition,
  type CodeUnit,
  type DefinitionInfo,
  type ParsedCode,
} from './code';
import { CODE_LANGUAGES, type CodeLanguageName } from '../strategies/code/languages';
import { GRAMMAR_RULES, type GrammarRules } from '../strategies/code/grammarRules';
import type { StructureSpan } from './markdownSplit';

export interface CodeSplitOptions {
  language: CodeLanguageName;
  size: number;
  overlap: number;
  unit: Unit;
  /** The file's path or name: the first line of every chunk's prefix (`# file: src/app.py`); none when absent. */
  path?: string | null;
  /** Reads the runtime and grammar wasm files (see ChunkContext.loadWasm). */
  loadWasm: LoadWasm;
  signal?: { aborted: boolean };
  onProgress?: (fraction: number) => void;
}

/** Inside a line too large for a chunk (in a long string or comment): words, then grapheme clusters. */
const LINE_SEPARATORS = [' ', ''];

/**
 * The prefix lines may take at most this fraction of `size`: beyond it the outermost signatures are dropped, then the
 * path line, so that a chunk always has room for its own text.
 */
export const MAX_PREFIX_FRACTION = 1 / 2;

/**
 * Split source code at its syntax (tree-sitter):
 * - the file's top-level units (a definition or statement with the comments glued before it) are packed up to the
 *   size, so imports and small functions share chunks while every unit that fits stays whole;
 * - a unit too large is cut at its children: a definition (class, function, impl, ...) becomes a context of its
 *   own (its header line packed with its first members or statements; the chunks after the first carry its
 *   signature in their prefix), any other node is opened in place; atoms on one line are kept together when they
 *   fit, so chunks start at line starts;
 * - what opens a definition (glued comments, decorators, annotations, attributes, `export`, `template <...>`, the
 *   header up to the body) is its head: it starts the chunk that holds the body's first members and never makes a
 *   chunk of its own when it fits with the header. A decorated definition that fits only without its decorator is
 *   therefore opened (decorator + header + first members, then the rest), not kept whole with the decorator alone:
 *   the user gets chunks within the size whose first one reads like the definition's start, rather than an
 *   oversize chunk or a chunk of bare `@dataclass`;
 * - a leaf still too large (a long string) is cut at lines, then words, then grapheme clusters.
 * Each chunk's `content` = `prefix` + its source text, where the prefix is the path line (`# file: <path>` or
 * `// file: <path>`, only when a path is given) and the signatures of the enclosing definitions whose header is not
 * in the chunk (outermost first, each with its own indentation), then the chunk's first-line indentation when there
 * are signatures and it fits. No path and no enclosing signature: no prefix (content = text).
 * The size covers the prefix: text is packed up to `size` minus the context's prefix lines.
 */
export async function splitCode(text: string, options: CodeSplitOptions): Promise<StructureSpan[]> {
  const guard = new RunGuard({ signal: options.signal, onProgress: options.onProgress }, text.length);
  return withParsedCode(text, options.language, options.loadWasm, (parsed) => splitParsedCode(parsed, options, guard), {
    signal: options.signal,
    guard,
  });
}

/** The same on a file already parsed: the thin driver over the packing functions below. */
export function splitParsedCode(
  parsed: Pick<ParsedCode, 'text' | 'outline'>,
  options: Omit<CodeSplitOptions, 'loadWasm'>,
  guard = new RunGuard({ signal: options.signal, onProgress: options.onProgress }, parsed.text.length),
): StructureSpan[] {
  const { text, outline } = parsed;
  const env: SplitEnv = {
    text,
    rules: GRAMMAR_RULES[options.language],
    definitions: outline.definitions,
    definitionAt: definitionIndexByRange(outline.definitions),
    size: options.size,
    overlap: options.overlap,
    unit: options.unit,
    meter: meterFor(options.unit, text),
    guard,
    wordLevels: separatorLevels(text, LINE_SEPARATORS, false, 'start'),
    pathLine: options.path ? `${CODE_LANGUAGES[options.language].lineComment} file: ${options.path}` : null,
    out: [],
  };
  const top = new PackingContext(env, 0, [], fitPrefix(env, []));
  visitUnits(env, top, outline.topLevel, null);
  top.flush(text.length);
  return env.out;
}

/** What the packing functions share for one file: read-only, but for `out`, the chunks made so far. */
interface SplitEnv {
  readonly text: string;
  readonly rules: GrammarRules;
  readonly definitions: readonly CodeDefinition[];
  /** The index of the (first) definition whose unit is exactly [start, end), keyed `start:end`. */
  readonly definitionAt: ReadonlyMap<string, number>;
  readonly size: number;
  readonly overlap: number;
  readonly unit: Unit;
  readonly meter: SpanMeter;
  readonly guard: RunGuard;
  /** How a line too large for a chunk is cut: words, then grapheme clusters. */
  readonly wordLevels: ReturnType<typeof separatorLevels>;
  /** `# file: <path>`, when a path is given. */
  readonly pathLine: string | null;
  readonly out: StructureSpan[];
}

/** The index of the first definition of each range, keyed `start:end`. */
export function definitionIndexByRange(definitions: readonly Range[]): Map<string, number> {
  const at = new Map<string, number>();
  definitions.forEach((d, i) => {
    const key = `${d.start}:${d.end}`;
    if (!at.has(key)) at.set(key, i);
  });
  return at;
}

/** The size of [a, b) in the unit, blanks at either end left out. */
function trimmedSize(env: Pick<SplitEnv, 'text' | 'meter'>, a: number, b: number): number {
  const { text } = env;
  while (a < b && isWhitespaceCode(text.charCodeAt(a))) a++;
  while (b > a && isWhitespaceCode(text.charCodeAt(b - 1))) b--;
  return a >= b ? 0 : env.meter.exact(a, b);
}

// ---------------------------------------------------------------------------------------------------------------
// Visiting the syntax tree: each unit is kept whole, joined to a pending head, or cut at its children.
// ---------------------------------------------------------------------------------------------------------------

/** Units of one level, in order: whole when they fit, else opened (a definition in a context of its own). */
function visitUnits(env: SplitEnv, ctx: PackingContext, units: readonly CodeUnit[], opened: Node | null): void {
  for (let k = 0; k < units.length; k++) {
    const u = units[k]!;
    env.guard.tick(u.start);
    const step = ctx.head ? headStep(env, ctx, ctx.head, u, opened) : 'go-on';
    if (step === 'joined') continue;
    if (step !== 'open' && (ctx.head ? ctx.fitsHead(u.end) : ctx.fits(u))) addWholeUnit(env, ctx, u, opened);
    else k = cutUnit(env, ctx, units, k, opened);
  }
}

/**
 * A unit met while the context's head (what opens its definition) is pending:
 * - before the body (decorators, `class X:`, `fn f(...) ->`): it joins the head while they fit (`joined`), the head
 *   restarting nearer the definition when it cannot take it;
 * - what holds the body (the wrapped declaration, the body itself) must be opened (`open`): the definition did not
 *   fit its context, so its first chunk is the head with the body's first members;
 * - anything else too large to take the head along must be opened when it is a definition (a first method), else
 *   the head is placed alone, still holding the definition's header line (a statement is never opened to take a
 *   head) and the unit goes on as any other (`go-on`).
 */
function headStep(env: SplitEnv, ctx: PackingContext, head: Head, u: CodeUnit, opened: Node | null): 'joined' | 'open' | 'go-on' {
  if (u.end <= head.body.start) {
    while (!ctx.fitsHead(u.end) && ctx.restartHead(u.start));
    if (ctx.fitsHead(u.end)) {
      head.end = u.end;
      return 'joined';
    }
  }
  const node = u.node;
  const holdsBody = u.start <= head.body.start && head.body.end <= u.end;
  if (node.childCount > 0 && holdsBody) return 'open';
  if (!ctx.fitsHead(u.end)) {
    if (node.childCount > 0 && isDefinitionUnit(env, u, opened)) return 'open';
    ctx.placeHead(u.start);
  }
  return 'go-on';
}

/** A unit that fits: one atom (the head's first one when a head is pending), or opened to keep cuts at line starts. */
function addWholeUnit(env: SplitEnv, ctx: PackingContext, u: CodeUnit, opened: Node | null): void {
  if (ctx.head) {
    ctx.addAtom({ start: u.start, end: u.end });
    return;
  }
  // A node that starts inside a line and runs over several (the callback in `x = f(() => {`) is opened when it
  // cannot join its line's piece, so that cuts stay between lines rather than before its first token.
  const reopenable = reopens(env, u);
  const open = (): void => visitUnits(env, ctx, childUnits(env.text, u, env.rules), opened);
  if (reopenable && !startsLine(env.text, u.start) && ctx.hasPieces() && !ctx.gluesToLast(u)) open();
  else ctx.addAtom({ start: u.start, end: u.end, closing: isClosingToken(u.node), ...(reopenable ? { reopen: open } : {}) });
}

/**
 * A unit too large for its place, cut at its children: a statement whose glued comments are what does not fit
 * stays whole after them; a definition is packed in a context of its own (taking the units that trail it); a leaf
 * is cut as text; any other node is opened in place. Returns the index of the last unit used.
 */
function cutUnit(env: SplitEnv, ctx: PackingContext, units: readonly CodeUnit[], k: number, opened: Node | null): number {
  const u = units[k]!;
  const node = u.node;
  const info = opened && node.equals(opened) ? null : definitionOf(node, env.rules);
  const index = info ? env.definitionAt.get(`${u.start}:${u.end}`) : undefined;
  if (!ctx.head && u.start < node.startIndex && index === undefined && ctx.fits({ start: node.startIndex, end: u.end })) {
    // A statement whose glued comments are what does not fit stays whole (a definition instead is opened below,
    // its comments joining its header).
    ctx.addText({ start: u.start, end: node.startIndex });
    ctx.addAtom({ start: node.startIndex, end: u.end });
    return k;
  }
  if (info && index !== undefined) {
    const last = lastTrailingUnit(env, units, k);
    packDefinition(env, ctx, u, info, index, units[last]!.end);
    return last;
  }
  if (node.childCount === 0) ctx.addText(u);
  else visitUnits(env, ctx, childUnits(env.text, u, env.rules), opened);
  return k;
}

/**
 * What closes unit `k` or ends its line (`}` of the enclosing body, `;`, a trailing comment) goes with its last
 * chunk rather than making a chunk of its own: the index of the last such unit (`k` when none).
 */
function lastTrailingUnit(env: Pick<SplitEnv, 'text' | 'rules'>, units: readonly CodeUnit[], k: number): number {
  const trails = (next: CodeUnit): boolean =>
    isClosingToken(next.node) || (!startsLine(env.text, next.start) && (!next.node.isNamed || env.rules.leading.has(next.node.type)));
  while (k + 1 < units.length && trails(units[k + 1]!)) k++;
  return k;
}

/**
 * A definition too large for its context, packed in a context of its own over [start, end): its members or
 * statements are visited there, and everything before its body (glued comments, decorators, attributes, `export`,
 * `template <...>`, the header) is the new context's head. A head pending outside (the enclosing definition's
 * header, this being its first member) starts this context's first chunk.
 */
function packDefinition(env: SplitEnv, ctx: PackingContext, u: CodeUnit, info: DefinitionInfo, index: number, end: number): void {
  const start = ctx.takeHead()?.start ?? u.start;
  ctx.aside({ start, end }, () => {
    const chain = [...ctx.chain, index];
    const kept = fitPrefix(env, chain);
    const inner = new PackingContext(env, start, chain, kept);
    inner.head = definitionHead(env, { start, unit: u, index, opens: info.body ?? info.inner, kept, packSize: inner.params.size });
    // A wrapper (decorators, export, template) is opened too; its declaration is opened in place.
    visitUnits(env, inner, unitsOf(env.text, u.node.children, env.rules), info.inner === u.node ? null : info.inner);
    inner.flush(end);
  });
}

/**
 * The head of a definition packed in its own context. It joins the first part of the body, never a chunk of its
 * own: so a decorated definition that fits only without its decorator is opened (decorator + header + first
 * members, then the rest) rather than kept whole with its decorator alone: every chunk stays within the size, and
 * the decorator stays with the code it decorates. The chunk that starts with the head shows the header itself, so
 * its budget leaves the definition's own signature out of the prefix.
 */
export function definitionHead(
  env: Pick<SplitEnv, 'definitions' | 'unit' | 'size'>,
  at: { start: number; unit: CodeUnit; index: number; opens: Pick<Node, 'startIndex' | 'endIndex'>; kept: PrefixLines; packSize: number },
): Head {
  const { kept, index } = at;
  const withoutOwn = prefixSize(env.unit, prefixLines(kept.pathLine, kept.signatures.filter((i) => i !== index), env.definitions));
  return {
    start: at.start,
    end: at.unit.node.startIndex,
    own: at.unit.start,
    signatureStart: env.definitions[index]!.signatureStart,
    size: Math.max(at.packSize, env.size - withoutOwn),
    body: { start: at.opens.startIndex, end: at.opens.endIndex },
  };
}

/** Whether a unit that fits may still be opened to keep cuts at line starts: a multi-line node, not a definition. */
function reopens(env: Pick<SplitEnv, 'text' | 'rules'>, u: CodeUnit): boolean {
  return u.node.childCount > 0 && /[\r\n]/.test(env.text.slice(u.start, u.end)) && !definitionOf(u.node, env.rules);
}

/** Whether the unit is a definition that `visitUnits` would pack in a context of its own. */
function isDefinitionUnit(env: Pick<SplitEnv, 'rules' | 'definitionAt'>, u: CodeUnit, opened: Node | null): boolean {
  return !(opened && u.node.equals(opened)) && definitionOf(u.node, env.rules) !== null && env.definitionAt.has(`${u.start}:${u.end}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Prefixes: the path line and the signatures of the enclosing definitions a chunk does not show.
// ---------------------------------------------------------------------------------------------------------------

/** The prefix's lines: the path line, then each signature with its own indentation (outermost first). */
export function prefixLines(
  pathLine: string | null,
  signatures: readonly number[],
  definitions: readonly Pick<CodeDefinition, 'indent' | 'signature'>[],
): string[] {
  return [...(pathLine !== null ? [pathLine] : []), ...signatures.map((i) => definitions[i]!.indent + definitions[i]!.signature)];
}

/** Size of the prefix made of these lines (each ends with a newline); 0 for none. */
export function prefixSize(unit: Pick<Unit, 'count'>, lines: readonly string[]): number {
  return lines.length === 0 ? 0 : unit.count(lines.join('\n') + '\n');
}

/**
 * The prefix a context inside the definitions `chain` (outermost first) leaves room for: at most
 * MAX_PREFIX_FRACTION of the size, the outermost signatures dropped first, then the path line.
 */
export function fitPrefix(
  env: Pick<SplitEnv, 'pathLine' | 'definitions' | 'unit' | 'size'>,
  chain: readonly number[],
): PrefixLines {
  const signatures = [...chain];
  let path = env.pathLine;
  const count = (): number => prefixSize(env.unit, prefixLines(path, signatures, env.definitions));
  let size = count();
  while (size > env.size * MAX_PREFIX_FRACTION && signatures.length > 0) {
    signatures.shift();
    size = count();
  }
  if (size > env.size * MAX_PREFIX_FRACTION) {
    path = null;
    size = 0;
  }
  return { pathLine: path, signatures, size };
}

/**
 * A packed span as a code chunk: its heading path, and its prefix (the path line and the signatures of the
 * enclosing definitions that start before it, then its first-line indentation under signatures when that fits).
 * A span packed to a head's budget loses `oversize` once its content, prefix included, fits the size.
 */
export function describeSpan(
  env: Pick<SplitEnv, 'text' | 'definitions' | 'unit' | 'size'>,
  kept: Pick<PrefixLines, 'pathLine' | 'signatures'>,
  span: SplitSpan,
): StructureSpan {
  const { text, definitions, unit } = env;
  // A signature is repeated only for chunks that do not show it themselves.
  const signatures = kept.signatures.filter((i) => definitions[i]!.signatureStart < span.start);
  const lines = prefixLines(kept.pathLine, signatures, definitions);
  const described: StructureSpan = { ...span, headingPath: codeHeadingPathAt(definitions, span.start), contentType: 'code' };
  if (lines.length > 0) {
    const own = text.slice(span.start, span.end);
    described.prefix = lines.join('\n') + '\n';
    // Under signatures, the chunk's first line keeps its indentation (the content reads as nested code) when that
    // still fits the size.
    const indent = signatures.length > 0 ? indentBefore(text, span.start) : '';
    const overAnyway = span.oversize === true && unit.count(described.prefix + own) > env.size;
    if (indent && (overAnyway || unit.count(described.prefix + indent + own) <= env.size)) described.prefix += indent;
    described.content = described.prefix + own;
  }
  if (signatures.length > 0) described.signature = signatures.map((i) => definitions[i]!.signature).join('\n');
  if (described.oversize && unit.count(described.content ?? text.slice(span.start, span.end)) <= env.size) delete described.oversize;
  return described;
}

// ---------------------------------------------------------------------------------------------------------------
// Packing: atoms glued into pieces, pieces merged into chunks, one context per definition being cut.
// ---------------------------------------------------------------------------------------------------------------

/**
 * Adds an atom to the pending pieces: glued to the last piece when the two fit together and the atom does not
 * start its line or is a closing token (`}` on its own line stays with the code it closes). When it cannot join
 * its line's piece, the cut moves to the line's start if an atom of that piece starts there (never inside a
 * definition kept whole), or the atom spanning the line start is opened (`reopen`: a multi-line expression such as
 * a callback) and the atoms after it are added again through `readd`, so that chunks start at line starts.
 */
export function packAtom(pieces: Piece[], atom: Atom, text: string, fits: (r: Range) => boolean, readd: (atom: Atom) => void): void {
  const last = pieces[pieces.length - 1];
  if (last && (atom.closing || !startsLine(text, atom.start)) && fits({ start: last.start, end: atom.end })) {
    last.end = atom.end;
    last.atoms.push(atom);
    return;
  }
  if (last && !startsLine(text, atom.start)) {
    const lineStart = firstOfLine(text, atom.start);
    if (lineStart > last.start && fits({ start: lineStart, end: atom.end })) {
      const at = last.atoms.findIndex((a) => a.start === lineStart);
      if (at > 0) {
        const moved = last.atoms.splice(at);
        last.end = lineStart;
        pieces.push({ start: lineStart, end: atom.end, atoms: [...moved, atom] });
        return;
      }
      const spanning = last.atoms.findIndex((a) => a.start < lineStart && lineStart < a.end && a.reopen);
      if (spanning >= 0) {
        const again = last.atoms.splice(spanning);
        if (last.atoms.length === 0) pieces.pop();
        else last.end = again[0]!.start;
        again[0]!.reopen!();
        for (const a of again.slice(1)) readd(a);
        readd(atom);
        return;
      }
    }
  }
  pieces.push({ start: atom.start, end: atom.end, atoms: [atom] });
}

/** A packing context: the chunks inside one definition (or the file), sharing one prefix budget. */
class PackingContext {
  readonly params: MergeParams;
  private pieces: Piece[] = [];
  private segmentStart: number;
  /**
   * What opens the definition this context packs and is not placed yet: the comments, decorators, attributes,
   * `export`/`template <...>` and header before its body. It joins the first atom that follows, so it never
   * makes a chunk of its own when it fits with that atom (see `headStep`).
   */
  head: Head | null = null;
  constructor(
    private readonly env: SplitEnv,
    from: number,
    readonly chain: number[],
    private readonly kept: PrefixLines,
  ) {
    this.segmentStart = from;
    this.params = { size: Math.max(1, env.size - kept.size), overlap: env.overlap, meter: env.meter, guard: env.guard };
  }

  fits(r: Range): boolean {
    return trimmedSize(this.env, r.start, r.end) <= this.params.size;
  }

  /** Whether the head joined with what ends at `end` fits the first chunk. */
  fitsHead(end: number): boolean {
    return this.head !== null && trimmedSize(this.env, this.head.start, end) <= this.head.size;
  }

  /**
   * The head cannot take what comes next (at `at`, before the body): the part carried from the enclosing
   * definition is placed first, else the head up to the line holding `at`; the head goes on from there, so the
   * decorators nearest the definition stay with its header. False when nothing is left to place.
   */
  restartHead(at: number): boolean {
    const text = this.env.text;
    const head = this.head!;
    const cut = head.start < head.own && head.own <= at ? head.own : startsLine(text, at) ? at : Math.max(head.start, firstOfLine(text, at));
    if (cut <= head.start) return false;
    this.placeHeadPart(head.start, cut, head.size);
    head.start = cut;
    head.end = Math.max(head.end, cut);
    // From inside the header on, the chunk no longer shows the signature: it needs it in its prefix.
    if (cut > head.signatureStart) head.size = this.params.size;
    return true;
  }

  private placeHeadPart(a: number, b: number, size: number): void {
    if (!hasCode(this.env.text, a, b)) return;
    // A head too large for a chunk (a long doc comment) is cut at its lines like any text.
    if (trimmedSize(this.env, a, b) <= size) {
      this.pieces.push({ start: a, end: b, atoms: [{ start: a, end: b }] });
      return;
    }
    // Its lines are atoms of their own: the rest of the head stays pending meanwhile.
    const pending = this.head;
    this.head = null;
    this.addLines({ start: a, end: b });
    this.head = pending;
  }

  /** An atom: the head's first one makes one piece with it; any other is packed by `packAtom`. */
  addAtom(atom: Atom): void {
    if (this.head) {
      // The first atom after the head: one piece from the head's start (not reopenable: its start is not its own).
      const start = this.head.start;
      this.head = null;
      this.pieces.push({ start, end: atom.end, atoms: [{ start, end: atom.end, closing: atom.closing }] });
      return;
    }
    packAtom(
      this.pieces,
      atom,
      this.env.text,
      (r) => this.fits(r),
      (a) => this.addAtom(a),
    );
  }

  /**
   * A range with no structure left to use (glued comments, a leaf such as a long string): whole if it fits, else
   * its lines as atoms, and a line still too large is packed on its own by words, then grapheme clusters.
   */
  addText(r: Range): void {
    this.placeHead(r.start);
    this.addLines(r);
  }

  private addLines(r: Range): void {
    if (r.start >= r.end) return;
    if (this.fits(r)) {
      this.addAtom({ start: r.start, end: r.end });
      return;
    }
    for (const line of splitOnSeparator(this.env.text, r.start, r.end, '\n', 'end')) {
      if (this.fits(line)) {
        this.addAtom(line);
        continue;
      }
      this.flushPieces(line.start);
      const spans: SplitSpan[] = [];
      packLevels(this.env.text, line.start, line.end, this.env.wordLevels, this.params, spans);
      this.describe(spans);
      this.segmentStart = line.end;
    }
  }

  /**
   * The head as a piece of its own: what follows it (at `next`) cannot join it (a statement too large to share a
   * chunk, a header line too long). When `next` is inside a line, the head's part on that line becomes a piece
   * that `next` may join, so that the cut stays at a line start.
   */
  placeHead(next?: number): void {
    const head = this.head;
    if (!head) return;
    this.head = null;
    const text = this.env.text;
    const cut = next !== undefined && !startsLine(text, next) ? Math.max(head.start, Math.min(head.end, firstOfLine(text, next))) : head.end;
    this.placeHeadPart(head.start, cut, head.size);
    this.placeHeadPart(cut, head.end, head.size);
  }

  /** The head, handed to a nested context that starts with it (the first member, opened to take it). */
  takeHead(): Head | null {
    const head = this.head;
    this.head = null;
    return head;
  }

  /** Something packed on its own (a nested context) takes [r.start, r.end). */
  aside(r: Range, pack: () => void): void {
    this.flush(r.start);
    pack();
    this.segmentStart = r.end;
  }

  /** Pack the pending pieces, made contiguous over [segmentStart, until) so no text falls between them. */
  flush(until: number): void {
    if (this.head) this.head.end = until;
    this.placeHead();
    this.flushPieces(until);
  }

  /** The same, the head (if any) left pending: a long line packed on its own while the head is being placed. */
  private flushPieces(until: number): void {
    const text = this.env.text;
    // Text after the last nested context, with no piece of its own (`}  // namespace x` closing an outer one):
    // on the line where the last chunk ends it joins that chunk when it fits, else it is packed here.
    if (this.pieces.length === 0 && hasCode(text, this.segmentStart, until) && !this.extendLastChunk(until)) {
      this.addText({ start: this.segmentStart, end: until });
    }
    const pieces = this.pieces;
    this.pieces = [];
    if (pieces.length === 0) return;
    pieces[0]!.start = Math.min(pieces[0]!.start, this.segmentStart);
    for (let k = 0; k + 1 < pieces.length; k++) pieces[k]!.end = pieces[k + 1]!.start;
    pieces[pieces.length - 1]!.end = Math.max(pieces[pieces.length - 1]!.end, until);
    const spans: SplitSpan[] = [];
    mergePieces(text, pieces, this.params, spans);
    this.describe(spans);
  }

  private extendLastChunk(until: number): boolean {
    const { text, out } = this.env;
    const last = out[out.length - 1];
    let end = until;
    while (end > this.segmentStart && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
    if (!last || last.end > this.segmentStart || /[\r\n]/.test(text.slice(last.end, end))) return false;
    const content = (last.prefix ?? '') + text.slice(last.start, end);
    if (this.env.unit.count(content) > this.env.size) return false;
    last.end = end;
    if (last.content !== undefined) last.content = content;
    return true;
  }

  hasPieces(): boolean {
    return this.pieces.length > 0;
  }

  /** Whether `r` would join the last pending piece (it fits with it). */
  gluesToLast(r: Range): boolean {
    const last = this.pieces[this.pieces.length - 1];
    return last !== undefined && this.fits({ start: last.start, end: r.end });
  }

  private describe(spans: SplitSpan[]): void {
    for (const span of spans) this.env.out.push(describeSpan(this.env, this.kept, span));
  }
}

/** What the packer glues into pieces: a node that fits (or a line of text), kept whole unless it can be reopened. */
export interface Atom extends Range {
  /** A closing token (`}`, `);`): joins the piece before it even from the start of its line. */
  closing?: boolean;
  /** Adds the atom's children instead of the atom (a multi-line expression that is not a definition). */
  reopen?: () => void;
}

/** What opens a definition, from `start` to `end` so far; units ending before its body may still join it. */
export interface Head {
  start: number;
  end: number;
  /** Where the definition's own unit starts (before it: the enclosing definition's header, carried along). */
  own: number;
  signatureStart: number;
  /** The budget of the chunk that starts with the head. */
  size: number;
  /** The definition's body (its declaration when it has none): the nodes holding it are opened for the head. */
  body: Range;
}

export interface Piece extends Range {
  /** The atoms glued into this piece, in order (where it may be cut or reopened). */
  atoms: Atom[];
}

export interface PrefixLines {
  pathLine: string | null;
  /** Indexes of the definitions whose signatures the context's chunks may repeat (outermost first). */
  signatures: number[];
  /** Size of the full prefix in the unit (what the context's chunks leave room for). */
  size: number;
}

/** A short anonymous token (`}`, `)`, `;`, `end`): kept with the code before it. */
function isClosingToken(node: Node): boolean {
  return !node.isNamed && node.endIndex - node.startIndex <= 3;
}

function hasCode(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isWhitespaceCode(text.charCodeAt(i))) return true;
  return false;
}

/** The first non-blank character of the line holding `at`. */
function firstOfLine(text: string, at: number): number {
  let i = at;
  while (i > 0 && text.charCodeAt(i - 1) !== 0x0a && text.charCodeAt(i - 1) !== 0x0d) i--;
  while (i < at && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  return i;
}

function startsLine(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  return i === 0 || text.charCodeAt(i - 1) === 0x0a || text.charCodeAt(i - 1) === 0x0d;
}

export interface CodeStructureOptions {
  language: CodeLanguageName;
  path?: string | null;
  loadWasm: LoadWasm;
  signal?: { aborted: boolean };
}

/**
 * The file's sections: one per top-level definition (with the comments glued before it and the blank lines after
 * it), and one per run of other top-level code between them (imports, statements); headingPathAt gives the names
 * of the definitions enclosing an offset, at any depth. The title is the file name, when a path is given.
 */
export async function codeStructure(text: string, options: CodeStructureOptions): Promise<DocumentStructure> {
  const outline = await withParsedCode(text, options.language, options.loadWasm, (parsed) => parsed.outline, { signal: options.signal });
  const title = options.path ? options.path.split(/[\\/]/).pop() || undefined : undefined;
  return { sections: codeSections(text, outline.definitions), headingPathAt: (offset) => codeHeadingPathAt(outline.definitions, offset), ...(title ? { title } : {}) };
}

/** Sections covering the text: top-level definitions and the non-blank runs between them. */
export function codeSections(text: string, definitions: readonly CodeDefinition[]): StructureSection[] {
  const topLevel = definitions.filter((d) => d.parent === -1);
  const starts: { at: number; path: string[] }[] = [];
  let from = 0;
  const gap = (a: number, b: number): void => {
    let s = a;
    while (s < b && isWhitespaceCode(text.charCodeAt(s))) s++;
    if (s < b) starts.push({ at: s, path: [] });
  };
  for (const d of topLevel) {
    gap(from, d.start);
    starts.push({ at: d.start, path: [d.name] });
    from = d.end;
  }
  gap(from, text.length);
  if (starts.length === 0) return text.length > 0 ? [{ start: 0, end: text.length, headingPath: [] }] : [];
  // Leading blank text belongs to the first section; each section runs to the next one's start.
  return starts.map((s, i) => ({ start: i === 0 ? 0 : s.at, end: starts[i + 1]?.at ?? text.length, headingPath: s.path }));
}

import { Language, Parser, type Node, type Tree, type TreeCursor } from 'web-tree-sitter';
import { lastStartingAtOrBefore } from '../ranges';
import type { LoadWasm, Range } from '../types';
import { CODE_LANGUAGES, RUNTIME_WASM, type CodeLanguageName } from '../strategies/code/languages';
import { GRAMMAR_RULES, type GrammarRules } from '../strategies/code/grammarRules';

/**
 * Parsing source code with tree-sitter (web-tree-sitter + prebuilt grammar wasm files) and reading its outline:
 * the definitions (functions, classes, methods, structs, impls, ...) with their names, signatures and ranges.
 *
 * Offsets: web-tree-sitter hands the JavaScript string to the parser as UTF-16, so `startIndex`/`endIndex` are
 * UTF-16 code-unit offsets, the same as String#slice (the tests check it with non-ASCII text and emoji).
 * The wasm bytes come from the host (ChunkContext.loadWasm); core never reads files or the network.
 */

// Once per process (worker or Node): the runtime, then each grammar on first use. A failed load is forgotten so
// that a later call can try again (a host whose loader failed once is not stuck).
let runtime: Promise<void> | null = null;
// Not document caches: one grammar and one parser per language for the life of the thread, whatever the text.
const grammars = new Map<CodeLanguageName, Promise<Language>>();
const parsers = new Map<CodeLanguageName, Parser>();

function loadRuntime(loadWasm: LoadWasm): Promise<void> {
  if (!runtime) {
    const started = loadWasm(RUNTIME_WASM).then((wasmBinary) => Parser.init({ wasmBinary }));
    runtime = started;
    started.catch(() => {
      if (runtime === started) runtime = null;
    });
  }
  return runtime;
}

/** The grammar of `language`, loaded once per process. */
export function loadCodeLanguage(language: CodeLanguageName, loadWasm: LoadWasm): Promise<Language> {
  let grammar = grammars.get(language);
  if (!grammar) {
    const started = loadRuntime(loadWasm).then(async () => Language.load(await loadWasm(CODE_LANGUAGES[language].wasm)));
    grammar = started;
    grammars.set(language, started);
    started.catch(() => {
      if (grammars.get(language) === started) grammars.delete(language);
    });
  }
  return grammar;
}

/** A parser for `language` (one per language, reused: parsing is synchronous, so runs never interleave). */
export async function codeParser(language: CodeLanguageName, loadWasm: LoadWasm): Promise<Parser> {
  const grammar = await loadCodeLanguage(language, loadWasm);
  let parser = parsers.get(language);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(grammar);
    parsers.set(language, parser);
  }
  return parser;
}

function abortError(): Error {
  const error = new Error('chunking was aborted');
  error.name = 'AbortError';
  return error;
}

/** A parsed file: its tree (owned by the cache below: never delete it) and its outline. */
export interface ParsedCode {
  language: CodeLanguageName;
  text: string;
  tree: Tree;
  outline: CodeOutline;
}

// The last file parsed, kept for the next call on the same text: chunk() asks for the structure and then the split,
// and the page re-splits the same document on every slider move; neither parses again.
// Not in documentCache: the tree is WASM memory that must be deleted when replaced, and documentCache evicts without a
// dispose step (an eviction while `use` runs would free a tree in use).
let lastParsed: ParsedCode | null = null;

/**
 * Run `use` on the parsed `text` (parsed now, or the last parse when the language and text are the same). `use` is
 * synchronous and nothing is awaited between taking the tree and using it, so no other call can replace (and
 * delete) the cached tree meanwhile.
 */
export async function withParsedCode<T>(
  text: string,
  language: CodeLanguageName,
  loadWasm: LoadWasm,
  use: (parsed: ParsedCode) => T,
  options: { signal?: { aborted: boolean }; guard?: { tick(at: number): void } } = {},
): Promise<T> {
  const parser = await codeParser(language, loadWasm);
  const { signal } = options;
  if (signal?.aborted) throw abortError();
  if (!lastParsed || lastParsed.language !== language || lastParsed.text !== text) {
    // The progress callback cancels the parse when it returns true.
    const tree = parser.parse(text, null, { progressCallback: () => signal?.aborted === true });
    if (!tree) {
      parser.reset();
      if (signal?.aborted) throw abortError();
      throw new Error(`the ${language} parser returned no tree`);
    }
    let outline: CodeOutline;
    try {
      outline = buildCodeOutline(text, tree, language, options.guard);
    } catch (error) {
      tree.delete();
      throw error;
    }
    lastParsed?.tree.delete();
    lastParsed = { language, text, tree, outline };
  }
  return use(lastParsed);
}

/** A definition found in the tree. `start` includes the comments and attributes glued before it. */
export interface CodeDefinition extends Range {
  name: string;
  /** First line(s) of the definition up to its body (`def total(self):`, `impl Cart`), decorators left out. */
  signature: string;
  /** Where the signature starts in the source. */
  signatureStart: number;
  /** Whitespace before the signature on its line (the definition's indentation). */
  indent: string;
  /** Index of the enclosing definition in CodeOutline.definitions, -1 at top level. */
  parent: number;
}

/** A unit of a node's children: one child plus the comments/attributes glued before it. */
export interface CodeUnit extends Range {
  node: Node;
}

/** What a definition node is: its name, the node holding its body, where its signature starts. */
export interface DefinitionInfo {
  name: string;
  /** The node whose children are the definition's own parts (the wrapped declaration for wrappers). */
  inner: Node;
  body: Node | null;
  signatureStart: number;
}

/** Children that are not part of a signature (decorators and annotations are left out of the prefix). */
const ANNOTATIONS = new Set(['decorator', 'annotation', 'marker_annotation', 'attribute_item', 'attribute_declaration']);
const FUNCTION_VALUES = new Set([
  'arrow_function',
  'function_expression',
  'function',
  'generator_function',
  'class',
  'class_expression',
]);

/** Whether `node` is a definition of its grammar, and what it defines. */
export function definitionOf(node: Node, rules: GrammarRules): DefinitionInfo | null {
  const type = node.type;
  if (rules.wrappers.has(type)) {
    const field = rules.wrappers.get(type)!;
    const inner = field ? node.childForFieldName(field) : lastNamedChild(node);
    if (!inner) return null;
    const info = definitionOf(inner, rules);
    if (!info) return null;
    // Decorators are not part of a signature; `export` and `template <...>` are.
    return type === 'decorated_definition' ? info : { ...info, signatureStart: node.startIndex };
  }
  if (rules.definitions.has(type)) return plainDefinition(node, type);
  if (rules.bindings.has(type)) return bindingDefinition(node);
  return null;
}

function plainDefinition(node: Node, type: string): DefinitionInfo | null {
  const signatureStart = signatureStartOf(node);
  const body = node.childForFieldName('body');
  switch (type) {
    case 'struct_specifier':
    case 'union_specifier':
    case 'enum_specifier':
    case 'class_specifier': {
      // `struct A *p` names a type without defining it; an anonymous `struct { ... }` is named by what holds it.
      const name = node.childForFieldName('name')?.text;
      if (!body || !name) return null;
      return { name, inner: node, body, signatureStart };
    }
    case 'type_definition': {
      // typedef struct { ... } Name;  — a definition only when the typedef'd type has a body.
      const typeBody = node.childForFieldName('type')?.childForFieldName('body') ?? null;
      if (!typeBody) return null;
      const declarator = node.childForFieldName('declarator');
      return { name: declarator?.text ?? '(anonymous)', inner: node, body: typeBody, signatureStart };
    }
    case 'function_definition': {
      const declarator = node.childForFieldName('declarator');
      // C/C++: the name is inside the declarator chain (pointer, reference, function declarator).
      const name = declarator ? declaratorName(declarator) : node.childForFieldName('name')?.text;
      return { name: name ?? '(anonymous)', inner: node, body, signatureStart };
    }
    case 'namespace_definition':
      return { name: node.childForFieldName('name')?.text ?? '(anonymous)', inner: node, body, signatureStart };
    case 'impl_item': {
      // `impl Matrix` → Matrix; `impl fmt::Display for Matrix` → fmt::Display for Matrix.
      const self = node.childForFieldName('type')?.text ?? 'impl';
      const trait = node.childForFieldName('trait')?.text;
      return { name: trait ? `${trait} for ${self}` : self, inner: node, body, signatureStart };
    }
    case 'type_declaration': {
      // Go: `type Cart struct {...}` or a group `type ( A int; B string )`.
      const specs = node.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias');
      const names = specs.map((s) => s.childForFieldName('name')?.text).filter((n): n is string => !!n);
      if (names.length === 0) return null;
      const typeBody = specs.length === 1 ? (specs[0]!.childForFieldName('type')?.namedChildren.find(isBodyLike) ?? null) : null;
      return { name: names.join(', '), inner: node, body: typeBody, signatureStart };
    }
    default: {
      const name = node.childForFieldName('name')?.text;
      if (!name) return null;
      return { name, inner: node, body, signatureStart };
    }
  }
}

/** `const f = () => {}`, `let C = class {}`, `handle = () => {}` in a class body. */
function bindingDefinition(node: Node): DefinitionInfo | null {
  let nameNode: Node | null = null;
  let value: Node | null = null;
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarators = node.namedChildren.filter((c) => c.type === 'variable_declarator');
    if (declarators.length !== 1) return null;
    nameNode = declarators[0]!.childForFieldName('name');
    value = declarators[0]!.childForFieldName('value');
  } else {
    nameNode = node.childForFieldName('name') ?? node.childForFieldName('property');
    value = node.childForFieldName('value');
  }
  if (!nameNode || !value || !FUNCTION_VALUES.has(value.type)) return null;
  return { name: nameNode.text, inner: node, body: value.childForFieldName('body'), signatureStart: signatureStartOf(node) };
}

function isBodyLike(node: Node): boolean {
  return node.type.endsWith('_list') || node.type.endsWith('_body') || node.type === 'block';
}

function lastNamedChild(node: Node): Node | null {
  const count = node.namedChildCount;
  return count > 0 ? node.namedChild(count - 1) : null;
}

function declaratorName(declarator: Node): string | undefined {
  let at: Node | null = declarator;
  // function_declarator / pointer_declarator / reference_declarator ... wrap the name in their `declarator` field.
  for (let depth = 0; at && depth < 16; depth++) {
    const inner: Node | null = at.childForFieldName('declarator');
    if (!inner) return at.text;
    at = inner;
  }
  return at?.text;
}

/** Where the signature starts: after decorators and annotations (kept in the chunk, not in the prefix). */
function signatureStartOf(node: Node): number {
  for (const child of node.children) {
    if (ANNOTATIONS.has(child.type)) continue;
    if (child.type === 'modifiers') {
      const first = child.children.find((c) => !ANNOTATIONS.has(c.type));
      if (first) return first.startIndex;
      continue;
    }
    return child.startIndex;
  }
  return node.startIndex;
}

/** The signature text: from its start to the body (or to the end of its first line when there is no body). */
export function signatureText(text: string, info: DefinitionInfo, node: Node): string {
  const start = info.signatureStart;
  let end = info.body && info.body.startIndex > start ? info.body.startIndex : -1;
  if (end < 0) {
    const lineEnd = text.indexOf('\n', start);
    end = lineEnd < 0 || lineEnd > node.endIndex ? node.endIndex : lineEnd;
  }
  return text.slice(start, end).trimEnd();
}

/** The whitespace between the start of the line and `at`, or '' when other text precedes it on its line. */
export function indentBefore(text: string, at: number): string {
  let i = at;
  while (i > 0 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  return i === 0 || text.charCodeAt(i - 1) === 0x0a || text.charCodeAt(i - 1) === 0x0d ? text.slice(i, at) : '';
}

/** Whether `at` is the first non-blank character of its line. */
function startsLine(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  return i === 0 || text.charCodeAt(i - 1) === 0x0a || text.charCodeAt(i - 1) === 0x0d;
}

/** Line breaks in text[a, b) (\r\n counts once). */
function lineBreaks(text: string, a: number, b: number): number {
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) n++;
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) n++;
  }
  return n;
}

/**
 * The children of `node` as units: a comment (or attribute) that starts its line glues to the next sibling when
 * only one line break separates them (doc comments, `#[derive]`), so the two are kept and named together.
 */
export function unitsOf(text: string, children: readonly Node[], rules: GrammarRules): CodeUnit[] {
  const units: CodeUnit[] = [];
  let pending: Node[] = [];
  const emitPending = (): void => {
    for (const p of pending) units.push({ start: p.startIndex, end: p.endIndex, node: p });
    pending = [];
  };
  for (const child of children) {
    const last = pending[pending.length - 1];
    if (last && lineBreaks(text, last.endIndex, child.startIndex) > 1) emitPending();
    if (rules.leading.has(child.type) && startsLine(text, child.startIndex)) {
      pending.push(child);
      continue;
    }
    if (pending.length > 0) {
      units.push({ start: pending[0]!.startIndex, end: child.endIndex, node: child });
      pending = [];
    } else {
      units.push({ start: child.startIndex, end: child.endIndex, node: child });
    }
  }
  emitPending();
  return units;
}

/**
 * The units of a unit's node's children, the comments glued before the node going with its first child (in Python
 * a comment above a class's first method is a child of the class, before its body block, not of the block).
 */
export function childUnits(text: string, unit: CodeUnit, rules: GrammarRules): CodeUnit[] {
  const units = unitsOf(text, unit.node.children, rules);
  const first = units[0];
  if (first && unit.start < first.start) units[0] = { ...first, start: unit.start };
  return units;
}

/** The definitions of a parsed file, in source order (parents before their children), and the top-level units. */
export interface CodeOutline {
  language: CodeLanguageName;
  definitions: CodeDefinition[];
  /** Units of the root's children (top-level statements and definitions). */
  topLevel: CodeUnit[];
}

/** One level of buildCodeOutline's walk: the siblings under one node. */
interface OutlineLevel {
  /** Enclosing definition of this level's units. */
  parent: number;
  /** Comments glued to the first unit of this level (from the node above), -1 for none. */
  carry: number;
  /** Whether a unit was already formed at this level (the carry goes to the first one only). */
  started: boolean;
  /** Pending leading comments: start of the first, end of the last (-1: none). */
  pendingStart: number;
  pendingEnd: number;
  /** Cursor moves up to the parent of this level's nodes when it is exhausted (2 for a wrapper's declaration). */
  ups: number;
}

/**
 * Moves the cursor into a definition's body (its children, or a wrapper's declaration's children) and pushes the
 * level for them; false when there is nothing to descend into (the cursor is back on the definition).
 */
function enterDefinition(cursor: TreeCursor, nodeId: number, innerId: number, parent: number, levels: OutlineLevel[]): boolean {
  if (innerId === nodeId) {
    if (cursor.gotoFirstChild()) {
      levels.push({ parent, carry: -1, started: false, pendingStart: -1, pendingEnd: -1, ups: 1 });
      return true;
    }
  } else if (cursor.gotoFirstChild()) {
    // A wrapper: into its wrapped declaration's children (its other children are decorators, keywords).
    while (cursor.nodeId !== innerId && cursor.gotoNextSibling());
    if (cursor.nodeId === innerId && cursor.gotoFirstChild()) {
      levels.push({ parent, carry: -1, started: false, pendingStart: -1, pendingEnd: -1, ups: 2 });
      return true;
    } else {
      cursor.gotoParent();
    }
  }
  return false;
}

/**
 * Walk the tree once and list every definition at any depth (a function inside a callback counts, a class method
 * is a child of its class). The walk moves a tree cursor and makes Node objects only for the node types that may be
 * definitions (marshalling every node's children was most of the cost); it groups siblings into units exactly as
 * unitsOf/childUnits do, so a definition's start includes the comments glued before it. The cursor is the stack:
 * deeply nested expressions cannot overflow the JavaScript stack.
 */
export function buildCodeOutline(text: string, tree: Tree, language: CodeLanguageName, guard?: { tick(at: number): void }): CodeOutline {
  const rules = GRAMMAR_RULES[language];
  const definitions: CodeDefinition[] = [];
  const root = tree.rootNode;
  const topLevel = unitsOf(text, root.children, rules);
  const candidates = new Set([...rules.definitions, ...rules.wrappers.keys(), ...rules.bindings]);

  const cursor = tree.walk();
  try {
    if (!cursor.gotoFirstChild()) return { language, definitions, topLevel };
    const levels: OutlineLevel[] = [{ parent: -1, carry: -1, started: false, pendingStart: -1, pendingEnd: -1, ups: 1 }];
    for (;;) {
      const level = levels[levels.length - 1]!;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      guard?.tick(start);
      let descended = false;
      if (level.pendingEnd >= 0 && lineBreaks(text, level.pendingEnd, start) > 1) {
        level.started = true;
        level.pendingStart = level.pendingEnd = -1;
      }
      if (rules.leading.has(cursor.nodeType) && startsLine(text, start)) {
        if (level.pendingStart < 0) level.pendingStart = start;
        level.pendingEnd = end;
      } else {
        let unitStart = level.pendingStart >= 0 ? level.pendingStart : start;
        if (!level.started && level.carry >= 0 && level.carry < unitStart) unitStart = level.carry;
        level.started = true;
        level.pendingStart = level.pendingEnd = -1;
        const type = cursor.nodeType;
        const info = candidates.has(type) ? definitionOf(cursor.currentNode, rules) : null;
        if (info) {
          const node = cursor.currentNode;
          definitions.push({
            start: unitStart,
            end,
            name: info.name,
            signature: signatureText(text, info, node),
            signatureStart: info.signatureStart,
            indent: indentBefore(text, info.signatureStart),
            parent: level.parent,
          });
          descended = enterDefinition(cursor, node.id, info.inner.id, definitions.length - 1, levels);
        } else if (cursor.gotoFirstChild()) {
          levels.push({ parent: level.parent, carry: unitStart < start ? unitStart : -1, started: false, pendingStart: -1, pendingEnd: -1, ups: 1 });
          descended = true;
        }
      }
      if (descended) continue;
      // Next sibling, or up until a level has one.
      while (!cursor.gotoNextSibling()) {
        const done = levels.pop()!;
        if (levels.length === 0) return { language, definitions, topLevel };
        for (let k = 0; k < done.ups; k++) cursor.gotoParent();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Index of the innermost definition containing `offset` (start <= offset < end), -1 for none. */
export function innermostDefinitionAt(definitions: readonly CodeDefinition[], offset: number): number {
  let found = lastStartingAtOrBefore(definitions, offset);
  // Definitions nest or are disjoint: the containing ones are the last one starting here and its ancestors.
  while (found >= 0 && definitions[found]!.end <= offset) found = definitions[found]!.parent;
  return found;
}

/** Names of the definitions containing `offset`, outermost first ([] outside any definition). */
export function codeHeadingPathAt(definitions: readonly CodeDefinition[], offset: number): string[] {
  const path: string[] = [];
  for (let i = innermostDefinitionAt(definitions, offset); i >= 0; i = definitions[i]!.parent) path.push(definitions[i]!.name);
  return path.reverse();
}

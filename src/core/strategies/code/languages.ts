/**
 * The languages the code strategy parses with tree-sitter: names, file extensions, the prebuilt grammar wasm file
 * (from @repomix/tree-sitter-wasms, loaded through ChunkContext.loadWasm) and the comment syntax of the path line.
 */

export type CodeLanguageName = 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'java' | 'rust' | 'c' | 'cpp';

export interface CodeLanguage {
  name: CodeLanguageName;
  label: string;
  /** Lower-case file extensions with the dot; the first is the usual one. */
  extensions: string[];
  /** File name of the grammar, as asked of ChunkContext.loadWasm. */
  wasm: string;
  /** Starts the path line of a chunk's prefix (`# file: app.py`). */
  lineComment: string;
}

/** The parser runtime itself (web-tree-sitter's wasm), asked of ChunkContext.loadWasm before any grammar. */
export const RUNTIME_WASM = 'web-tree-sitter.wasm';

// `.h` is taken as C (as most tools do); C++ headers with a .h name can be parsed as cpp by naming the language.
export const CODE_LANGUAGES: Record<CodeLanguageName, CodeLanguage> = {
  python: { name: 'python', label: 'Python', extensions: ['.py', '.pyi', '.pyw'], wasm: 'tree-sitter-python.wasm', lineComment: '#' },
  javascript: {
    name: 'javascript',
    label: 'JavaScript',
    extensions: ['.js', '.mjs', '.cjs', '.jsx'],
    wasm: 'tree-sitter-javascript.wasm',
    lineComment: '//',
  },
  typescript: {
    name: 'typescript',
    label: 'TypeScript',
    extensions: ['.ts', '.mts', '.cts'],
    wasm: 'tree-sitter-typescript.wasm',
    lineComment: '//',
  },
  tsx: { name: 'tsx', label: 'TSX', extensions: ['.tsx'], wasm: 'tree-sitter-tsx.wasm', lineComment: '//' },
  go: { name: 'go', label: 'Go', extensions: ['.go'], wasm: 'tree-sitter-go.wasm', lineComment: '//' },
  java: { name: 'java', label: 'Java', extensions: ['.java'], wasm: 'tree-sitter-java.wasm', lineComment: '//' },
  rust: { name: 'rust', label: 'Rust', extensions: ['.rs'], wasm: 'tree-sitter-rust.wasm', lineComment: '//' },
  c: { name: 'c', label: 'C', extensions: ['.c', '.h'], wasm: 'tree-sitter-c.wasm', lineComment: '//' },
  cpp: {
    name: 'cpp',
    label: 'C++',
    extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.ipp', '.tpp'],
    wasm: 'tree-sitter-cpp.wasm',
    lineComment: '//',
  },
};

export const CODE_LANGUAGE_NAMES = Object.keys(CODE_LANGUAGES) as CodeLanguageName[];

/** Every wasm file the code strategy may ask for (runtime first): what a host must be able to load. */
export const CODE_WASM_FILES: string[] = [RUNTIME_WASM, ...CODE_LANGUAGE_NAMES.map((n) => CODE_LANGUAGES[n].wasm)];

function isCodeLanguage(name: unknown): name is CodeLanguageName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CODE_LANGUAGES, name);
}

/** Other names accepted for a language (the recursive splitter's preset names among them). */
export const CODE_LANGUAGE_ALIASES: Record<string, CodeLanguageName> = {
  py: 'python',
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  golang: 'go',
  rs: 'rust',
  'c++': 'cpp',
};

/** A language name or alias (case-insensitive) as a CodeLanguageName, or null when unknown. */
export function resolveCodeLanguage(name: string): CodeLanguageName | null {
  if (typeof name !== 'string') return null;
  const lower = name.trim().toLowerCase();
  if (isCodeLanguage(lower)) return lower;
  return Object.prototype.hasOwnProperty.call(CODE_LANGUAGE_ALIASES, lower) ? CODE_LANGUAGE_ALIASES[lower]! : null;
}

/** The language of a file from its extension (case-insensitive; a path or a bare name), or null when unknown. */
export function detectCodeLanguage(path: string): CodeLanguageName | null {
  const base = path.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = base.slice(dot).toLowerCase();
  for (const name of CODE_LANGUAGE_NAMES) if (CODE_LANGUAGES[name].extensions.includes(extension)) return name;
  return null;
}

/**
 * How the splitter reads a grammar's tree: which node types are definitions (kept whole, named in headingPath,
 * their signature put in the prefix of chunks cut inside them), which wrap a definition (decorators, `export`,
 * `template <...>`: the wrapper is the unit, the wrapped node gives name and body), and which siblings stay glued
 * to the definition after them (comments, attributes).
 */
export interface GrammarRules {
  definitions: ReadonlySet<string>;
  /** Wrapper type → the field holding the wrapped declaration (null: its last named child). */
  wrappers: ReadonlyMap<string, string | null>;
  /** Node types that belong to the next sibling when nothing but one line break separates them. */
  leading: ReadonlySet<string>;
  /** Declarations that are definitions only when they bind a function or class (`const f = () => {}`). */
  bindings: ReadonlySet<string>;
}

const JS_DEFINITIONS = [
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'method_definition',
];
const TS_DEFINITIONS = [
  ...JS_DEFINITIONS,
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'internal_module',
  'module',
  'function_signature',
];
const C_DEFINITIONS = ['function_definition', 'struct_specifier', 'union_specifier', 'enum_specifier', 'type_definition'];

const rules = (
  definitions: string[],
  wrappers: [string, string | null][] = [],
  leading: string[] = ['comment'],
  bindings: string[] = [],
): GrammarRules => ({
  definitions: new Set(definitions),
  wrappers: new Map(wrappers),
  leading: new Set(leading),
  bindings: new Set(bindings),
});

const JS_BINDINGS = ['lexical_declaration', 'variable_declaration', 'field_definition', 'public_field_definition'];

export const GRAMMAR_RULES: Record<CodeLanguageName, GrammarRules> = {
  python: rules(['function_definition', 'class_definition'], [['decorated_definition', 'definition']]),
  // A decorator of a class member is its sibling in the class body: glued to the member like a comment.
  javascript: rules(JS_DEFINITIONS, [['export_statement', 'declaration']], ['comment', 'decorator'], JS_BINDINGS),
  typescript: rules(TS_DEFINITIONS, [['export_statement', 'declaration'], ['ambient_declaration', null]], ['comment', 'decorator'], JS_BINDINGS),
  tsx: rules(TS_DEFINITIONS, [['export_statement', 'declaration'], ['ambient_declaration', null]], ['comment', 'decorator'], JS_BINDINGS),
  go: rules(['function_declaration', 'method_declaration', 'type_declaration']),
  java: rules([
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
    'method_declaration',
    'constructor_declaration',
    'compact_constructor_declaration',
  ], [], ['line_comment', 'block_comment']),
  rust: rules(
    ['function_item', 'struct_item', 'enum_item', 'union_item', 'impl_item', 'trait_item', 'mod_item', 'macro_definition'],
    [],
    ['line_comment', 'block_comment', 'attribute_item'],
  ),
  c: rules(C_DEFINITIONS),
  cpp: rules([...C_DEFINITIONS, 'class_specifier', 'namespace_definition'], [['template_declaration', null]]),
};

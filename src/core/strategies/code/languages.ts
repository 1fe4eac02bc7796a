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

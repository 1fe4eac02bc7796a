/**
 * The parts every "Copy as code" program is made of: string literals, the summary comment, each target's program
 * skeleton and the splitter expressions several strategies share. Each strategy's recipes (which splitter of
 * which library, what it only approximates) live in its folder, src/core/strategies/<id>/copyAsCode.ts.
 */
import { LANGUAGE_PRESETS } from '../languages';
import type { CodeTarget, CopyAsCodeRecipes, ProgramOptions } from '../registry';
import type { CompatMode, ResolvedOptions, UnitName } from '../types';
import { unitDescriptor } from '../units';
import type { UnitProgram } from '../units/unit';

// Declared with the strategy contract (each strategy's description holds its recipes); re-exported for this folder.
export type { CodeTarget, CopyAsCodeRecipes, ProgramOptions };

// ---------------------------------------------------------------------------------------------------------------
// String literals

/** A JavaScript string literal: JSON's escaping is valid JavaScript (ES2019+), lone surrogates included. */
export function jsString(s: string): string {
  return JSON.stringify(s);
}

/** A Python 3 str literal in double quotes; control characters and lone surrogates escaped. */
export function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += ch + s[i + 1]!; // a whole pair: the character itself
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c === 0x2028 || c === 0x2029 || c === 0x85) out += '\\u' + c.toString(16).padStart(4, '0'); // line breaks to an editor
    else out += ch;
  }
  return out + '"';
}

export const jsList = (items: readonly string[]): string => `[${items.map(jsString).join(', ')}]`;
export const pyList = (items: readonly string[]): string => `[${items.map(pyString).join(', ')}]`;

// ---------------------------------------------------------------------------------------------------------------
// Shared facts about the configuration

export const isTokenUnit = (unit: UnitName): boolean => unitDescriptor(unit)?.tokenizer !== undefined;

/** How programs count a unit that is not a token encoding (see UnitProgram); undefined for token units. */
const programOf = (unit: UnitName): UnitProgram | undefined => unitDescriptor(unit)?.program;

function sameList(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The language preset to use by name: always in compat mode (fromLanguage ignores separators), else when unchanged. */
export function presetLanguage(o: ResolvedOptions): string | null {
  if (o.language === null) return null;
  if (o.compat === 'langchain') return o.language;
  return sameList(o.separators, LANGUAGE_PRESETS[o.language]) ? o.language : null;
}

/** Split at headings of depth 1..headingDepth (3 when the options were built without it). */
export function headingDepthOf(o: ResolvedOptions): number {
  return o.headingDepth ?? 3;
}

/** The first comment lines: the configuration, and what the program does not reproduce. */
export function summary(o: ProgramOptions, comment: string): string {
  const strategy = o.described;
  const parts = [`strategy ${o.strategy}`];
  if (!strategy.refuses?.size) parts.push(`size ${o.size}`, `overlap ${o.overlap} (${o.unit})`);
  const detected = strategy.language?.detect?.(o);
  if (o.language) parts.push(`language ${o.language}`);
  else if (detected) parts.push(`language ${detected} (from the file name)`);
  if (strategy.controls.includes('headingDepth')) parts.push(`heading depth ${headingDepthOf(o)}`);
  if (o.compat !== 'none') parts.push(`compat ${o.compat}`);
  const lines = [`${comment} Chunkscope configuration: ${parts.join(', ')}.`];
  const missing: string[] = [];
  if (o.headers) missing.push('contextual headers');
  if (o.retrieval && o.retrieval !== 'chunks') missing.push(`${o.retrieval} retrieval units`);
  if (o.rowsAsText && strategy.controls.includes('rowsAsText')) missing.push('"column: value" table rows');
  if (missing.length > 0) lines.push(`${comment} Not reproduced here: Chunkscope's ${missing.join(', ')}.`);
  return lines.join('\n');
}

/** Paragraphs, lines, words, characters: the closest for sentence/paragraph where a library has no such splitter. */
export const PARAGRAPH_FALLBACK = ['\n\n', '\n', ' ', ''];

// ---------------------------------------------------------------------------------------------------------------
// LangChain JS

/** A LangChain JS splitter being written: its constructor fields, imports, setup lines and notes. */
export class JsSplitter {
  readonly fields: string[];
  readonly imports: string[] = [];
  readonly setup: string[] = [];
  readonly notes: string[] = [];
  constructor(private readonly o: ResolvedOptions) {
    this.fields = [`chunkSize: ${o.size}`, `chunkOverlap: ${o.overlap}`];
  }

  /** Sizes in another unit than characters (LangChain's default) need a length function. */
  lengthFunction(): this {
    const { o } = this;
    const js = programOf(o.unit)?.js;
    if (js) {
      this.setup.push(...js.setup);
      this.fields.push(`lengthFunction: ${js.count}`);
    }
    else if (isTokenUnit(o.unit)) {
      this.imports.push("import { getEncoding } from 'js-tiktoken';");
      this.setup.push(`const encoder = getEncoding(${jsString(o.unit)});`);
      // Special tokens such as <|endoftext|> are counted as text, as Chunkscope does.
      this.fields.push('lengthFunction: (t) => encoder.encode(t, [], []).length');
    }
    return this;
  }

  keepSeparator(): this {
    if (this.o.keepSeparator === 'end') this.notes.push("// LangChain JS cannot keep a separator at the end of the previous piece ('end'); closest: at the start.");
    this.fields.push(`keepSeparator: ${this.o.keepSeparator !== 'none'}`);
    return this;
  }

  regexNote(): this {
    if (this.o.separatorsAreRegex) this.notes.push('// LangChain JS splits on literal separators only: these regular expressions are used as plain text.');
    return this;
  }

  /** `new Cls({ fields })`, or `Cls.fromLanguage(language, { fields })`. */
  make(cls: string, language?: string | null): string {
    const body = `{\n  ${this.fields.join(',\n  ')},\n}`;
    return language ? `${cls}.fromLanguage(${jsString(language)}, ${body})` : `new ${cls}(${body})`;
  }
}

/** Chunkscope's words unit in a JS program: Intl.Segmenter's word-like segments, plus emoji, for any language. */
/** The summary and the line saying how close the program is. */
export function jsHead(o: ProgramOptions, approximation?: string, npm = '@langchain/textsplitters'): string[] {
  const exact = programIsExact(o, 'langchain-js');
  return [
    summary(o, '//'),
    exact
      ? "// Gives exactly Chunkscope's chunks in LangChain compatibility mode."
      : (approximation ??
        (o.compat === 'langchain'
          ? '// Approximates Chunkscope (this strategy has no LangChain compatibility mode).'
          : "// LangChain's own algorithm: Chunkscope's native mode differs in offsets, overlap and trimming (turn on LangChain compatibility to see these chunks).")),
    `// npm install ${npm}`,
  ];
}

/** A LangChain JS program: reads the file, runs `make` (an expression of class `cls`), prints the chunks. */
export function jsProgram(o: ProgramOptions, parts: { cls: string; make: string; splitter: JsSplitter; approximation?: string; tiktoken?: boolean }): string {
  const tiktoken = parts.tiktoken ?? isTokenUnit(o.unit);
  return [
    ...jsHead(o, parts.approximation, '@langchain/textsplitters' + (tiktoken ? ' js-tiktoken' : '')),
    ...parts.splitter.notes,
    "import { readFileSync } from 'node:fs';",
    ...parts.splitter.imports,
    `import { ${parts.cls} } from '@langchain/textsplitters';`,
    '',
    "const text = readFileSync(process.argv[2], 'utf8');",
    ...parts.splitter.setup,
    `const splitter = ${parts.make};`,
    'const chunks = await splitter.splitText(text);',
    'console.log(JSON.stringify(chunks, null, 2));',
    '',
  ].join('\n');
}

/** True when the program for `target` returns exactly the contents of chunk(text, options). */
export function programIsExact(options: ProgramOptions, target: CodeTarget): boolean {
  const mode = options.recipes.exact?.[target];
  return mode !== undefined && mode === options.compat;
}

// ---------------------------------------------------------------------------------------------------------------
// Python (LangChain, LlamaIndex, Chonkie)

/** Python has no Intl.Segmenter: its programs count whitespace-separated words. */
export const PY_READ = [
  '# newline="" keeps CRLF line ends as they are: the splitters see the same text as Chunkscope.',
  'with open(sys.argv[1], encoding="utf-8", newline="") as f:',
  '    text = f.read()',
];

export function pyKeep(o: ResolvedOptions): string {
  return o.keepSeparator === 'end' ? '"end"' : o.keepSeparator === 'start' ? 'True' : 'False';
}

/** A Python splitter expression, the imports it needs and notes about it. */
export interface PyPart {
  imports: string[];
  expr: string;
  notes: string[];
}

/** A LangChain Python splitter expression for the character/recursive strategies, and the imports it needs. */
export function langchainPySplitter(o: ResolvedOptions, { oneSeparator }: { oneSeparator: boolean }): PyPart {
  const imports: string[] = [];
  const notes: string[] = [];
  const args = [`chunk_size=${o.size}`, `chunk_overlap=${o.overlap}`, `keep_separator=${pyKeep(o)}`];
  let ctor = 'RecursiveCharacterTextSplitter';
  const cls = oneSeparator ? 'CharacterTextSplitter' : 'RecursiveCharacterTextSplitter';
  const language = oneSeparator ? null : presetLanguage(o);
  if (oneSeparator) {
    args.unshift(`separator=${pyString(o.separators[0] ?? '\n\n')}`);
    ctor = cls;
  } else if (language !== null) {
    imports.push('from langchain_text_splitters import Language');
    notes.push(`# LangChain Python's ${language} list can differ from LangChain JS's (markdown uses regular expressions).`);
    args.unshift(`separators=RecursiveCharacterTextSplitter.get_separators_for_language(Language.${language.toUpperCase()})`);
    args.push('is_separator_regex=True');
  } else {
    args.unshift(`separators=${pyList(o.separators)}`);
  }
  if (o.separatorsAreRegex && language === null) args.push('is_separator_regex=True');
  imports.push(`from langchain_text_splitters import ${cls}`);
  const py = programOf(o.unit)?.py;
  if (py) {
    args.push(`length_function=${py.count}`);
    if (py.note) notes.push(py.note);
  }
  if (isTokenUnit(o.unit)) {
    return { imports, notes, expr: `${cls}.from_tiktoken_encoder(\n    encoding_name=${pyString(o.unit)},\n    ${args.join(',\n    ')},\n)` };
  }
  return { imports, notes, expr: `${ctor}(\n    ${args.join(',\n    ')},\n)` };
}

export function sentenceRegexSplitter(o: ResolvedOptions): PyPart {
  const seps = ['\n\n', '\n', '(?<=[.!?])\\s+', ' ', ''];
  return {
    imports: ['from langchain_text_splitters import RecursiveCharacterTextSplitter'],
    notes: [`# LangChain has no ${o.strategy} splitter of this kind (NLTKTextSplitter needs nltk); closest: paragraphs, lines, sentence ends, words.`],
    expr: `RecursiveCharacterTextSplitter(\n    separators=${pyList(seps)},\n    is_separator_regex=True,\n    keep_separator="end",\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n)`,
  };
}

/** The tokenizer callable LlamaIndex's splitters take, for the unit. */
export function llamaTokenizer(unit: UnitName): { imports: string[]; expr: string } {
  const program = programOf(unit);
  if (program) return { imports: [], expr: program.pyTokenizer };
  return { imports: ['import tiktoken'], expr: `tiktoken.get_encoding(${pyString(unit)}).encode` };
}

/** Chonkie's tokenizer name for the unit (the first positional argument of its chunkers). */
export function chonkieTokenizer(unit: UnitName): string {
  const program = programOf(unit);
  return pyString(program ? (program.chonkie ?? 'character') : unit);
}

export interface PyProgram {
  head: string[];
  notes: string[];
  pip: string;
  imports: string[];
  /** Statements after `text` is read; they leave the chunk strings' source in `printed`. */
  body: string[];
  /** A Python expression: the list of chunk strings. */
  printed: string;
}

export function pyProgram(p: PyProgram): string {
  return [
    ...p.head,
    ...p.notes,
    `# pip install ${p.pip}`,
    'import json',
    'import sys',
    '',
    ...[...new Set(p.imports)],
    '',
    ...PY_READ,
    '',
    ...p.body,
    `print(json.dumps(${p.printed}, indent=2, ensure_ascii=False))`,
    '',
  ].join('\n');
}

/** `[("#", "Header 1"), ...]` / `[("h1", "Header 1"), ...]` down to the heading depth. */
export function headersToSplitOn(o: ResolvedOptions, html: boolean): string {
  const pairs = Array.from({ length: headingDepthOf(o) }, (_, i) =>
    `(${pyString(html ? `h${i + 1}` : '#'.repeat(i + 1))}, ${pyString(`Header ${i + 1}`)})`,
  );
  return `[${pairs.join(', ')}]`;
}

/**
 * LangChain Python's RecursiveCharacterTextSplitter for the size and unit, over a language's separators (a Language
 * enum member) or its defaults; `pip` lists what it needs beyond langchain-text-splitters.
 */
export function langchainPySizeSplitter(o: ResolvedOptions, languageEnum: string | null): { imports: string[]; expr: string; pip: string } {
  const imports = ['from langchain_text_splitters import RecursiveCharacterTextSplitter'];
  const args = [`chunk_size=${o.size}`, `chunk_overlap=${o.overlap}`];
  if (languageEnum) imports.push('from langchain_text_splitters import Language');
  const py = programOf(o.unit)?.py;
  if (py) args.push(`length_function=${py.count}`);
  if (isTokenUnit(o.unit)) {
    if (languageEnum) {
      args.unshift(`separators=RecursiveCharacterTextSplitter.get_separators_for_language(Language.${languageEnum})`, 'is_separator_regex=True');
    }
    return {
      imports,
      pip: ' tiktoken',
      expr: `RecursiveCharacterTextSplitter.from_tiktoken_encoder(\n    encoding_name=${pyString(o.unit)},\n    ${args.join(',\n    ')},\n)`,
    };
  }
  if (languageEnum) return { imports, pip: '', expr: `RecursiveCharacterTextSplitter.from_language(\n    language=Language.${languageEnum},\n    ${args.join(',\n    ')},\n)` };
  return { imports, pip: '', expr: `RecursiveCharacterTextSplitter(\n    ${args.join(',\n    ')},\n)` };
}

/** A LangChain Python program around a splitter expression. */
export function langchainPyProgram(o: ProgramOptions, part: PyPart, pip: string): string {
  return [
    summary(o, '#'),
    "# Approximates Chunkscope: LangChain Python counts code points and trims and joins slightly differently from LangChain JS.",
    ...part.notes,
    `# pip install ${pip}`,
    'import json',
    'import sys',
    '',
    ...part.imports,
    '',
    ...PY_READ,
    '',
    `splitter = ${part.expr}`,
    'chunks = splitter.split_text(text)',
    'print(json.dumps(chunks, indent=2, ensure_ascii=False))',
    '',
  ].join('\n');
}

/** A LlamaIndex program: `setup` lines, then `parser = expr` run over one Document. */
export function llamaindexProgram(o: ProgramOptions, p: { notes: string[]; imports: string[]; setup?: string[]; expr: string; pip: string }): string {
  return [
    summary(o, '#'),
    "# Approximates Chunkscope: LlamaIndex's parsers have their own algorithms.",
    ...p.notes,
    `# pip install ${p.pip}`,
    'import json',
    'import sys',
    '',
    'from llama_index.core import Document',
    ...p.imports,
    '',
    ...PY_READ,
    '',
    ...(p.setup ?? []),
    `parser = ${p.expr}`,
    'nodes = parser.get_nodes_from_documents([Document(text=text)])',
    'print(json.dumps([node.text for node in nodes], indent=2, ensure_ascii=False))',
    '',
  ].join('\n');
}

/** A Chonkie program: `chunker = expr`, its chunks' texts printed. */
export function chonkieProgram(o: ProgramOptions, p: { notes: string[]; imports: string[]; expr: string }): string {
  return [
    summary(o, '#'),
    "# Approximates Chunkscope: Chonkie's chunkers have their own algorithms.",
    "# Compiled, not run, by Chunkscope's tests; the Chonkie TypeScript program is the one run against Chonkie.",
    ...p.notes,
    '# pip install chonkie',
    'import json',
    'import sys',
    '',
    ...p.imports,
    '',
    ...PY_READ,
    '',
    `chunker = ${p.expr}`,
    'chunks = chunker.chunk(text)',
    'print(json.dumps([c.text for c in chunks], indent=2, ensure_ascii=False))',
    '',
  ].join('\n');
}

/** The recursive and character strategies' Chonkie program: one RecursiveLevel per separator. */
export function chonkieRecursive(o: ProgramOptions, separators: readonly string[]): string {
  const notes: string[] = [];
  if (o.separatorsAreRegex) notes.push('# Chonkie splits on literal delimiters only: these regular expressions are used as plain text.');
  if (o.overlap > 0) notes.push(`# RecursiveChunker has no overlap of its own (an OverlapRefinery can add ${o.overlap} of context).`);
  if (o.language) notes.push(`# Chunkscope's "${o.language}" separators as Chonkie levels (Chonkie's recipes differ).`);
  const include = o.keepSeparator === 'start' ? ', include_delim="next"' : o.keepSeparator === 'end' ? ', include_delim="prev"' : '';
  const levels = separators.map((s) =>
    s === '' ? 'RecursiveLevel()' : s === ' ' ? 'RecursiveLevel(whitespace=True)' : `RecursiveLevel(delimiters=[${pyString(s)}]${include})`,
  );
  return chonkieProgram(o, {
    notes,
    imports: ['from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules'],
    expr: `RecursiveChunker(\n    ${chonkieTokenizer(o.unit)},\n    chunk_size=${o.size},\n    rules=RecursiveRules(levels=[\n        ${levels.join(',\n        ')},\n    ]),\n)`,
  });
}

/** The character and recursive strategies' LlamaIndex program: LangChain's splitter through LangchainNodeParser. */
export function llamaindexViaLangchain(o: ProgramOptions, oneSeparator: boolean): string {
  const lc = langchainPySplitter(o, { oneSeparator });
  return llamaindexProgram(o, {
    pip: 'llama-index-core langchain-text-splitters' + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: ['from llama_index.core.node_parser import LangchainNodeParser', ...lc.imports],
    notes: ["# LlamaIndex has no separator-list splitter of its own: LangchainNodeParser runs LangChain's.", ...lc.notes],
    setup: [`splitter = ${lc.expr}`],
    expr: 'LangchainNodeParser(splitter)',
  });
}

/** LangChain Python's TokenTextSplitter (token and fixed token windows). */
export function langchainPyTokenWindows(o: ProgramOptions): string {
  const part: PyPart = {
    imports: ['from langchain_text_splitters import TokenTextSplitter'],
    notes: [],
    expr: `TokenTextSplitter(encoding_name=${pyString(o.unit)}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`,
  };
  return langchainPyProgram(o, part, 'langchain-text-splitters tiktoken');
}

/** LlamaIndex's TokenTextSplitter (token and fixed windows). */
export function llamaindexTokenSplitter(o: ProgramOptions): string {
  const tok = llamaTokenizer(o.unit);
  return llamaindexProgram(o, {
    pip: 'llama-index-core' + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: ['from llama_index.core.node_parser import TokenTextSplitter', ...tok.imports],
    notes: ["# LlamaIndex's TokenTextSplitter packs words up to the size in tokens rather than cutting fixed windows."],
    expr: `TokenTextSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    tokenizer=${tok.expr},\n)`,
  });
}

/** LlamaIndex's SentenceSplitter (sentence and paragraph strategies). */
export function llamaindexSentenceSplitter(o: ProgramOptions): string {
  const tok = llamaTokenizer(o.unit);
  return llamaindexProgram(o, {
    pip: 'llama-index-core' + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: ['from llama_index.core.node_parser import SentenceSplitter', ...tok.imports],
    notes: ['# SentenceSplitter keeps paragraphs, then sentences, together up to the size.'],
    expr: `SentenceSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    paragraph_separator="\\n\\n",\n    tokenizer=${tok.expr},\n)`,
  });
}

/** LlamaIndex's SentenceWindowNodeParser (Python: its sentence splitter is NLTK's, not the TS package's tokenizer). */
export function llamaindexSentenceWindowPy(o: ProgramOptions): string {
  return llamaindexProgram(o, {
    pip: 'llama-index-core',
    imports: ['from llama_index.core.node_parser import SentenceWindowNodeParser'],
    notes: ["# One node per sentence; metadata[\"window\"] holds the window, metadata[\"original_text\"] the sentence."],
    expr: `SentenceWindowNodeParser.from_defaults(\n    window_size=${o.window ?? 3},\n    window_metadata_key="window",\n    original_text_metadata_key="original_text",\n)`,
  });
}

/** LlamaIndex's HierarchicalNodeParser, one SentenceSplitter per level (nodes listed level by level). */
export function llamaindexHierarchicalPy(o: ProgramOptions): string {
  const tok = llamaTokenizer(o.unit);
  const levels = o.levels ?? [2048, 512, 128];
  return llamaindexProgram(o, {
    pip: 'llama-index-core' + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: ['from llama_index.core.node_parser import HierarchicalNodeParser, SentenceSplitter', ...tok.imports],
    notes: ['# Nodes come level by level (get_leaf_nodes(nodes) gives the last level).'],
    setup: [
      `sizes = [${levels.join(', ')}]`,
      `tokenizer = ${tok.expr}`,
    ],
    expr: `HierarchicalNodeParser.from_defaults(\n    node_parser_ids=[f"chunk_size_{s}" for s in sizes],\n    node_parser_map={\n        f"chunk_size_{s}": SentenceSplitter(chunk_size=s, chunk_overlap=${o.overlap}, tokenizer=tokenizer)\n        for s in sizes\n    },\n)`,
  });
}

/** The LangChain JS program of the recursive splitter over paragraphs, lines and words (sentence, paragraph). */
export function jsParagraphFallback(o: ProgramOptions, what: string): string {
  const sp = new JsSplitter(o);
  sp.notes.push(`// LangChain JS has no ${what} splitter; closest: the recursive splitter over paragraphs, lines and words.`);
  sp.fields.unshift(`separators: ${jsList(PARAGRAPH_FALLBACK)}`);
  sp.lengthFunction();
  return jsProgram(o, { cls: 'RecursiveCharacterTextSplitter', splitter: sp, make: sp.make('RecursiveCharacterTextSplitter') });
}

/** Chonkie's SentenceChunker (sentence and paragraph strategies). */
export function chonkieSentences(o: ProgramOptions, notes: string[] = []): string {
  return chonkieProgram(o, {
    notes,
    imports: ['from chonkie import SentenceChunker'],
    expr: `SentenceChunker(${chonkieTokenizer(o.unit)}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`,
  });
}

/** Chonkie's TokenChunker (token and fixed strategies). */
export function chonkieTokenChunker(o: ProgramOptions): string {
  return chonkieProgram(o, {
    notes: [],
    imports: ['from chonkie import TokenChunker'],
    expr: `TokenChunker(${chonkieTokenizer(o.unit)}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Chonkie TypeScript (@chonkiejs/core)

/**
 * A @chonkiejs/core program: `Cls.create({ fields })`, run over the file, the chunks' texts printed. Token units go
 * in as a tokenizer object over js-tiktoken (Chonkie's chunkers take any object with countTokens, encode, decode
 * and decodeBatch); special-token strings count as text, as in Chunkscope.
 */
export function chonkieTsProgram(o: ProgramOptions, p: { cls: string; fields: string[]; notes?: string[] }): string {
  const tiktoken = isTokenUnit(o.unit);
  const exact = programIsExact(o, 'chonkie-ts');
  const notes = [...(p.notes ?? [])];
  const counted = unitDescriptor(o.unit);
  if (!tiktoken && !counted?.isLength) notes.push(`// Chonkie's TypeScript tokenizers count characters or tokens, not ${counted?.label ?? o.unit}: characters are used here.`);
  return [
    summary(o, '//'),
    exact
      ? "// Gives exactly Chunkscope's chunks in Chonkie compatibility mode."
      : o.compat === 'chonkie'
        ? '// Approximates Chunkscope (this strategy has no Chonkie compatibility mode).'
        : "// Chonkie's own algorithm: Chunkscope's native mode differs (turn on Chonkie compatibility to see these chunks).",
    `// npm install @chonkiejs/core${tiktoken ? ' js-tiktoken' : ''}`,
    ...notes,
    "import { readFileSync } from 'node:fs';",
    `import { ${p.cls} } from '@chonkiejs/core';`,
    ...(tiktoken ? ["import { getEncoding } from 'js-tiktoken';"] : []),
    '',
    "const text = readFileSync(process.argv[2], 'utf8');",
    ...(tiktoken
      ? [
          `const encoding = getEncoding(${jsString(o.unit)});`,
          '// Special tokens such as <|endoftext|> are counted as text, as Chunkscope does.',
          'const tokenizer = {',
          '  countTokens: (t) => encoding.encode(t, [], []).length,',
          '  encode: (t) => encoding.encode(t, [], []),',
          '  decode: (ids) => encoding.decode(ids),',
          '  decodeBatch: (batch) => batch.map((ids) => encoding.decode(ids)),',
          '};',
        ]
      : []),
    `const chunker = await ${p.cls}.create({\n  ${[`tokenizer: ${tiktoken ? 'tokenizer' : "'character'"}`, ...p.fields].join(',\n  ')},\n});`,
    'const chunks = await chunker.chunk(text);',
    'console.log(JSON.stringify(chunks.map((c) => c.text), null, 2));',
    '',
  ].join('\n');
}

/**
 * FastChunker (the fixed strategy's compat mode `chonkie`): windows of `size` UTF-8 bytes cut after the last
 * newline, period or question mark. It has no tokenizer and no overlap; Chunkscope's overlap is left out.
 */
export function chonkieTsFast(o: ProgramOptions): string {
  const exact = programIsExact(o, 'chonkie-ts');
  return [
    summary(o, '//'),
    exact
      ? "// Gives exactly Chunkscope's chunks in Chonkie compatibility mode."
      : "// Chonkie's FastChunker: windows of UTF-8 bytes cut after a newline, period or question mark (turn on Chonkie compatibility, unit bytes, to see these chunks).",
    ...(o.overlap > 0 ? ["// FastChunker has no overlap (Chunkscope's overlap is not reproduced)."] : []),
    '// npm install @chonkiejs/core',
    "import { readFileSync } from 'node:fs';",
    "import { FastChunker } from '@chonkiejs/core';",
    '',
    "const text = readFileSync(process.argv[2], 'utf8');",
    `const chunker = await FastChunker.create({ chunkSize: ${o.size} });`,
    'const chunks = chunker.chunk(text);',
    'console.log(JSON.stringify(chunks.map((c) => c.text), null, 2));',
    '',
  ].join('\n');
}

/** RecursiveChunker: Chonkie's default rules in compat mode, else one level per Chunkscope separator. */
export function chonkieTsRecursive(o: ProgramOptions, separators: readonly string[]): string {
  const fields = [`chunkSize: ${o.size}`];
  const notes: string[] = [];
  if (o.compat !== 'chonkie') {
    if (o.overlap > 0) notes.push(`// RecursiveChunker has no overlap of its own (Chunkscope's overlap is ${o.overlap}).`);
    if (o.separatorsAreRegex) notes.push('// Chonkie splits on literal delimiters only: these regular expressions are used as plain text.');
    notes.push("// Chunkscope's separators as Chonkie levels; Chonkie cuts after every character of a level's delimiters.");
    const levels = separators.map((s) => (s === '' ? '{}' : s === ' ' ? '{ whitespace: true }' : `{ delimiters: [${jsString(s)}] }`));
    fields.push(`rules: new RecursiveRules({\n    levels: [\n      ${levels.join(',\n      ')},\n    ],\n  })`);
  }
  const code = chonkieTsProgram(o, { cls: 'RecursiveChunker', fields, notes });
  return o.compat === 'chonkie' ? code : code.replace("import { RecursiveChunker } from '@chonkiejs/core';", "import { RecursiveChunker, RecursiveRules } from '@chonkiejs/core';");
}

/** TokenChunker (token strategy). */
export function chonkieTsTokenChunker(o: ProgramOptions): string {
  return chonkieTsProgram(o, { cls: 'TokenChunker', fields: [`chunkSize: ${o.size}`, `chunkOverlap: ${o.overlap}`] });
}

/** SentenceChunker (sentence strategy). */
export function chonkieTsSentences(o: ProgramOptions): string {
  const notes = o.compat === 'chonkie' ? [] : ["// Chonkie's sentences end at . ! ? followed by a space, and at line breaks (Chunkscope's native mode uses Intl.Segmenter)."];
  return chonkieTsProgram(o, { cls: 'SentenceChunker', fields: [`chunkSize: ${o.size}`, `chunkOverlap: ${o.overlap}`], notes });
}

// ---------------------------------------------------------------------------------------------------------------
// LlamaIndex TypeScript (@llamaindex/core)

/**
 * A @llamaindex/core program: `setup` lines, then the splitter's strings printed. The size unit is the splitter's
 * tokenizer: none for cl100k_base (the package's default, js-tiktoken), js-tiktoken's other encodings, or an object
 * whose encode() has as many entries as the text has characters or words.
 */
export function llamaindexTsProgram(o: ProgramOptions, p: { imports: string[]; body: string[]; notes?: string[]; tokenizer?: boolean }): string {
  const exact = programIsExact(o, 'llamaindex-ts');
  const tok = p.tokenizer ? llamaTsTokenizer(o.unit) : null;
  return [
    summary(o, '//'),
    exact
      ? "// Gives exactly Chunkscope's chunks in LlamaIndex compatibility mode."
      : o.compat === 'llamaindex'
        ? '// Approximates Chunkscope (this strategy has no LlamaIndex compatibility mode).'
        : "// LlamaIndex's own algorithm: Chunkscope's native mode differs (turn on LlamaIndex compatibility to see these chunks).",
    `// npm install @llamaindex/core@0.6.23${tok?.npm ?? ''}`,
    ...(p.notes ?? []),
    ...(tok?.notes ?? []),
    "import { readFileSync } from 'node:fs';",
    ...p.imports,
    ...(tok?.imports ?? []),
    '',
    "const text = readFileSync(process.argv[2], 'utf8');",
    ...(tok?.setup ?? []),
    ...p.body,
    '',
  ].join('\n');
}

/** The `tokenizer` a LlamaIndex TS splitter gets for a unit (none: its default, cl100k_base). */
function llamaTsTokenizer(unit: UnitName): { npm: string; imports: string[]; setup: string[]; notes: string[]; field: string | null } {
  if (unit === 'cl100k_base') {
    return { npm: '', imports: [], setup: [], notes: ["// The default tokenizer is cl100k_base (js-tiktoken; gpt-tokenizer when it is installed, with the same counts)."], field: null };
  }
  if (isTokenUnit(unit)) {
    return {
      npm: ' js-tiktoken',
      imports: ["import { getEncoding } from 'js-tiktoken';"],
      setup: [`const encoding = getEncoding(${jsString(unit)});`, 'const tokenizer = { encode: (t) => new Uint32Array(encoding.encode(t)), decode: (ids) => encoding.decode([...ids]) };'],
      notes: [],
      field: 'tokenizer',
    };
  }
  const js = programOf(unit)?.js;
  const count = js ? `${js.count}(t)` : 't.length';
  return {
    npm: '',
    imports: [],
    setup: [
      ...(js?.setup ?? []),
      `// Sizes in ${unitDescriptor(unit)?.description ?? unit}: the splitter counts encode(text).length.`,
      `const tokenizer = { encode: (t) => new Uint32Array(${count}), decode: () => '' };`,
    ],
    notes: [],
    field: 'tokenizer',
  };
}

/** SentenceSplitter or TokenTextSplitter from @llamaindex/core/node-parser, its splitText() printed. */
export function llamaindexTsSplitter(o: ProgramOptions, cls: 'SentenceSplitter' | 'TokenTextSplitter', notes: string[] = []): string {
  const field = llamaTsTokenizer(o.unit).field;
  const fields = [`chunkSize: ${o.size}`, `chunkOverlap: ${o.overlap}`, ...(field ? [field] : [])];
  return llamaindexTsProgram(o, {
    notes,
    tokenizer: true,
    imports: [`import { ${cls} } from '@llamaindex/core/node-parser';`],
    body: [
      `const splitter = new ${cls}({ ${fields.join(', ')} });`,
      '// splitText: getNodesFromDocuments gives the same texts here, except that TokenTextSplitter then keeps 2 tokens for metadata.',
      'console.log(JSON.stringify(splitter.splitText(text), null, 2));',
    ],
  });
}

/** SentenceWindowNodeParser from @llamaindex/core/node-parser over one Document: the sentences printed. */
export function llamaindexTsSentenceWindow(o: ProgramOptions): string {
  return llamaindexTsProgram(o, {
    imports: ["import { SentenceWindowNodeParser } from '@llamaindex/core/node-parser';", "import { Document } from '@llamaindex/core/schema';"],
    body: [
      `const parser = new SentenceWindowNodeParser({ windowSize: ${o.window ?? 3} });`,
      'const nodes = parser.getNodesFromDocuments([new Document({ text })]);',
      "// Each node's metadata.window is its window (the sentences joined with one space), metadata.originalText the sentence.",
      'console.log(JSON.stringify(nodes.map((n) => n.text), null, 2));',
    ],
  });
}

/**
 * LlamaIndex TS has no HierarchicalNodeParser: its algorithm (LlamaIndex Python's from_defaults) with one
 * SentenceSplitter per level, each level cut from the texts of the one above; the nodes printed in pre-order.
 */
export function llamaindexTsHierarchical(o: ProgramOptions): string {
  const field = llamaTsTokenizer(o.unit).field;
  const fields = ['chunkSize', `chunkOverlap: ${o.overlap}`, ...(field ? [field] : [])];
  return llamaindexTsProgram(o, {
    tokenizer: true,
    notes: ["// @llamaindex/core has no HierarchicalNodeParser: this is its algorithm (LlamaIndex Python's) on the TS package's SentenceSplitter."],
    imports: ["import { SentenceSplitter } from '@llamaindex/core/node-parser';"],
    body: [
      `const splitters = ${JSON.stringify(o.levels ?? [2048, 512, 128])}.map((chunkSize) => new SentenceSplitter({ ${fields.join(', ')} }));`,
      '// Each node followed by its children (LlamaIndex lists level by level: sort by level to get its order).',
      'const nodes = [];',
      'const visit = (t, level, parent) => {',
      '  for (const piece of splitters[level].splitText(t)) {',
      '    nodes.push({ text: piece, level, parent });',
      '    if (level + 1 < splitters.length) visit(piece, level + 1, nodes.length - 1);',
      '  }',
      '};',
      'visit(text, 0, null);',
      'console.log(JSON.stringify(nodes.map((n) => n.text), null, 2));',
    ],
  });
}

/** MarkdownNodeParser from @llamaindex/core/node-parser over one Document, the nodes' texts printed. */
export function llamaindexTsMarkdown(o: ProgramOptions, notes: string[] = []): string {
  return llamaindexTsProgram(o, {
    notes,
    imports: ["import { MarkdownNodeParser } from '@llamaindex/core/node-parser';", "import { Document } from '@llamaindex/core/schema';"],
    body: [
      'const nodes = new MarkdownNodeParser().getNodesFromDocuments([new Document({ text })]);',
      'console.log(JSON.stringify(nodes.map((n) => n.text), null, 2));',
    ],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Structure strategies (markdown, html, code)

/** What the heading strategies' programs say about Chunkscope's own extras. */
export function headingStructureNotes(o: ResolvedOptions, comment: string): string[] {
  return [
    `${comment} Chunkscope splits at headings of depth <= ${headingDepthOf(o)}, merges tiny sibling sections, never cuts inside a fitting table or code block,`,
    `${comment} repeats a large table's header row in every row group and gives each chunk its heading path; this program does not do all of that.`,
  ];
}

/** LangChain JS has no structure splitters: its recursive splitter over a language's separators. */
export function jsRecursiveApproximation(o: ProgramOptions, language: string | null, notes: string[]): string {
  const sp = new JsSplitter(o);
  sp.notes.push(...notes);
  sp.lengthFunction();
  return jsProgram(o, {
    cls: 'RecursiveCharacterTextSplitter',
    splitter: sp,
    make: sp.make('RecursiveCharacterTextSplitter', language),
    approximation: `// Approximates Chunkscope's ${o.strategy} strategy with LangChain JS's recursive splitter.`,
  });
}

/** LangChain Python: a header splitter makes sections, the recursive splitter cuts those larger than the size. */
export function langchainPyHeaderSections(o: ProgramOptions, p: { notes: string[]; cls: string; headers: string; pip: string }): string {
  const size = langchainPySizeSplitter(o, null);
  return pyProgram({
    head: [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy.`],
    notes: p.notes,
    pip: 'langchain-text-splitters' + p.pip + size.pip,
    imports: [`from langchain_text_splitters import ${p.cls}`, ...size.imports],
    body: [p.headers, 'sections = headers.split_text(text)', `splitter = ${size.expr}`, 'chunks = splitter.split_documents(sections)'],
    printed: '[c.page_content for c in chunks]',
  });
}

/** LlamaIndex: a node parser makes sections, SentenceSplitter cuts those larger than the size. */
export function llamaindexSections(o: ProgramOptions, p: { notes: string[]; parser: string; sections: string; pip: string }): string {
  const tok = llamaTokenizer(o.unit);
  return pyProgram({
    head: [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy: LlamaIndex's parsers have their own algorithms.`],
    notes: [...p.notes, '# SentenceSplitter then cuts nodes larger than the size (metadata counts in its size unless include_metadata=False).'],
    pip: 'llama-index-core' + p.pip + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: ['from llama_index.core import Document', `from llama_index.core.node_parser import ${p.parser}, SentenceSplitter`, ...tok.imports],
    body: [
      p.sections,
      `parser = SentenceSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    tokenizer=${tok.expr},\n)`,
      'nodes = parser.get_nodes_from_documents(sections)',
    ],
    printed: '[node.text for node in nodes]',
  });
}

/** The head of a structure strategy's Chonkie program, and its notes (with the overlap it cannot give). */
export function chonkieStructureParts(o: ProgramOptions, notes: string[]): { head: string[]; notes: string[] } {
  const all = [...notes];
  if (o.overlap > 0) all.push(`# Chonkie's chunkers here have no overlap of their own (an OverlapRefinery can add ${o.overlap} of context).`);
  return { head: [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy: Chonkie's chunkers have their own algorithms.`], notes: all };
}

/**
 * "Copy as code": a short, runnable program that splits a file the way the current configuration does, in
 * LangChain (JS or Python), LlamaIndex or Chonkie. Each program reads the file named on its command line and prints
 * the chunk strings as JSON.
 *
 * Which targets give Chunkscope's chunks exactly (see `reproducesExactly`):
 * - langchain-js: exactly, for the character, recursive and token strategies in compat mode `langchain` (compat mode
 *   IS LangChain JS's algorithm; the export test runs the generated program against @langchain/textsplitters).
 *   In native mode the same program gives LangChain's chunks, which differ as src/core/README.md lists.
 * - langchain-python, llamaindex, chonkie: approximations. LangChain Python counts code points, joins and trims a
 *   little differently and has other language lists; LlamaIndex and Chonkie have their own algorithms.
 * A strategy a library lacks gets a comment saying so and the closest equivalent.
 *
 * The structure strategies (markdown, html, code) are approximations everywhere: each library's header/code splitter
 * followed by a size splitter where it has one. None of them repeats table headers, keeps heading paths as
 * Chunkscope does, or adds Chunkscope's contextual headers or code prefixes; the programs say so in comments.
 */
import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_PRESETS } from '../languages';
import { detectCodeLanguage, resolveCodeLanguage, type CodeLanguageName } from '../strategies/code/languages';
import type { ResolvedOptions, UnitName } from '../types';

export type CodeTarget = 'langchain-js' | 'langchain-python' | 'llamaindex' | 'chonkie';
export const CODE_TARGETS: CodeTarget[] = ['langchain-js', 'langchain-python', 'llamaindex', 'chonkie'];
export const CODE_TARGET_LABELS: Record<CodeTarget, string> = {
  'langchain-js': 'LangChain (JavaScript)',
  'langchain-python': 'LangChain (Python)',
  llamaindex: 'LlamaIndex',
  chonkie: 'Chonkie',
};

/** True when the program for `target` returns exactly the contents of chunk(text, options). */
export function reproducesExactly(options: ResolvedOptions, target: CodeTarget): boolean {
  return (
    target === 'langchain-js' &&
    options.compat === 'langchain' &&
    (options.strategy === 'character' || options.strategy === 'recursive' || options.strategy === 'token')
  );
}

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

const jsList = (items: readonly string[]): string => `[${items.map(jsString).join(', ')}]`;
const pyList = (items: readonly string[]): string => `[${items.map(pyString).join(', ')}]`;

// ---------------------------------------------------------------------------------------------------------------
// Shared facts about the configuration

const isTokenUnit = (unit: UnitName): boolean => unit !== 'chars' && unit !== 'words';

function sameList(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The language preset to use by name: always in compat mode (fromLanguage ignores separators), else when unchanged. */
function presetLanguage(o: ResolvedOptions): string | null {
  if (o.language === null) return null;
  if (o.compat === 'langchain') return o.language;
  return sameList(o.separators, LANGUAGE_PRESETS[o.language]) ? o.language : null;
}

function summary(o: ResolvedOptions, comment: string): string {
  const parts = [`strategy ${o.strategy}`];
  if (o.strategy !== 'semantic') parts.push(`size ${o.size}`, `overlap ${o.overlap} (${o.unit})`);
  if (o.language) parts.push(`language ${o.language}`);
  else if (o.strategy === 'code' && codeLanguageOf(o)) parts.push(`language ${codeLanguageOf(o)} (from the file name)`);
  if (o.strategy === 'markdown' || o.strategy === 'html') parts.push(`heading depth ${headingDepthOf(o)}`);
  if (o.compat !== 'none') parts.push(`compat ${o.compat}`);
  const lines = [`${comment} Chunkscope configuration: ${parts.join(', ')}.`];
  const missing: string[] = [];
  if (o.headers) missing.push('contextual headers');
  if (o.retrieval && o.retrieval !== 'chunks') missing.push(`${o.retrieval} retrieval units`);
  if (o.rowsAsText && (o.strategy === 'markdown' || o.strategy === 'html')) missing.push('"column: value" table rows');
  if (missing.length > 0) lines.push(`${comment} Not reproduced here: Chunkscope's ${missing.join(', ')}.`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Structure strategies (markdown, html, code)

/** Split at headings of depth 1..headingDepth (3 when the options were built without it). */
function headingDepthOf(o: ResolvedOptions): number {
  return o.headingDepth ?? 3;
}

/** The code strategy's grammar: the language option (name or alias), else the file extension of `path`. */
function codeLanguageOf(o: ResolvedOptions): CodeLanguageName | null {
  const named = o.language ? resolveCodeLanguage(o.language) : null;
  return named ?? (o.path ? detectCodeLanguage(o.path) : null);
}

/** LangChain JS's fromLanguage() names for the code grammars (C goes through its cpp list, TypeScript its js list). */
const LANGCHAIN_JS_CODE: Record<CodeLanguageName, string> = {
  python: 'python', javascript: 'js', typescript: 'js', tsx: 'js', go: 'go', java: 'java', rust: 'rust', c: 'cpp', cpp: 'cpp',
};
/** LangChain Python's Language enum members for the code grammars. */
const LANGCHAIN_PY_CODE: Record<CodeLanguageName, string> = {
  python: 'PYTHON', javascript: 'JS', typescript: 'TS', tsx: 'TS', go: 'GO', java: 'JAVA', rust: 'RUST', c: 'C', cpp: 'CPP',
};

/** What every structure-strategy program says about Chunkscope's own extras. */
function structureNotes(o: ResolvedOptions, comment: string): string[] {
  if (o.strategy === 'code') {
    return [
      `${comment} Chunkscope keeps functions and classes whole, cuts an oversize one at its children's boundaries and prefixes`,
      `${comment} each chunk's content with the file path and the enclosing signature; this program adds no prefix.`,
    ];
  }
  if (o.strategy === 'markdown' && o.compat === 'langchain') {
    return [`${comment} Chunkscope is in LangChain compatibility mode: it reproduces LangChain Python's MarkdownHeaderTextSplitter (the langchain-python target).`];
  }
  if (o.strategy === 'markdown' && o.compat === 'llamaindex') {
    return [`${comment} Chunkscope is in LlamaIndex compatibility mode: it reproduces LlamaIndex's MarkdownNodeParser (the llamaindex target).`];
  }
  return [
    `${comment} Chunkscope splits at headings of depth <= ${headingDepthOf(o)}, merges tiny sibling sections, never cuts inside a fitting table or code block,`,
    `${comment} repeats a large table's header row in every row group and gives each chunk its heading path; this program does not do all of that.`,
  ];
}

/** Paragraphs, lines, words, characters: the closest for sentence/paragraph where a library has no such splitter. */
const PARAGRAPH_FALLBACK = ['\n\n', '\n', ' ', ''];

// ---------------------------------------------------------------------------------------------------------------
// LangChain JS

function langchainJs(o: ResolvedOptions): string {
  const structural = o.strategy === 'markdown' || o.strategy === 'html' || o.strategy === 'code';
  const head = [summary(o, '//')];
  head.push(
    reproducesExactly(o, 'langchain-js')
      ? "// Gives exactly Chunkscope's chunks in LangChain compatibility mode."
      : structural
        ? `// Approximates Chunkscope's ${o.strategy} strategy with LangChain JS's recursive splitter.`
        : o.compat === 'langchain'
          ? '// Approximates Chunkscope (this strategy has no LangChain compatibility mode).'
          : "// LangChain's own algorithm: Chunkscope's native mode differs in offsets, overlap and trimming (turn on LangChain compatibility to see these chunks).",
    '// npm install @langchain/textsplitters' + (isTokenUnit(o.unit) && o.strategy !== 'token' ? ' js-tiktoken' : ''),
  );
  const imports = ["import { readFileSync } from 'node:fs';"];
  const setup: string[] = [];
  const fields = [`chunkSize: ${o.size}`, `chunkOverlap: ${o.overlap}`];
  const note: string[] = [];

  const lengthFunction = (): void => {
    if (o.unit === 'words') fields.push('lengthFunction: (t) => (t.match(/\\S+/g) ?? []).length');
    else if (isTokenUnit(o.unit)) {
      imports.push("import { getEncoding } from 'js-tiktoken';");
      setup.push(`const encoder = getEncoding(${jsString(o.unit)});`);
      // Special tokens such as <|endoftext|> are counted as text, as Chunkscope does.
      fields.push('lengthFunction: (t) => encoder.encode(t, [], []).length');
    }
  };
  const keep = (): void => {
    if (o.keepSeparator === 'end') note.push("// LangChain JS cannot keep a separator at the end of the previous piece ('end'); closest: at the start.");
    fields.push(`keepSeparator: ${o.keepSeparator !== 'none'}`);
  };
  const regexNote = (): void => {
    if (o.separatorsAreRegex) note.push('// LangChain JS splits on literal separators only: these regular expressions are used as plain text.');
  };

  let cls: string;
  let make: string;
  switch (o.strategy) {
    case 'markdown':
    case 'html':
    case 'code': {
      cls = 'RecursiveCharacterTextSplitter';
      const grammar = o.strategy === 'code' ? codeLanguageOf(o) : null;
      const language = o.strategy === 'code' ? (grammar ? LANGCHAIN_JS_CODE[grammar] : null) : o.strategy;
      if (o.strategy === 'markdown') {
        note.push(
          '// LangChain JS has no MarkdownHeaderTextSplitter (LangChain Python has: see that target). Its markdown separators',
          '// prefer cuts before headings (any depth) but do not cut at every heading, and its chunks carry no heading path.',
        );
      } else if (o.strategy === 'html') {
        note.push(
          '// LangChain JS has no HTMLHeaderTextSplitter (LangChain Python has: see that target). Its html separators prefer',
          '// cuts before block tags (<h1>..<h6>, <p>, <table>, ...) and may cut inside a table; chunks carry no heading path.',
        );
      } else if (grammar && grammar !== LANGCHAIN_JS_CODE[grammar]) {
        note.push(`// LangChain JS has no ${grammar} list: the closest is its "${LANGCHAIN_JS_CODE[grammar]}" separators.`);
      } else if (!grammar) {
        note.push('// The language is unknown (no language option, no file extension): the default separators are used.');
      }
      note.push(...structureNotes(o, '//'));
      lengthFunction();
      make = language
        ? `RecursiveCharacterTextSplitter.fromLanguage(${jsString(language)}, {\n  ${fields.join(',\n  ')},\n})`
        : `new RecursiveCharacterTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      break;
    }
    case 'character': {
      cls = 'CharacterTextSplitter';
      regexNote();
      fields.unshift(`separator: ${jsString(o.separators[0] ?? '\n\n')}`);
      keep();
      lengthFunction();
      make = `new CharacterTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      break;
    }
    case 'token':
      cls = 'TokenTextSplitter';
      note.push('// TokenTextSplitter downloads its token ranks on first use.');
      fields.unshift(`encodingName: ${jsString(o.unit)}`);
      make = `new TokenTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      break;
    case 'fixed':
      if (isTokenUnit(o.unit)) {
        cls = 'TokenTextSplitter';
        note.push('// Fixed token windows: TokenTextSplitter steps the same way (it may cut a character between tokens).');
        fields.unshift(`encodingName: ${jsString(o.unit)}`);
        make = `new TokenTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      } else {
        cls = 'CharacterTextSplitter';
        note.push('// LangChain JS has no fixed-window splitter; closest: merging single characters (or words) up to the size.');
        fields.unshift(`separator: ${jsString(o.unit === 'words' ? ' ' : '')}`);
        lengthFunction();
        make = `new CharacterTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      }
      break;
    case 'recursive': {
      cls = 'RecursiveCharacterTextSplitter';
      const language = presetLanguage(o);
      keep();
      lengthFunction();
      if (language !== null && LANGCHAIN_JS_LANGUAGES.has(language)) {
        make = `RecursiveCharacterTextSplitter.fromLanguage(${jsString(language)}, {\n  ${fields.join(',\n  ')},\n})`;
      } else {
        if (language !== null) note.push(`// LangChain JS has no "${o.language}" preset: Chunkscope's separators for it are listed.`);
        regexNote();
        fields.unshift(`separators: ${jsList(o.separators)}`);
        make = `new RecursiveCharacterTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      }
      break;
    }
    case 'sentence':
    case 'paragraph':
      cls = 'RecursiveCharacterTextSplitter';
      note.push(`// LangChain JS has no ${o.strategy} splitter; closest: the recursive splitter over paragraphs, lines and words.`);
      fields.unshift(`separators: ${jsList(PARAGRAPH_FALLBACK)}`);
      lengthFunction();
      make = `new RecursiveCharacterTextSplitter({\n  ${fields.join(',\n  ')},\n})`;
      break;
    case 'semantic':
      return [
        ...head,
        '// LangChain JS has no semantic splitter (SemanticChunker exists in Python, langchain_experimental): use the',
        '// langchain-python target, or run Chunkscope itself: chunk(text, { strategy: "semantic" }, { embed }).',
        '',
      ].join('\n');
  }
  imports.push(`import { ${cls} } from '@langchain/textsplitters';`);
  return [
    ...head,
    ...note,
    ...imports,
    '',
    'const text = readFileSync(process.argv[2], \'utf8\');',
    ...setup,
    `const splitter = ${make};`,
    'const chunks = await splitter.splitText(text);',
    'console.log(JSON.stringify(chunks, null, 2));',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Python (LangChain, LlamaIndex, Chonkie)

const PY_READ = [
  '# newline="" keeps CRLF line ends as they are: the splitters see the same text as Chunkscope.',
  'with open(sys.argv[1], encoding="utf-8", newline="") as f:',
  '    text = f.read()',
];

function pyKeep(o: ResolvedOptions): string {
  return o.keepSeparator === 'end' ? '"end"' : o.keepSeparator === 'start' ? 'True' : 'False';
}

/** A LangChain Python splitter expression for the character/recursive strategies, and the imports it needs. */
function langchainPySplitter(o: ResolvedOptions): { imports: string[]; expr: string; notes: string[] } {
  const imports: string[] = [];
  const notes: string[] = [];
  const args = [`chunk_size=${o.size}`, `chunk_overlap=${o.overlap}`, `keep_separator=${pyKeep(o)}`];
  let ctor = 'RecursiveCharacterTextSplitter';
  const cls = o.strategy === 'character' ? 'CharacterTextSplitter' : 'RecursiveCharacterTextSplitter';
  const language = o.strategy === 'recursive' ? presetLanguage(o) : null;
  if (o.strategy === 'character') {
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
  if (o.unit === 'words') args.push('length_function=lambda t: len(t.split())');
  if (isTokenUnit(o.unit)) {
    return { imports, notes, expr: `${cls}.from_tiktoken_encoder(\n    encoding_name=${pyString(o.unit)},\n    ${args.join(',\n    ')},\n)` };
  }
  return { imports, notes, expr: `${ctor}(\n    ${args.join(',\n    ')},\n)` };
}

function sentenceRegexSplitter(o: ResolvedOptions): { imports: string[]; expr: string; notes: string[] } {
  const seps = ['\n\n', '\n', '(?<=[.!?])\\s+', ' ', ''];
  return {
    imports: ['from langchain_text_splitters import RecursiveCharacterTextSplitter'],
    notes: [`# LangChain has no ${o.strategy} splitter of this kind (NLTKTextSplitter needs nltk); closest: paragraphs, lines, sentence ends, words.`],
    expr: `RecursiveCharacterTextSplitter(\n    separators=${pyList(seps)},\n    is_separator_regex=True,\n    keep_separator="end",\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n)`,
  };
}

/** LangChain Python SemanticChunker arguments; its breakpoint types are Chunkscope's modes except `absolute`. */
function langchainSemanticArgs(o: ResolvedOptions): string[] {
  const mode = o.breakpoint ?? 'percentile';
  const args = [`breakpoint_threshold_type=${pyString(mode === 'absolute' ? 'percentile' : mode)}`];
  if (o.amount !== null && o.amount !== undefined && mode !== 'absolute') args.push(`breakpoint_threshold_amount=${o.amount}`);
  if (o.chunks) args.push(`number_of_chunks=${o.chunks}`);
  args.push(`buffer_size=${o.buffer ?? 1}`);
  if (o.minSize) args.push(`min_chunk_size=${o.minSize}`);
  return args;
}

function embedderName(o: ResolvedOptions): string {
  return o.embedder && o.embedder !== 'builtin' ? o.embedder : 'sentence-transformers/all-MiniLM-L6-v2';
}

function langchainPython(o: ResolvedOptions): string {
  const head = [summary(o, '#'), "# Approximates Chunkscope: LangChain Python counts code points and trims and joins slightly differently from LangChain JS."];
  let part: { imports: string[]; expr: string; notes: string[] };
  let pip = 'langchain-text-splitters';
  switch (o.strategy) {
    case 'markdown':
    case 'html':
    case 'code':
      return langchainPythonStructure(o);
    case 'character':
    case 'recursive':
      part = langchainPySplitter(o);
      if (isTokenUnit(o.unit)) pip += ' tiktoken';
      break;
    case 'token':
    case 'fixed':
      if (o.strategy === 'fixed' && !isTokenUnit(o.unit)) {
        part = langchainPySplitter({ ...o, strategy: 'character', separators: [o.unit === 'words' ? ' ' : ''], separatorsAreRegex: false, keepSeparator: 'none' });
        part.notes.push('# LangChain has no fixed-window splitter; closest: merging single characters (or words) up to the size.');
      } else {
        pip += ' tiktoken';
        part = {
          imports: ['from langchain_text_splitters import TokenTextSplitter'],
          notes: [],
          expr: `TokenTextSplitter(encoding_name=${pyString(o.unit)}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`,
        };
      }
      break;
    case 'sentence':
    case 'paragraph':
      part = sentenceRegexSplitter(o);
      break;
    case 'semantic':
      pip = 'langchain-experimental langchain-huggingface sentence-transformers';
      part = {
        imports: ['from langchain_experimental.text_splitter import SemanticChunker', 'from langchain_huggingface import HuggingFaceEmbeddings'],
        notes: [
          "# Chunkscope's built-in static model is not a Hugging Face model: this uses a sentence-transformers model instead.",
          ...((o.breakpoint ?? 'percentile') === 'absolute' ? ['# LangChain has no absolute distance threshold; closest: a percentile.'] : []),
          ...(o.maxSize ? [`# SemanticChunker has no maximum size (Chunkscope's maxSize ${o.maxSize}).`] : []),
        ],
        expr: `SemanticChunker(\n    HuggingFaceEmbeddings(model_name=${pyString(embedderName(o))}),\n    ${langchainSemanticArgs(o).join(',\n    ')},\n)`,
      };
      break;
  }
  return [
    ...head,
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

/** The tokenizer callable LlamaIndex's splitters take, for the unit. */
function llamaTokenizer(unit: UnitName): { imports: string[]; expr: string } {
  if (unit === 'chars') return { imports: [], expr: 'list  # one token per character' };
  if (unit === 'words') return { imports: [], expr: 'str.split  # one token per word' };
  return { imports: ['import tiktoken'], expr: `tiktoken.get_encoding(${pyString(unit)}).encode` };
}

function llamaindex(o: ResolvedOptions): string {
  const head = [summary(o, '#'), "# Approximates Chunkscope: LlamaIndex's parsers have their own algorithms."];
  const imports = ['from llama_index.core import Document'];
  const notes: string[] = [];
  const setup: string[] = [];
  let pip = 'llama-index-core';
  let expr: string;
  switch (o.strategy) {
    case 'markdown':
    case 'html':
    case 'code':
      return llamaindexStructure(o);
    case 'character':
    case 'recursive': {
      // LlamaIndex runs LangChain's splitter itself through LangchainNodeParser: the closest to these strategies.
      const lc = langchainPySplitter(o);
      pip += ' langchain-text-splitters' + (isTokenUnit(o.unit) ? ' tiktoken' : '');
      imports.push('from llama_index.core.node_parser import LangchainNodeParser', ...lc.imports);
      notes.push("# LlamaIndex has no separator-list splitter of its own: LangchainNodeParser runs LangChain's.", ...lc.notes);
      setup.push(`splitter = ${lc.expr}`);
      expr = 'LangchainNodeParser(splitter)';
      break;
    }
    case 'semantic':
      pip += ' llama-index-embeddings-huggingface';
      imports.push('from llama_index.core.node_parser import SemanticSplitterNodeParser', 'from llama_index.embeddings.huggingface import HuggingFaceEmbedding');
      if ((o.breakpoint ?? 'percentile') !== 'percentile') notes.push(`# LlamaIndex breaks at a percentile only; the ${o.breakpoint} mode has no equivalent.`);
      expr = `SemanticSplitterNodeParser(\n    embed_model=HuggingFaceEmbedding(model_name=${pyString(embedderName(o))}),\n    buffer_size=${o.buffer ?? 1},\n    breakpoint_percentile_threshold=${o.breakpoint === 'percentile' && o.amount != null ? o.amount : 95},\n)`;
      break;
    case 'token':
    case 'fixed': {
      const tok = llamaTokenizer(o.unit);
      imports.push('from llama_index.core.node_parser import TokenTextSplitter', ...tok.imports);
      if (isTokenUnit(o.unit)) pip += ' tiktoken';
      notes.push("# LlamaIndex's TokenTextSplitter packs words up to the size in tokens rather than cutting fixed windows.");
      expr = `TokenTextSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    tokenizer=${tok.expr},\n)`;
      break;
    }
    case 'sentence':
    case 'paragraph': {
      const tok = llamaTokenizer(o.unit);
      imports.push('from llama_index.core.node_parser import SentenceSplitter', ...tok.imports);
      if (isTokenUnit(o.unit)) pip += ' tiktoken';
      notes.push('# SentenceSplitter keeps paragraphs, then sentences, together up to the size.');
      expr = `SentenceSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    paragraph_separator="\\n\\n",\n    tokenizer=${tok.expr},\n)`;
      break;
    }
  }
  return [
    ...head,
    ...notes,
    `# pip install ${pip}`,
    'import json',
    'import sys',
    '',
    ...imports,
    '',
    ...PY_READ,
    '',
    ...setup,
    `parser = ${expr}`,
    'nodes = parser.get_nodes_from_documents([Document(text=text)])',
    'print(json.dumps([node.text for node in nodes], indent=2, ensure_ascii=False))',
    '',
  ].join('\n');
}

/** Chonkie's tokenizer name for the unit (the first positional argument of its chunkers). */
function chonkieTokenizer(unit: UnitName): string {
  return pyString(unit === 'chars' ? 'character' : unit === 'words' ? 'word' : unit);
}

function chonkie(o: ResolvedOptions): string {
  const head = [summary(o, '#'), "# Approximates Chunkscope: Chonkie's chunkers have their own algorithms."];
  const notes: string[] = [];
  let imports: string[];
  let expr: string;
  const tok = chonkieTokenizer(o.unit);
  switch (o.strategy) {
    case 'markdown':
    case 'html':
    case 'code':
      return chonkieStructure(o);
    case 'recursive':
    case 'character': {
      const seps = o.strategy === 'character' ? o.separators.slice(0, 1) : o.separators;
      if (o.separatorsAreRegex) notes.push('# Chonkie splits on literal delimiters only: these regular expressions are used as plain text.');
      if (o.overlap > 0) notes.push(`# RecursiveChunker has no overlap of its own (an OverlapRefinery can add ${o.overlap} of context).`);
      if (o.language) notes.push(`# Chunkscope's "${o.language}" separators as Chonkie levels (Chonkie's recipes differ).`);
      const include = o.keepSeparator === 'start' ? ', include_delim="next"' : o.keepSeparator === 'end' ? ', include_delim="prev"' : '';
      const levels = seps.map((s) =>
        s === '' ? 'RecursiveLevel()' : s === ' ' ? 'RecursiveLevel(whitespace=True)' : `RecursiveLevel(delimiters=[${pyString(s)}]${include})`,
      );
      imports = ['from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules'];
      expr = `RecursiveChunker(\n    ${tok},\n    chunk_size=${o.size},\n    rules=RecursiveRules(levels=[\n        ${levels.join(',\n        ')},\n    ]),\n)`;
      break;
    }
    case 'token':
    case 'fixed':
      imports = ['from chonkie import TokenChunker'];
      expr = `TokenChunker(${tok}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`;
      break;
    case 'sentence':
    case 'paragraph':
      if (o.strategy === 'paragraph') notes.push('# Chonkie has no paragraph chunker; closest: whole sentences up to the size.');
      imports = ['from chonkie import SentenceChunker'];
      expr = `SentenceChunker(${tok}, chunk_size=${o.size}, chunk_overlap=${o.overlap})`;
      break;
    case 'semantic':
      notes.push("# Chonkie's SemanticChunker uses its own threshold (a similarity, not Chunkscope's breakpoint modes).");
      imports = ['from chonkie import SemanticChunker'];
      expr = `SemanticChunker(embedding_model=${pyString(o.embedder && o.embedder !== 'builtin' ? o.embedder : 'minishlab/potion-base-32M')}${o.maxSize ? `, chunk_size=${o.maxSize}` : ''})`;
      break;
  }
  return [
    ...head,
    ...notes,
    '# pip install chonkie',
    'import json',
    'import sys',
    '',
    ...imports,
    '',
    ...PY_READ,
    '',
    `chunker = ${expr}`,
    'chunks = chunker.chunk(text)',
    'print(json.dumps([c.text for c in chunks], indent=2, ensure_ascii=False))',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Python programs for the structure strategies

interface PyProgram {
  head: string[];
  notes: string[];
  pip: string;
  imports: string[];
  /** Statements after `text` is read; they leave the chunk strings' source in `printed`. */
  body: string[];
  /** A Python expression: the list of chunk strings. */
  printed: string;
}

function pyProgram(p: PyProgram): string {
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
function headersToSplitOn(o: ResolvedOptions, html: boolean): string {
  const pairs = Array.from({ length: headingDepthOf(o) }, (_, i) =>
    `(${pyString(html ? `h${i + 1}` : '#'.repeat(i + 1))}, ${pyString(`Header ${i + 1}`)})`,
  );
  return `[${pairs.join(', ')}]`;
}

/**
 * LangChain Python's RecursiveCharacterTextSplitter for the size and unit, over a language's separators (a Language
 * enum member) or its defaults; `pip` lists what it needs beyond langchain-text-splitters.
 */
function langchainPySizeSplitter(o: ResolvedOptions, languageEnum: string | null): { imports: string[]; expr: string; pip: string } {
  const imports = ['from langchain_text_splitters import RecursiveCharacterTextSplitter'];
  const args = [`chunk_size=${o.size}`, `chunk_overlap=${o.overlap}`];
  if (languageEnum) imports.push('from langchain_text_splitters import Language');
  if (o.unit === 'words') args.push('length_function=lambda t: len(t.split())');
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

function langchainPythonStructure(o: ResolvedOptions): string {
  const head = [summary(o, '#')];
  const notes: string[] = [];
  if (o.strategy === 'markdown' && o.compat === 'langchain') {
    head.push("# MarkdownHeaderTextSplitter alone: Chunkscope's LangChain compatibility mode reproduces its page_content (no size applies).");
    return pyProgram({
      head,
      notes,
      pip: 'langchain-text-splitters',
      imports: ['from langchain_text_splitters import MarkdownHeaderTextSplitter'],
      body: [
        'splitter = MarkdownHeaderTextSplitter(',
        `    headers_to_split_on=${headersToSplitOn(o, false)},`,
        `    strip_headers=${o.stripHeaders === false ? 'False' : 'True'},`,
        `    return_each_line=${o.returnEachLine ? 'True' : 'False'},`,
        ')',
        'chunks = splitter.split_text(text)',
      ],
      printed: '[c.page_content for c in chunks]',
    });
  }
  head.push(`# Approximates Chunkscope's ${o.strategy} strategy.`);
  notes.push(...structureNotes(o, '#'));
  if (o.strategy === 'code') {
    const grammar = codeLanguageOf(o);
    if (!grammar) notes.push('# The language is unknown (no language option, no file extension): the default separators are used.');
    const size = langchainPySizeSplitter(o, grammar ? LANGCHAIN_PY_CODE[grammar] : null);
    notes.push('# LangChain cuts code at separator lines (class, def, ...), not at syntax-tree nodes.');
    return pyProgram({
      head, notes, pip: 'langchain-text-splitters' + size.pip, imports: size.imports,
      body: [`splitter = ${size.expr}`, 'chunks = splitter.split_text(text)'],
      printed: 'chunks',
    });
  }
  const html = o.strategy === 'html';
  const size = langchainPySizeSplitter(o, null);
  if (html) {
    notes.push(
      "# HTMLHeaderTextSplitter returns the elements' text (tags removed), not HTML source spans as Chunkscope does;",
      '# the recursive splitter then cuts sections larger than the size.',
    );
  } else {
    notes.push(
      '# MarkdownHeaderTextSplitter rebuilds each section from its lines (strip_headers=False keeps the heading line, as',
      "# Chunkscope's chunks do); the recursive splitter then cuts sections larger than the size.",
    );
  }
  const cls = html ? 'HTMLHeaderTextSplitter' : 'MarkdownHeaderTextSplitter';
  return pyProgram({
    head,
    notes,
    pip: 'langchain-text-splitters' + (html ? ' beautifulsoup4 lxml' : '') + size.pip,
    imports: [`from langchain_text_splitters import ${cls}`, ...size.imports],
    body: [
      html
        ? `headers = HTMLHeaderTextSplitter(headers_to_split_on=${headersToSplitOn(o, true)})`
        : `headers = MarkdownHeaderTextSplitter(headers_to_split_on=${headersToSplitOn(o, false)}, strip_headers=False)`,
      'sections = headers.split_text(text)',
      `splitter = ${size.expr}`,
      'chunks = splitter.split_documents(sections)',
    ],
    printed: '[c.page_content for c in chunks]',
  });
}

/** HTML elements LlamaIndex's HTMLNodeParser reads: headings and the usual text blocks. */
function htmlNodeTags(): string[] {
  return [...Array.from({ length: 6 }, (_, i) => `h${i + 1}`), 'p', 'li', 'pre', 'td', 'th', 'caption', 'blockquote', 'section'];
}

function llamaindexStructure(o: ResolvedOptions): string {
  const head = [summary(o, '#')];
  const notes: string[] = [];
  const imports = ['from llama_index.core import Document'];
  if (o.strategy === 'markdown' && o.compat === 'llamaindex') {
    head.push("# MarkdownNodeParser alone: Chunkscope's LlamaIndex compatibility mode reproduces its nodes (no size applies).");
    return pyProgram({
      head, notes, pip: 'llama-index-core',
      imports: [...imports, 'from llama_index.core.node_parser import MarkdownNodeParser'],
      body: ['nodes = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])'],
      printed: '[node.text for node in nodes]',
    });
  }
  head.push(`# Approximates Chunkscope's ${o.strategy} strategy: LlamaIndex's parsers have their own algorithms.`);
  notes.push(...structureNotes(o, '#'));
  if (o.strategy === 'code') {
    const grammar = codeLanguageOf(o);
    const perUnit = o.unit === 'chars' ? 1 : o.unit === 'words' ? 6 : 4;
    if (perUnit !== 1) notes.push(`# CodeSplitter counts characters (max_chars): about ${perUnit} per ${o.unit === 'words' ? 'word' : 'token'} here.`);
    if (o.overlap > 0) notes.push('# CodeSplitter has no overlap in characters (Chunkscope\'s overlap is not reproduced).');
    if (!grammar) notes.push('# The language is unknown (no language option, no file extension): name it in language="...".');
    return pyProgram({
      head, notes, pip: 'llama-index-core tree-sitter tree-sitter-language-pack',
      imports: [...imports, 'from llama_index.core.node_parser import CodeSplitter'],
      body: [
        `parser = CodeSplitter(language=${pyString(grammar ?? 'python')}, max_chars=${o.size * perUnit})`,
        'nodes = parser.get_nodes_from_documents([Document(text=text)])',
      ],
      printed: '[node.text for node in nodes]',
    });
  }
  const html = o.strategy === 'html';
  const tok = llamaTokenizer(o.unit);
  notes.push(
    html
      ? "# HTMLNodeParser makes one node per run of these elements, with their text (tags removed) and no heading path;"
      : '# MarkdownNodeParser makes one node per heading (every depth) with header_path metadata;',
    '# SentenceSplitter then cuts nodes larger than the size (metadata counts in its size unless include_metadata=False).',
  );
  return pyProgram({
    head,
    notes,
    pip: 'llama-index-core' + (html ? ' beautifulsoup4' : '') + (isTokenUnit(o.unit) ? ' tiktoken' : ''),
    imports: [
      ...imports,
      `from llama_index.core.node_parser import ${html ? 'HTMLNodeParser' : 'MarkdownNodeParser'}, SentenceSplitter`,
      ...tok.imports,
    ],
    body: [
      html
        ? `sections = HTMLNodeParser(tags=${pyList(htmlNodeTags())}).get_nodes_from_documents([Document(text=text)])`
        : 'sections = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])',
      `parser = SentenceSplitter(\n    chunk_size=${o.size},\n    chunk_overlap=${o.overlap},\n    tokenizer=${tok.expr},\n)`,
      'nodes = parser.get_nodes_from_documents(sections)',
    ],
    printed: '[node.text for node in nodes]',
  });
}

function chonkieStructure(o: ResolvedOptions): string {
  const head = [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy: Chonkie's chunkers have their own algorithms.`];
  const notes = [...structureNotes(o, '#')];
  const tok = chonkieTokenizer(o.unit);
  if (o.overlap > 0) notes.push(`# Chonkie's chunkers here have no overlap of their own (an OverlapRefinery can add ${o.overlap} of context).`);
  const run = ['chunks = chunker.chunk(text)'];
  const printed = '[c.text for c in chunks]';
  if (o.strategy === 'code') {
    const grammar = codeLanguageOf(o);
    if (!grammar) notes.push('# The language is unknown (no language option, no file extension): Chonkie detects it ("auto").');
    return pyProgram({
      head, notes, pip: '"chonkie[code]"', imports: ['from chonkie import CodeChunker'],
      body: [`chunker = CodeChunker(${tok}, chunk_size=${o.size}, language=${pyString(grammar ?? 'auto')})`, ...run],
      printed,
    });
  }
  if (o.strategy === 'markdown') {
    notes.push(
      '# Chonkie\'s "markdown" recipe (from its recipe hub, hence chonkie[hub]) cuts at headings, then paragraphs, lines and',
      '# words; it does not stop at a heading depth, and chunks carry no heading path.',
      '# Arguments: recipe name, language, recipe path, tokenizer (positional: its keyword name changed between versions).',
    );
    return pyProgram({
      head, notes, pip: '"chonkie[hub]"', imports: ['from chonkie import RecursiveChunker'],
      body: [`chunker = RecursiveChunker.from_recipe("markdown", "en", None, ${tok}, chunk_size=${o.size})`, ...run],
      printed,
    });
  }
  // HTML: no HTML chunker in Chonkie; the recursive chunker cut before headings, then before block tags.
  notes.push('# Chonkie has no HTML chunker; closest: the recursive chunker cutting before headings, then before block tags.');
  const headings = Array.from({ length: headingDepthOf(o) }, (_, i) => `<h${i + 1}`);
  const blocks = ['<p', '<table', '<pre', '<ul', '<ol', '<section', '<div'];
  const levels = [
    `RecursiveLevel(delimiters=${pyList(headings)}, include_delim="next")`,
    `RecursiveLevel(delimiters=${pyList(blocks)}, include_delim="next")`,
    `RecursiveLevel(delimiters=${pyList(['\n\n'])})`,
    `RecursiveLevel(delimiters=${pyList(['\n'])})`,
    'RecursiveLevel(whitespace=True)',
    'RecursiveLevel()',
  ];
  return pyProgram({
    head, notes, pip: 'chonkie', imports: ['from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules'],
    body: [
      `chunker = RecursiveChunker(\n    ${tok},\n    chunk_size=${o.size},\n    rules=RecursiveRules(levels=[\n        ${levels.join(',\n        ')},\n    ]),\n)`,
      ...run,
    ],
    printed,
  });
}

/** A runnable program for `target` that splits a file (its path the first command-line argument) like `options`. */
export function codeFor(options: ResolvedOptions, target: CodeTarget): string {
  switch (target) {
    case 'langchain-js':
      return langchainJs(options);
    case 'langchain-python':
      return langchainPython(options);
    case 'llamaindex':
      return llamaindex(options);
    case 'chonkie':
      return chonkie(options);
  }
}

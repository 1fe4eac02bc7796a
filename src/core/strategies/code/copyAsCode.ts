import {
  chonkieStructureParts,
  chonkieTokenizer,
  jsRecursiveApproximation,
  langchainPySizeSplitter,
  pyProgram,
  pyString,
  summary,
  type CopyAsCodeRecipes,
} from '../../export/programs';
import type { ResolvedOptions } from '../../types';
import { detectCodeLanguage, resolveCodeLanguage, type CodeLanguageName } from './languages';
import { unitDescriptor } from '../../units';

/** The grammar: the language option (name or alias), else the file extension of `path`. */
function codeLanguageOf(o: ResolvedOptions): CodeLanguageName | null {
  const named = o.language ? resolveCodeLanguage(o.language) : null;
  return named ?? (o.path ? detectCodeLanguage(o.path) : null);
}

/** LangChain JS's fromLanguage() names for the grammars (C goes through its cpp list, TypeScript its js list). */
const LANGCHAIN_JS_CODE: Record<CodeLanguageName, string> = {
  python: 'python', javascript: 'js', typescript: 'js', tsx: 'js', go: 'go', java: 'java', rust: 'rust', c: 'cpp', cpp: 'cpp',
};
/** LangChain Python's Language enum members for the grammars. */
const LANGCHAIN_PY_CODE: Record<CodeLanguageName, string> = {
  python: 'PYTHON', javascript: 'JS', typescript: 'TS', tsx: 'TS', go: 'GO', java: 'JAVA', rust: 'RUST', c: 'C', cpp: 'CPP',
};

/** What every code program says about Chunkscope's own extras. */
function notes(comment: string): string[] {
  return [
    `${comment} Chunkscope keeps functions and classes whole, cuts an oversize one at its children's boundaries and prefixes`,
    `${comment} each chunk's content with the file path and the enclosing signature; this program adds no prefix.`,
  ];
}

/** Code at its syntax: CodeSplitter (LlamaIndex) and CodeChunker (Chonkie) parse it; LangChain cuts at separators. */
export const recipes: CopyAsCodeRecipes = {
  'langchain-js'(o) {
    const grammar = codeLanguageOf(o);
    const lines: string[] = [];
    if (grammar && grammar !== LANGCHAIN_JS_CODE[grammar]) lines.push(`// LangChain JS has no ${grammar} list: the closest is its "${LANGCHAIN_JS_CODE[grammar]}" separators.`);
    else if (!grammar) lines.push('// The language is unknown (no language option, no file extension): the default separators are used.');
    return jsRecursiveApproximation(o, grammar ? LANGCHAIN_JS_CODE[grammar] : null, [...lines, ...notes('//')]);
  },
  'langchain-python'(o) {
    const grammar = codeLanguageOf(o);
    const all = notes('#');
    if (!grammar) all.push('# The language is unknown (no language option, no file extension): the default separators are used.');
    const size = langchainPySizeSplitter(o, grammar ? LANGCHAIN_PY_CODE[grammar] : null);
    all.push('# LangChain cuts code at separator lines (class, def, ...), not at syntax-tree nodes.');
    return pyProgram({
      head: [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy.`],
      notes: all,
      pip: 'langchain-text-splitters' + size.pip,
      imports: size.imports,
      body: [`splitter = ${size.expr}`, 'chunks = splitter.split_text(text)'],
      printed: 'chunks',
    });
  },
  llamaindex(o) {
    const grammar = codeLanguageOf(o);
    const all = notes('#');
    const counted = unitDescriptor(o.unit);
    const perUnit = counted?.program?.charsPer ?? 4; // a token is about 4 characters
    if (perUnit !== 1) all.push(`# CodeSplitter counts characters (max_chars): about ${perUnit} per ${counted?.noun ?? 'token'} here.`);
    if (o.overlap > 0) all.push("# CodeSplitter has no overlap in characters (Chunkscope's overlap is not reproduced).");
    if (!grammar) all.push('# The language is unknown (no language option, no file extension): name it in language="...".');
    return pyProgram({
      head: [summary(o, '#'), `# Approximates Chunkscope's ${o.strategy} strategy: LlamaIndex's parsers have their own algorithms.`],
      notes: all,
      pip: 'llama-index-core tree-sitter tree-sitter-language-pack',
      imports: ['from llama_index.core import Document', 'from llama_index.core.node_parser import CodeSplitter'],
      body: [
        `parser = CodeSplitter(language=${pyString(grammar ?? 'python')}, max_chars=${o.size * perUnit})`,
        'nodes = parser.get_nodes_from_documents([Document(text=text)])',
      ],
      printed: '[node.text for node in nodes]',
    });
  },
  chonkie(o) {
    const grammar = codeLanguageOf(o);
    const { head, notes: all } = chonkieStructureParts(o, notes('#'));
    if (!grammar) all.push('# The language is unknown (no language option, no file extension): Chonkie detects it ("auto").');
    return pyProgram({
      head,
      notes: all,
      pip: '"chonkie[code]"',
      imports: ['from chonkie import CodeChunker'],
      body: [`chunker = CodeChunker(${chonkieTokenizer(o.unit)}, chunk_size=${o.size}, language=${pyString(grammar ?? 'auto')})`, 'chunks = chunker.chunk(text)'],
      printed: '[c.text for c in chunks]',
    });
  },
};

import {
  chonkieStructureParts,
  chonkieTokenizer,
  headersToSplitOn,
  headingStructureNotes,
  jsRecursiveApproximation,
  langchainPyHeaderSections,
  llamaindexSections,
  llamaindexTsMarkdown,
  pyProgram,
  summary,
  type CopyAsCodeRecipes,
} from '../../export/programs';
import type { ResolvedOptions } from '../../types';

/** In a compat mode Chunkscope reproduces one library's header splitter; the notes say which. */
function notes(o: ResolvedOptions, comment: string): string[] {
  if (o.compat === 'langchain') {
    return [`${comment} Chunkscope is in LangChain compatibility mode: it reproduces LangChain Python's MarkdownHeaderTextSplitter (the langchain-python target).`];
  }
  if (o.compat === 'llamaindex') {
    return [
      `${comment} Chunkscope is in LlamaIndex compatibility mode: it reproduces LlamaIndex TypeScript's MarkdownNodeParser (the llamaindex-ts target);`,
      `${comment} Python's keeps the "#" marks in each node's text and gives header_path metadata instead of Header_1 ... Header_n.`,
    ];
  }
  return headingStructureNotes(o, comment);
}

/** Markdown at its headings: each library's header splitter, then a size splitter where it has one. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'llamaindex-ts': 'llamaindex' },
  'langchain-js': (o) =>
    jsRecursiveApproximation(o, 'markdown', [
      '// LangChain JS has no MarkdownHeaderTextSplitter (LangChain Python has: see that target). Its markdown separators',
      '// prefer cuts before headings (any depth) but do not cut at every heading, and its chunks carry no heading path.',
      ...notes(o, '//'),
    ]),
  'langchain-python'(o) {
    if (o.compat === 'langchain') {
      return pyProgram({
        head: [summary(o, '#'), "# MarkdownHeaderTextSplitter alone: Chunkscope's LangChain compatibility mode reproduces its page_content (no size applies)."],
        notes: [],
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
    return langchainPyHeaderSections(o, {
      notes: [
        ...notes(o, '#'),
        '# MarkdownHeaderTextSplitter rebuilds each section from its lines (strip_headers=False keeps the heading line, as',
        "# Chunkscope's chunks do); the recursive splitter then cuts sections larger than the size.",
      ],
      cls: 'MarkdownHeaderTextSplitter',
      headers: `headers = MarkdownHeaderTextSplitter(headers_to_split_on=${headersToSplitOn(o, false)}, strip_headers=False)`,
      pip: '',
    });
  },
  llamaindex(o) {
    if (o.compat === 'llamaindex') {
      return pyProgram({
        head: [summary(o, '#'), '# MarkdownNodeParser alone (no size applies). This Python program is not run by the tests (compiled only).'],
        notes: notes(o, '#'),
        pip: 'llama-index-core',
        imports: ['from llama_index.core import Document', 'from llama_index.core.node_parser import MarkdownNodeParser'],
        body: ['nodes = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])'],
        printed: '[node.text for node in nodes]',
      });
    }
    return llamaindexSections(o, {
      notes: [...notes(o, '#'), '# MarkdownNodeParser makes one node per heading (every depth) with header_path metadata;'],
      parser: 'MarkdownNodeParser',
      sections: 'sections = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])',
      pip: '',
    });
  },
  'llamaindex-ts': (o) => llamaindexTsMarkdown(o, o.compat === 'llamaindex' ? [] : [...notes(o, '//'), '// MarkdownNodeParser makes one node per heading (every depth); it applies no size.']),
  chonkie(o) {
    const { head, notes: all } = chonkieStructureParts(o, notes(o, '#'));
    all.push(
      '# Chonkie\'s "markdown" recipe (from its recipe hub, hence chonkie[hub]) cuts at headings, then paragraphs, lines and',
      '# words; it does not stop at a heading depth, and chunks carry no heading path.',
      '# Arguments: recipe name, language, recipe path, tokenizer (positional: its keyword name changed between versions).',
    );
    return pyProgram({
      head,
      notes: all,
      pip: '"chonkie[hub]"',
      imports: ['from chonkie import RecursiveChunker'],
      body: [`chunker = RecursiveChunker.from_recipe("markdown", "en", None, ${chonkieTokenizer(o.unit)}, chunk_size=${o.size})`, 'chunks = chunker.chunk(text)'],
      printed: '[c.text for c in chunks]',
    });
  },
};

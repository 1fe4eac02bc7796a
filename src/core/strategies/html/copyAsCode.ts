import {
  chonkieStructureParts,
  chonkieTokenizer,
  headersToSplitOn,
  headingDepthOf,
  headingStructureNotes,
  jsRecursiveApproximation,
  langchainPyHeaderSections,
  llamaindexSections,
  pyList,
  pyProgram,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** HTML elements LlamaIndex's HTMLNodeParser reads: headings and the usual text blocks. */
function htmlNodeTags(): string[] {
  return [...Array.from({ length: 6 }, (_, i) => `h${i + 1}`), 'p', 'li', 'pre', 'td', 'th', 'caption', 'blockquote', 'section'];
}

/** HTML at its headings: each library's HTML splitter where it has one, else the recursive one before block tags. */
export const recipes: CopyAsCodeRecipes = {
  'langchain-js': (o) =>
    jsRecursiveApproximation(o, 'html', [
      '// LangChain JS has no HTMLHeaderTextSplitter (LangChain Python has: see that target). Its html separators prefer',
      '// cuts before block tags (<h1>..<h6>, <p>, <table>, ...) and may cut inside a table; chunks carry no heading path.',
      ...headingStructureNotes(o, '//'),
    ]),
  'langchain-python': (o) =>
    langchainPyHeaderSections(o, {
      notes: [
        ...headingStructureNotes(o, '#'),
        "# HTMLHeaderTextSplitter returns the elements' text (tags removed), as Chunkscope's chunk content is by default",
        '# (Chunkscope also keeps each chunk\'s HTML source span, and merges fragments); the recursive splitter then cuts',
        '# sections larger than the size.',
      ],
      cls: 'HTMLHeaderTextSplitter',
      headers: `headers = HTMLHeaderTextSplitter(headers_to_split_on=${headersToSplitOn(o, true)})`,
      pip: ' beautifulsoup4 lxml',
    }),
  llamaindex: (o) =>
    llamaindexSections(o, {
      notes: [...headingStructureNotes(o, '#'), '# HTMLNodeParser makes one node per run of these elements, with their text (tags removed) and no heading path;'],
      parser: 'HTMLNodeParser',
      sections: `sections = HTMLNodeParser(tags=${pyList(htmlNodeTags())}).get_nodes_from_documents([Document(text=text)])`,
      pip: ' beautifulsoup4',
    }),
  chonkie(o) {
    const { head, notes } = chonkieStructureParts(o, headingStructureNotes(o, '#'));
    // No HTML chunker in Chonkie: the recursive chunker cut before headings, then before block tags.
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
      head,
      notes,
      pip: 'chonkie',
      imports: ['from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules'],
      body: [
        `chunker = RecursiveChunker(\n    ${chonkieTokenizer(o.unit)},\n    chunk_size=${o.size},\n    rules=RecursiveRules(levels=[\n        ${levels.join(',\n        ')},\n    ]),\n)`,
        'chunks = chunker.chunk(text)',
      ],
      printed: '[c.text for c in chunks]',
    });
  },
};

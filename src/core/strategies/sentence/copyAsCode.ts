import {
  chonkieSentences,
  chonkieTsSentences,
  jsParagraphFallback,
  langchainPyProgram,
  llamaindexHierarchicalPy,
  llamaindexSentenceSplitter,
  llamaindexSentenceWindowPy,
  llamaindexTsHierarchical,
  llamaindexTsSentenceWindow,
  llamaindexTsSplitter,
  sentenceRegexSplitter,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** Whole sentences: SentenceSplitter (LlamaIndex), SentenceChunker (Chonkie), the closest recursive lists elsewhere. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'llamaindex-ts': 'llamaindex', 'chonkie-ts': 'chonkie' },
  'langchain-js': (o) => jsParagraphFallback(o, 'sentence'),
  'langchain-python': (o) => langchainPyProgram(o, sentenceRegexSplitter(o), 'langchain-text-splitters'),
  // Sentence windows and hierarchical levels: LlamaIndex's SentenceWindowNodeParser and HierarchicalNodeParser.
  llamaindex: (o) => (o.retrieval === 'window' ? llamaindexSentenceWindowPy(o) : o.retrieval === 'hierarchical' ? llamaindexHierarchicalPy(o) : llamaindexSentenceSplitter(o)),
  'llamaindex-ts': (o) =>
    o.retrieval === 'window'
      ? llamaindexTsSentenceWindow(o)
      : o.retrieval === 'hierarchical'
        ? llamaindexTsHierarchical(o)
        : llamaindexTsSplitter(o, 'SentenceSplitter', o.compat === 'llamaindex' ? [] : ["// SentenceSplitter: paragraphs (\"\\n\\n\\n\"), then its own sentence tokenizer, then phrases, words, characters (Chunkscope's native mode uses Intl.Segmenter)."]),
  chonkie: (o) => chonkieSentences(o),
  'chonkie-ts': chonkieTsSentences,
};

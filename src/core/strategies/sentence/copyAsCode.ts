import {
  chonkieSentences,
  chonkieTsSentences,
  jsParagraphFallback,
  langchainPyProgram,
  llamaindexSentenceSplitter,
  llamaindexTsSplitter,
  sentenceRegexSplitter,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** Whole sentences: SentenceSplitter (LlamaIndex), SentenceChunker (Chonkie), the closest recursive lists elsewhere. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'llamaindex-ts': 'llamaindex', 'chonkie-ts': 'chonkie' },
  'langchain-js': (o) => jsParagraphFallback(o, 'sentence'),
  'langchain-python': (o) => langchainPyProgram(o, sentenceRegexSplitter(o), 'langchain-text-splitters'),
  llamaindex: llamaindexSentenceSplitter,
  'llamaindex-ts': (o) =>
    llamaindexTsSplitter(o, 'SentenceSplitter', o.compat === 'llamaindex' ? [] : ["// SentenceSplitter: paragraphs (\"\\n\\n\\n\"), then its own sentence tokenizer, then phrases, words, characters (Chunkscope's native mode uses Intl.Segmenter)."]),
  chonkie: (o) => chonkieSentences(o),
  'chonkie-ts': chonkieTsSentences,
};

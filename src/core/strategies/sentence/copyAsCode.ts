import { chonkieSentences, chonkieTsSentences, jsParagraphFallback, langchainPyProgram, llamaindexSentenceSplitter, sentenceRegexSplitter, type CopyAsCodeRecipes } from '../../export/programs';

/** Whole sentences: SentenceSplitter (LlamaIndex), SentenceChunker (Chonkie), the closest recursive lists elsewhere. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'chonkie-ts': 'chonkie' },
  'langchain-js': (o) => jsParagraphFallback(o, 'sentence'),
  'langchain-python': (o) => langchainPyProgram(o, sentenceRegexSplitter(o), 'langchain-text-splitters'),
  llamaindex: llamaindexSentenceSplitter,
  chonkie: (o) => chonkieSentences(o),
  'chonkie-ts': chonkieTsSentences,
};

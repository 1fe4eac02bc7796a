import { chonkieSentences, jsParagraphFallback, langchainPyProgram, llamaindexSentenceSplitter, sentenceRegexSplitter, type CopyAsCodeRecipes } from '../../export/programs';

/** Whole paragraphs: SentenceSplitter (LlamaIndex, paragraphs first), the closest sentence or recursive splitter elsewhere. */
export const recipes: CopyAsCodeRecipes = {
  'langchain-js': (o) => jsParagraphFallback(o, 'paragraph'),
  'langchain-python': (o) => langchainPyProgram(o, sentenceRegexSplitter(o), 'langchain-text-splitters'),
  llamaindex: llamaindexSentenceSplitter,
  chonkie: (o) => chonkieSentences(o, ['# Chonkie has no paragraph chunker; closest: whole sentences up to the size.']),
};

import {
  chonkieRecursive,
  isTokenUnit,
  jsProgram,
  JsSplitter,
  jsString,
  langchainPyProgram,
  langchainPySplitter,
  llamaindexViaLangchain,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** The character strategy in each library; LangChain JS in compat mode is the same algorithm. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'langchain-js': 'langchain' },
  'langchain-js'(o) {
    const sp = new JsSplitter(o);
    sp.regexNote();
    sp.fields.unshift(`separator: ${jsString(o.separators[0] ?? '\n\n')}`);
    sp.keepSeparator().lengthFunction();
    return jsProgram(o, { cls: 'CharacterTextSplitter', splitter: sp, make: sp.make('CharacterTextSplitter') });
  },
  'langchain-python': (o) => langchainPyProgram(o, langchainPySplitter(o, { oneSeparator: true }), 'langchain-text-splitters' + (isTokenUnit(o.unit) ? ' tiktoken' : '')),
  llamaindex: (o) => llamaindexViaLangchain(o, true),
  chonkie: (o) => chonkieRecursive(o, o.separators.slice(0, 1)),
};

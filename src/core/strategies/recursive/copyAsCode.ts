import { LANGCHAIN_JS_LANGUAGES } from '../../languages';
import {
  chonkieRecursive,
  chonkieTsRecursive,
  isTokenUnit,
  jsList,
  jsProgram,
  JsSplitter,
  langchainPyProgram,
  langchainPySplitter,
  llamaindexViaLangchain,
  presetLanguage,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** The recursive strategy in each library; LangChain JS in compat mode is the same algorithm. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'langchain-js': 'langchain', 'chonkie-ts': 'chonkie' },
  'langchain-js'(o) {
    const sp = new JsSplitter(o);
    const language = presetLanguage(o);
    sp.keepSeparator().lengthFunction();
    if (language !== null && LANGCHAIN_JS_LANGUAGES.has(language)) {
      return jsProgram(o, { cls: 'RecursiveCharacterTextSplitter', splitter: sp, make: sp.make('RecursiveCharacterTextSplitter', language) });
    }
    if (language !== null) sp.notes.push(`// LangChain JS has no "${o.language}" preset: Chunkscope's separators for it are listed.`);
    sp.regexNote();
    sp.fields.unshift(`separators: ${jsList(o.separators)}`);
    return jsProgram(o, { cls: 'RecursiveCharacterTextSplitter', splitter: sp, make: sp.make('RecursiveCharacterTextSplitter') });
  },
  'langchain-python': (o) => langchainPyProgram(o, langchainPySplitter(o, { oneSeparator: false }), 'langchain-text-splitters' + (isTokenUnit(o.unit) ? ' tiktoken' : '')),
  llamaindex: (o) => llamaindexViaLangchain(o, false),
  chonkie: (o) => chonkieRecursive(o, o.separators),
  'chonkie-ts': (o) => chonkieTsRecursive(o, o.separators),
};

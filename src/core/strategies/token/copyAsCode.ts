import {
  chonkieTokenChunker,
  chonkieTsTokenChunker,
  jsProgram,
  JsSplitter,
  jsString,
  langchainPyTokenWindows,
  llamaindexTokenSplitter,
  llamaindexTsSplitter,
  type CopyAsCodeRecipes,
} from '../../export/programs';

/** Token windows in each library; LangChain JS's TokenTextSplitter in compat mode is the same algorithm. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'langchain-js': 'langchain', 'llamaindex-ts': 'llamaindex', 'chonkie-ts': 'chonkie' },
  'langchain-js'(o) {
    const sp = new JsSplitter(o);
    sp.notes.push('// TokenTextSplitter downloads its token ranks on first use.');
    sp.fields.unshift(`encodingName: ${jsString(o.unit)}`);
    return jsProgram(o, { cls: 'TokenTextSplitter', splitter: sp, make: sp.make('TokenTextSplitter'), tiktoken: false });
  },
  'langchain-python': langchainPyTokenWindows,
  llamaindex: llamaindexTokenSplitter,
  'llamaindex-ts': (o) =>
    llamaindexTsSplitter(o, 'TokenTextSplitter', ["// LlamaIndex's TokenTextSplitter packs words (\" \", then \"\\n\", then characters) up to the size and never applies its overlap."]),
  chonkie: chonkieTokenChunker,
  'chonkie-ts': chonkieTsTokenChunker,
};

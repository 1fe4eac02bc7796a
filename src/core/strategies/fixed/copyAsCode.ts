import {
  chonkieTokenChunker,
  chonkieTsFast,
  isTokenUnit,
  jsProgram,
  JsSplitter,
  jsString,
  langchainPyProgram,
  langchainPySplitter,
  langchainPyTokenWindows,
  llamaindexTokenSplitter,
  type CopyAsCodeRecipes,
} from '../../export/programs';
import { unitDescriptor } from '../../units';

/** Fixed windows: token windows where the unit is a tokenizer, else the closest character merging. */
export const recipes: CopyAsCodeRecipes = {
  exact: { 'chonkie-ts': 'chonkie' },
  'langchain-js'(o) {
    const sp = new JsSplitter(o);
    if (isTokenUnit(o.unit)) {
      sp.notes.push('// Fixed token windows: TokenTextSplitter steps the same way (it may cut a character between tokens).');
      sp.fields.unshift(`encodingName: ${jsString(o.unit)}`);
      return jsProgram(o, { cls: 'TokenTextSplitter', splitter: sp, make: sp.make('TokenTextSplitter') });
    }
    sp.notes.push('// LangChain JS has no fixed-window splitter; closest: merging single characters (or words) up to the size.');
    sp.fields.unshift(`separator: ${jsString(unitDescriptor(o.unit)?.segments ? ' ' : '')}`);
    sp.lengthFunction();
    return jsProgram(o, { cls: 'CharacterTextSplitter', splitter: sp, make: sp.make('CharacterTextSplitter') });
  },
  'langchain-python'(o) {
    if (isTokenUnit(o.unit)) return langchainPyTokenWindows(o);
    const part = langchainPySplitter({ ...o, separators: [unitDescriptor(o.unit)?.segments ? ' ' : ''], separatorsAreRegex: false, keepSeparator: 'none' }, { oneSeparator: true });
    part.notes.push('# LangChain has no fixed-window splitter; closest: merging single characters (or words) up to the size.');
    return langchainPyProgram(o, part, 'langchain-text-splitters');
  },
  llamaindex: llamaindexTokenSplitter,
  chonkie: chonkieTokenChunker,
  'chonkie-ts': chonkieTsFast,
};

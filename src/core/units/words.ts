import type { Unit } from '../types';

// A word is a maximal run of non-whitespace characters: cheap, language-neutral and predictable.
const WORD = /\S+/g;

export const wordsUnit: Unit = {
  name: 'words',
  count(text) {
    let n = 0;
    WORD.lastIndex = 0;
    while (WORD.exec(text) !== null) n++;
    return n;
  },
};

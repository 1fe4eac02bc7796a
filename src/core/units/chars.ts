import type { Unit } from '../types';

/** UTF-16 code units: the same length JavaScript, LangChain JS and Monaco use. */
export const charsUnit: Unit = {
  name: 'chars',
  count: (text) => text.length,
};

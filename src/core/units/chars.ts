import type { Unit } from '../types';
import type { SpanMeter } from './meter';
import type { UnitDescriptor } from './unit';

/** UTF-16 code units: the same length JavaScript, LangChain JS and Monaco use. */
export const charsUnit: Unit = {
  name: 'chars',
  count: (text) => text.length,
};

/** One for every source: a chars count needs no document, and one object keeps the merger's calls monomorphic. */
const length = (a: number, b: number): number => b - a;
const CHARS_METER: SpanMeter = { exactEstimates: true, linear: true, mostPerCodeUnit: 1, exact: length, estimate: length };

export const chars: UnitDescriptor<'chars'> = {
  name: 'chars',
  label: 'chars',
  longLabel: 'chars',
  title: 'Characters',
  noun: 'character',
  description: 'characters (UTF-16 code units)',
  additive: true,
  isLength: true,
  mostCodeUnitsPerCount: 1,
  sampleCount: 'chars',
  program: { pyTokenizer: 'list  # one token per character', chonkie: 'character', charsPer: 1 },
  load: () => Promise.resolve(charsUnit),
  meter: () => CHARS_METER,
};

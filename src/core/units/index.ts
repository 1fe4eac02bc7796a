import type { TokenEncodingName, Unit, UnitName } from '../types';
import { charsUnit } from './chars';
import { wordsUnit } from './words';
import { loadTiktokenUnit, TOKEN_ENCODINGS } from './tiktoken';

export const UNIT_NAMES: UnitName[] = ['chars', 'words', ...TOKEN_ENCODINGS];

export function isTokenEncoding(name: string): name is TokenEncodingName {
  return (TOKEN_ENCODINGS as string[]).includes(name);
}

/** Resolve a unit by name; token encodings load their ranks on first use. */
export async function getUnit(name: UnitName): Promise<Unit> {
  if (name === 'chars') return charsUnit;
  if (name === 'words') return wordsUnit;
  return loadTiktokenUnit(name);
}

export { charsUnit, wordsUnit };
export { TiktokenUnit, loadTiktokenUnit, TOKEN_ENCODINGS } from './tiktoken';

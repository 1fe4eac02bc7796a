import type { TokenEncodingName, Unit, UnitName } from '../types';
import { bytes } from './bytes';
import { chars } from './chars';
import { TOKEN_ENCODINGS, tokens } from './tokens';
import type { UnitDescriptor } from './unit';
import { words } from './wordsDescriptor';

/** The units, one line each (a token encoding is a line of its own through `tokens`), in the order the page and --help list them. */
export const UNITS: readonly UnitDescriptor[] = [chars, words, bytes, ...TOKEN_ENCODINGS.map((e) => tokens(e))];

export const UNIT_NAMES: UnitName[] = UNITS.map((u) => u.name);

const BY_NAME = new Map<string, UnitDescriptor>(UNITS.map((u) => [u.name, u]));

/** The descriptor of a unit name, or undefined for a name no unit has (a stale link, a crafted file). */
export function unitDescriptor(name: string): UnitDescriptor | undefined {
  return BY_NAME.get(name);
}

export function isTokenEncoding(name: string): name is TokenEncodingName {
  return unitDescriptor(name)?.tokenizer === name;
}

/** Resolve a unit by name; token encodings load their ranks on first use. */
export function getUnit(name: UnitName): Promise<Unit> {
  const found = BY_NAME.get(name);
  if (!found) return Promise.reject(new Error(`unknown unit "${name}"`));
  return found.load();
}

export type { UnitDescriptor } from './unit';
export { charsUnit } from './chars';
export { bytesUnit, utf8Length } from './bytes';
export { TOKEN_ENCODINGS } from './tokens';
// The implementations of words and tokens are not re-exported: the descriptors load them on first use (getUnit), and
// code that needs them imports ./words or ./tiktoken itself.

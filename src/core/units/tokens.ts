import type { TokenEncodingName } from '../types';
import { loadTiktokenUnit, TiktokenUnit } from './tiktoken';
import { tiktokenMeter } from './tiktokenMeter';
import type { UnitDescriptor } from './unit';

/** The unit of one tiktoken encoding: BPE tokens (see tiktoken.ts). */
export function tokens<Name extends TokenEncodingName>(encoding: Name): UnitDescriptor<Name> {
  return {
    name: encoding,
    label: 'tokens',
    longLabel: `tokens (${encoding})`,
    noun: 'token',
    description: `tokens of the ${encoding} encoding`,
    additive: false,
    isLength: false,
    tokenizer: encoding,
    sampleCount: 'tokens',
    load: () => loadTiktokenUnit(encoding),
    meter: (unit, source) => tiktokenMeter(unit as TiktokenUnit, source),
  };
}

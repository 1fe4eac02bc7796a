import type { TokenEncodingName } from '../types';
import type { TiktokenUnit } from './tiktoken';
import type { UnitDescriptor } from './unit';
import { loadOnce } from '../loadOnce';

/** The tiktoken encodings, in the order the page and --help list them (tiktoken.ts has a rank loader for each). */
export const TOKEN_ENCODINGS: readonly TokenEncodingName[] = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base', 'gpt2'];

/** The models that use each encoding, as the page's unit menu names them. */
const ENCODING_MODELS: Partial<Record<TokenEncodingName, string>> = {
  cl100k_base: 'GPT-4, GPT-3.5',
  o200k_base: 'GPT-4o',
  p50k_base: 'Codex',
  r50k_base: 'GPT-3',
};

/** The unit of one tiktoken encoding: BPE tokens (see tiktoken.ts, loaded on first use with its BPE code). */
export function tokens<Name extends TokenEncodingName>(encoding: Name): UnitDescriptor<Name> {
  return {
    name: encoding,
    label: 'tokens',
    longLabel: `tokens (${encoding})`,
    title: ENCODING_MODELS[encoding] ? `Tokens · ${encoding} (${ENCODING_MODELS[encoding]})` : `Tokens · ${encoding}`,
    noun: 'token',
    description: `tokens of the ${encoding} encoding`,
    additive: false,
    isLength: false,
    tokenizer: encoding,
    sampleCount: 'tokens',
    load: loadOnce(() => import('./tiktoken').then((m) => m.loadTiktokenUnit(encoding))),
    meter: (unit, source) => (unit as TiktokenUnit).spanMeter(source),
  };
}

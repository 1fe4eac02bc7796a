import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cliArgumentsFor, cliCommandFor, shellQuote } from '../core/export/cliCommand';
import { optionsKey } from '../core/chunk';
import { validateOptions } from '../core/options';
import { LANGUAGE_NAMES } from '../core/languages';
import { ENGINE_OPTIONS, type OptionSpec } from '../core/optionTable';
import type { ChunkOptions, ResolvedOptions } from '../core/types';
import { joinNegativeValues, optionsFromFlags, parseArgsOptions, takeSwitchValues } from './flags';

/** What the CLI resolves from `args` (the words after `chunkscope chunk FILE`), by its own parser. */
function parsedByCli(args: string[]): ResolvedOptions {
  const switches = takeSwitchValues(args);
  const config = parseArgsOptions();
  const { values } = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  return validateOptions(optionsFromFlags(values as Record<string, unknown>, switches.values));
}

const PER_DOCUMENT = new Set(['path', 'documentId', 'pageStarts']);

/** A value for a row, from its kind and its control's range (as src/state/urlCodec.test.ts draws them). */
function rowValue(spec: OptionSpec): fc.Arbitrary<unknown> {
  if (spec.name === 'language') return fc.constantFrom(...LANGUAGE_NAMES);
  const awkward = fc.constantFrom('\n\n', '\n', ' ', '', "it's", '-', '--x', '\\', '\t|\r', '$HOME `x` "q"', '日本\u0001', '. ');
  switch (spec.kind) {
    case 'integer':
      return fc.integer({ min: spec.control?.min ?? 0, max: spec.control?.max ?? 5000 });
    case 'number':
      return fc.double({ min: 0, max: 2, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'choice':
      return fc.constantFrom(...spec.choices!);
    case 'strings':
      return fc.array(fc.oneof(awkward, fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 5 });
    case 'integers':
      return fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 3 });
    case 'template':
      return fc.oneof(fc.constant(true), fc.constantFrom('{path}\n\n', "{title} — it's {file}", '\\{path}\t'));
    default:
      return fc.oneof(fc.constantFrom('en', 'de', 'builtin', 'Xenova/all-MiniLM-L6-v2'), fc.string({ minLength: 1, maxLength: 8 }));
  }
}

/** Valid resolved options: any subset of the rows set to a drawn value (invalid combinations dropped). */
const anyOptions: fc.Arbitrary<ResolvedOptions> = fc
  .record(
    Object.fromEntries(ENGINE_OPTIONS.filter((o) => o.kind !== 'offsets' && !PER_DOCUMENT.has(o.name)).map((spec) => [spec.name, rowValue(spec)])),
    { requiredKeys: [] },
  )
  .map((given) => {
    try {
      return validateOptions(given as ChunkOptions);
    } catch {
      return null;
    }
  })
  .filter((o): o is ResolvedOptions => o !== null);

describe('cliCommandFor', () => {
  it('gives arguments the CLI parses back to the same options key', () => {
    fc.assert(
      fc.property(anyOptions, (options) => {
        const args = cliArgumentsFor(options, { command: 'chunk' }).slice(2);
        const back = parsedByCli(args);
        expect(optionsKey(back)).toBe(optionsKey(options));
      }),
      { numRuns: 250, seed: 27 },
    );
  });

  it('writes only what differs from the defaults', () => {
    expect(cliCommandFor(validateOptions({}), { command: 'corpus' })).toBe('chunkscope corpus docs/ --out chunks/');
    expect(cliCommandFor(validateOptions({ strategy: 'markdown', size: 300, overlap: 0 }), { command: 'corpus', to: 'lancedb:index/' })).toBe(
      'chunkscope corpus docs/ --out chunks/ --to lancedb:index/ --strategy markdown --size 300',
    );
    expect(cliCommandFor(validateOptions({ separators: ['\n\n', "it's"] }), { command: 'chunk', input: 'a b.txt' })).toBe(
      `chunkscope chunk 'a b.txt' --separators '\\n\\n' --separators 'it'\\''s'`,
    );
  });

  it('quotes words so that a POSIX shell passes them unchanged', () => {
    const words = ['plain', "it's", '$HOME', '`x`', '"q"', 'a b', '\\n', '', '日本', '!x', '*'];
    const echoed = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(echoed.split('\0').slice(0, -1)).toEqual(words);
  });
});

import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_OPTIONS, type OptionSpec } from '../core/optionTable';
import { validateOptions } from '../core/options';
import { optionsFromFlags, parseArgsOptions, takeSwitchValues, usage } from './flags';
import { main } from './main';

function parse(argv: string[]) {
  const switches = takeSwitchValues(argv);
  const { values } = parseArgs({ args: switches.rest, allowPositionals: true, strict: true, options: parseArgsOptions() });
  return optionsFromFlags(values as Record<string, unknown>, switches.values);
}

const FLAGGED = ENGINE_OPTIONS.filter((o) => o.kind !== 'offsets');

describe('CLI flags from the option table', () => {
  it('has a flag for every chunking option, named in kebab-case after it, and lists each in --help', () => {
    const help = usage();
    for (const spec of FLAGGED) {
      expect(spec.flag).toBe(spec.name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));
      expect(help).toContain(`--${spec.flag}`);
    }
  });

  // One value per kind that the flag can carry; written as a user would type it.
  const valueFor = (spec: OptionSpec): fc.Arbitrary<[string[], unknown]> => {
    const flag = `--${spec.flag}`;
    switch (spec.kind) {
      case 'integer':
        return fc.integer({ min: 0, max: 100_000 }).map((n) => [[flag, String(n)], n]);
      case 'number':
        return fc.double({ min: 0, max: 100, noNaN: true }).map((n) => [[flag, String(n)], n]);
      case 'boolean':
        return fc.boolean().map((b) => [b ? [flag] : [`${flag}=false`], b]);
      case 'template':
        return fc.constantFrom('{path}', '[{title}] ', '{file}: {path}').map((t) => [[`${flag}=${t}`], t]);
      case 'strings':
        return fc.array(fc.constantFrom('\\n\\n', '\\n', ' ', '. '), { minLength: 1, maxLength: 3 }).map((list) => [
          list.flatMap((s) => [flag, s]),
          list.map((s) => s.replace(/\\n/g, '\n')),
        ]);
      case 'integers':
        return fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 2, maxLength: 4 }).map((list) => [[flag, list.join(',')], list]);
      case 'choice':
        return fc.constantFrom(...spec.choices!).map((c) => [[flag, c], c]);
      default:
        return fc.constantFrom('en', 'doc-1', 'a/b.py').map((s) => [[flag, s], s]);
    }
  };

  it('property: any flag typed with a value of its kind reaches chunk() options under the option name', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FLAGGED).chain((spec) => valueFor(spec).map((v) => [spec, v] as const)), ([spec, [argv, expected]]) => {
        const options = parse(argv) as Record<string, unknown>;
        expect(options[spec.name]).toEqual(expected);
        expect(Object.keys(options)).toEqual([spec.name]);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the older spellings: --separator, --regex, --threshold, --keep-headers, --each-line, --header-template', () => {
    expect(parse(['--separator', '\\n', '--separator', ' ', '--regex'])).toEqual({ separators: ['\n', ' '], separatorsAreRegex: true });
    expect(parse(['--threshold', '0.3'])).toEqual({ amount: 0.3 });
    expect(parse(['--keep-headers', '--each-line'])).toEqual({ stripHeaders: false, returnEachLine: true });
    expect(parse(['--header-template', '[{path}]\\n'])).toEqual({ headers: '[{path}]\n' });
    expect(parse(['--headers'])).toEqual({ headers: true });
  });

  it('names the flag as typed in a bad value', () => {
    expect(() => parse(['--threshold', 'high'])).toThrow('--threshold must be a number (got "high")');
    expect(() => parse(['--heading-depth', 'two'])).toThrow('--heading-depth must be a whole number');
    expect(() => parse(['--rows-as-text=perhaps'])).toThrow('--rows-as-text must be true or false (got "perhaps")');
  });

  it('validates what it parses the same way as the library', () => {
    expect(validateOptions(parse(['--strategy', 'markdown', '--strip-headers=false', '--compat', 'langchain'])).stripHeaders).toBe(false);
    expect(validateOptions(parse(['--parent-size', '2000'])).retrieval).toBe('parent-child');
  });
});

describe('chunkscope chunk --strategy code --language <grammar>', () => {
  const run = async (argv: string[], stdin: string) => {
    let out = '';
    let err = '';
    const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new TextEncoder().encode(stdin) });
    return { code, out, err };
  };
  const source = 'function a() {\n  return 1;\n}\n\nclass B {\n  m() { return 2; }\n}\n';

  it.each(['javascript', 'typescript', 'tsx', 'js', 'ts'])('splits standard input with an explicit %s grammar', async (language) => {
    const r = await run(['chunk', '-', '--strategy', 'code', '--language', language, '--size', '60'], source);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = JSON.parse(r.out) as { text: string; start: number; end: number; metadata: { language: string } }[];
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.text).toBe(source.slice(c.start, c.end));
    expect(chunks[0]!.metadata.language).toMatch(/^(javascript|typescript|tsx)$/);
  });

  it('refuses an unknown grammar in one line naming the known ones', async () => {
    const r = await run(['chunk', '-', '--strategy', 'code', '--language', 'cobol'], source);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('unknown code language "cobol" (expected one of python, javascript');
  });
});

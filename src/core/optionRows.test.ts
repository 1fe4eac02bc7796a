import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_OPTION_ROWS, type OptionRow } from './optionRows';
import { ChunkOptionsError } from './optionError';
import { ENGINE_OPTIONS, plainResolve, type OptionSpec, type ResolveContext } from './optionTable';
import { validateOptions } from './options';

/** resolve() as validateOptions calls it, for one option given (or not) on its own. */
function resolveAlone(spec: OptionSpec, value: unknown): unknown {
  const given = value === undefined ? {} : { [spec.name]: value };
  const has = (key: string) => (given as Record<string, unknown>)[key] !== undefined;
  return spec.resolve!(value, { given, has } as ResolveContext);
}

const row = (extra: Partial<OptionSpec>): OptionSpec => ({ name: 'size', flag: 'x', kind: 'integer', default: 7, group: 'structure', help: 'h', ...extra }) as OptionSpec;

describe('the option rows', () => {
  it('declare each chunking option once, in the table order validateOptions runs', () => {
    const names = ENGINE_OPTION_ROWS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(ENGINE_OPTIONS.map((o) => o.name)).toEqual(names);
  });

  it("have defaults of their own kind (a choice's default is one of its choices)", () => {
    for (const r of ENGINE_OPTION_ROWS as readonly OptionRow[]) {
      if (r.default === null) continue;
      if (r.kind === 'choice' && r.choices) expect(r.choices, r.name).toContain(r.default);
      if (r.kind === 'integer') expect(Number.isInteger(r.default), r.name).toBe(true);
      if (r.kind === 'boolean') expect(typeof r.default, r.name).toBe('boolean');
      if (r.kind === 'strings') expect(Array.isArray(r.default), r.name).toBe(true);
    }
  });

  it('give the page a control with a label, and the CLI a kebab-case flag', () => {
    for (const r of ENGINE_OPTION_ROWS as readonly OptionRow[]) {
      expect(r.flag, r.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      if (!r.document) expect(r.control?.label, r.name).toBeTruthy();
    }
  });

  it('validate a plain boolean row by its kind (rowsAsText has no check of its own)', () => {
    expect(validateOptions({ strategy: 'markdown', rowsAsText: 'true' as never }).rowsAsText).toBe(true);
    expect(() => validateOptions({ strategy: 'markdown', rowsAsText: 'yes' as never })).toThrow('rowsAsText must be true or false (got "yes")');
  });
});

describe("a row without its own check gets its kind's (plainResolve)", () => {
  it('integer: digit strings accepted, the row min and max enforced, the default when absent', () => {
    const spec = { ...row({ min: 1, max: 9 }) };
    spec.resolve = plainResolve(spec);
    expect(resolveAlone(spec, undefined)).toBe(7);
    expect(resolveAlone(spec, '4')).toBe(4);
    expect(() => resolveAlone(spec, 10)).toThrow('size must be between 1 and 9 (got 10)');
    expect(() => resolveAlone(spec, 2.5)).toThrow(ChunkOptionsError);
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 100 }), (n) => {
        const ok = n >= 1 && n <= 9;
        if (ok) expect(resolveAlone(spec, n)).toBe(n);
        else expect(() => resolveAlone(spec, n)).toThrow(ChunkOptionsError);
      }),
    );
  });

  it('number, choice, string: the kind is checked with a one-line error naming the option', () => {
    const number = row({ kind: 'number', min: 0 });
    number.resolve = plainResolve(number);
    expect(resolveAlone(number, '0.5')).toBe(0.5);
    expect(() => resolveAlone(number, -1)).toThrow('size must be at least 0 (got -1)');
    const choice = row({ kind: 'choice', choices: ['a', 'b'], default: 'a' });
    choice.resolve = plainResolve(choice);
    expect(resolveAlone(choice, 'b')).toBe('b');
    expect(() => resolveAlone(choice, 'c')).toThrow('unknown size "c" (expected one of a, b)');
    const text = row({ kind: 'string', default: null });
    text.resolve = plainResolve(text);
    expect(resolveAlone(text, undefined)).toBe(null);
    expect(() => resolveAlone(text, 3)).toThrow('size must be a string (got 3)');
  });

  it('a kind with no plain check (a list) is refused when the table is built, not at the first use', () => {
    expect(() => plainResolve(row({ kind: 'strings', default: [] }))).toThrow(/needs its own resolve/);
  });
});

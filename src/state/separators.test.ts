import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatRegexSeparator, formatSeparators, parseSeparators } from './separators';

describe('separators editor text', () => {
  it('shows escapes a person can read and type', () => {
    expect(formatSeparators(['\n\n', '\n', ' ', ''])).toBe('\\n\\n\n\\n\n\\s\n""');
    expect(parseSeparators('\\n\\n\n\\n\n.')).toEqual(['\n\n', '\n', '.']);
    expect(parseSeparators('\\t\n\\r\\n\n""\n\\s')).toEqual(['\t', '\r\n', '', ' ']);
  });

  it('ignores blank lines', () => {
    expect(parseSeparators('a\n\n\nb\n')).toEqual(['a', 'b']);
  });

  it('round-trips any list of separators', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 8 }), (list) => {
        expect(parseSeparators(formatSeparators(list))).toEqual(list);
      }),
    );
  });

  it('takes regular-expression lines as typed: the regex engine reads their escapes', () => {
    expect(parseSeparators('[.!?]\\s+\n\\n\\n\n""', true)).toEqual(['[.!?]\\s+', '\\n\\n', '']);
    expect(formatSeparators(['[.!?]\\s+', '\\d+\\.'], true)).toBe('[.!?]\\s+\n\\d+\\.');
  });

  it('shows a regex separator so that its line means the same pattern', () => {
    const probes = ['a\n\nb', 'x\r\ny', '\t \t', 'one. two', '  ', 'p q'];
    fc.assert(
      fc.property(fc.constantFrom('\n\n', '\n', ' ', '\t', '\r\n', '[.!?] +', '\\s+'), (source) => {
        const [line] = parseSeparators(formatRegexSeparator(source), true);
        for (const text of probes) expect(text.split(new RegExp(line!, 'u'))).toEqual(text.split(new RegExp(source, 'u')));
      }),
    );
  });
});

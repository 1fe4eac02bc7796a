import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatSeparators, parseSeparators } from './separators';

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
});

/**
 * The separators editor shows one separator per line with visible escapes: \n, \r, \t, \\, \s for a space in a
 * whitespace-only separator, and "" for the empty separator (split into characters).
 *
 * When separators are regular expressions a line is the pattern's source as typed: the regex engine reads \n, \t,
 * \s and \\ itself, so the editor must not (with literal escapes, `[.!?]\s+` would become `[.!?] +`). Only control
 * characters are shown escaped (a newline cannot sit in one line), and "" still stands for the empty separator.
 */

function formatSeparator(separator: string): string {
  if (separator === '') return '""';
  let out = separator.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (separator.trim() === '') out = out.replace(/ /g, '\\s');
  return out;
}

function parseSeparator(line: string): string {
  if (line === '""') return '';
  return line.replace(/\\([nrts\\])/g, (_m, c: string) => {
    switch (c) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 's':
        return ' ';
      default:
        return '\\';
    }
  });
}

/** A regex separator's source for one line of the editor; the regex engine reads the escapes back identically. */
export function formatRegexSeparator(source: string): string {
  if (source === '') return '""';
  let out = source.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  // A space-only line would be invisible; \x20 is the same pattern.
  if (source.trim() === '') out = out.replace(/ /g, '\\x20');
  return out;
}

export function formatSeparators(separators: readonly string[], regex = false): string {
  return separators.map(regex ? formatRegexSeparator : formatSeparator).join('\n');
}

/** Empty lines are ignored (write "" for the empty separator). */
export function parseSeparators(text: string, regex = false): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '')
    .map((line) => (regex ? (line === '""' ? '' : line) : parseSeparator(line)));
}

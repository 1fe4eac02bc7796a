/**
 * The separators editor shows one separator per line with visible escapes: \n, \r, \t, \\, \s for a space in a
 * whitespace-only separator, and "" for the empty separator (split into characters).
 */

export function formatSeparator(separator: string): string {
  if (separator === '') return '""';
  let out = separator.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (separator.trim() === '') out = out.replace(/ /g, '\\s');
  return out;
}

export function parseSeparator(line: string): string {
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

export function formatSeparators(separators: readonly string[]): string {
  return separators.map(formatSeparator).join('\n');
}

/** Empty lines are ignored (write "" for the empty separator). */
export function parseSeparators(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '')
    .map(parseSeparator);
}

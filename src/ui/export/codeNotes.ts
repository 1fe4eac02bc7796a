/**
 * The program's leading comments that explain what differs (not install lines or the summary), one note per
 * sentence group: a comment wrapped over several lines is joined back into one note.
 */
export function noteLines(code: string): string[] {
  const notes: string[] = [];
  let open = false; // the last note's sentence continues on the next comment line
  for (const line of code.split('\n')) {
    const m = /^\s*(?:#|\/\/)\s?(.*)$/.exec(line);
    if (!m) {
      if (line.trim() === '' || line.startsWith('#!')) continue;
      break;
    }
    const text = m[1]!.trim();
    if (text === '' || /^(pip|npm) install\b/.test(text) || text.startsWith('Chunkscope configuration:') || text.startsWith('Usage:')) {
      open = false;
      continue;
    }
    if (open) notes[notes.length - 1] += ' ' + text;
    else notes.push(text);
    open = !/[.!?:]$/.test(text);
  }
  return notes;
}

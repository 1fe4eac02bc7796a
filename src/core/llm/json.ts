/**
 * Tolerant JSON from model answers: the first JSON value (object or array) in the text, inside a code fence or not,
 * with prose around it. Models asked for JSON often add "Here is the JSON:" or fence it; that is still an answer.
 */

/** The first complete JSON object or array in `text`, parsed; undefined when there is none. */
export function firstJsonValue(text: string): unknown {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced) {
    const inside = scanFirst(fenced[1]!);
    if (inside !== undefined) return inside;
  }
  return scanFirst(text);
}

function scanFirst(text: string): unknown {
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c !== '{' && c !== '[') continue;
    const end = matchingEnd(text, at);
    if (end < 0) continue;
    try {
      return JSON.parse(text.slice(at, end + 1));
    } catch {
      // not JSON after all ("[see note]"): look further
    }
  }
  return undefined;
}

/** The index of the bracket closing the one at `start`, skipping strings; -1 when it never closes. */
function matchingEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

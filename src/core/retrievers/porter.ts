/**
 * Martin Porter's stemming algorithm (1980, "An algorithm for suffix stripping"), steps 1a to 5b, for lower-case
 * English words; words of one or two letters are returned as they are. Small enough to keep here instead of a
 * dependency.
 */

function isConsonant(w: string, i: number): boolean {
  const c = w[i]!;
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** m: the number of VC sequences in w[0, end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replace `suffix` by `by` when the stem before it has measure > `min`; returns the word, or null when no suffix matched. */
function rule(w: string, suffix: string, by: string, min: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const stem = w.length - suffix.length;
  return measure(w, stem) > min ? w.slice(0, stem) + by : w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: [string, string][] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

function firstRule(w: string, rules: [string, string][], min: number): string {
  // The longest matching suffix decides (the lists have no suffix that ends another one matching first).
  let best: [string, string] | null = null;
  for (const r of rules) if (w.endsWith(r[0]) && (!best || r[0].length > best[0].length)) best = r;
  return best ? (rule(w, best[0], best[1], min) ?? w) : w;
}

export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  // Step 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    /* stays */
  } else if (w.endsWith('s')) w = w.slice(0, -1);
  // Step 1b
  let extra = false;
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (endsDoubleConsonant(w, w.length) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && endsCvc(w, w.length)) w += 'e';
  }
  // Step 1c
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i';
  // Steps 2 and 3
  w = firstRule(w, STEP2, 0);
  w = firstRule(w, STEP3, 0);
  // Step 4
  let longest = '';
  for (const s of STEP4) if (w.endsWith(s) && s.length > longest.length) longest = s;
  if (longest) {
    const stem = w.length - longest.length;
    if (measure(w, stem) > 1 && (longest !== 'ion' || /[st]$/.test(w.slice(0, stem)))) w = w.slice(0, stem);
  } else if (w.endsWith('sion') || w.endsWith('tion')) {
    /* covered by 'ion' */
  }
  // Step 5a
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b
  if (measure(w, w.length) > 1 && endsDoubleConsonant(w, w.length) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

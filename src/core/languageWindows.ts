import { franc } from 'franc-min';

/**
 * The document's language, window by window, for the stats panel's per-language figures: franc-min (trigram
 * profiles of 82 languages shipped in the package, nothing fetched) on windows of whole paragraphs. Found once per
 * document in the chunk worker (10 MiB costs a few hundred ms) and sent to the page in this compact form.
 */

/** A window is whole paragraphs, at least this long (a heading line joins the paragraph after it). */
const WINDOW_CHARS = 40;
/** At most this many windows are detected per document (evenly spread); the others take the nearest one's. */
const MAX_DETECTED = 80;
/** franc reads this much of a window (its trigram profile is stable by then). */
const DETECT_CHARS = 600;
/** The paragraph scan hands back control after this many paragraph breaks (a step of a few ms at most). */
const SCAN_STEP = 4096;

export interface LanguageWindows {
  /** Start offset of each window (ascending, first 0). */
  starts: Int32Array;
  /** The distinct ISO 639-3 codes ('und': too short or unknown), in order of first appearance. */
  codes: string[];
  /** Per window, its language as an index into `codes` (at most MAX_DETECTED distinct codes: a byte each). */
  index: Uint8Array;
}

/**
 * Detection in steps: the generator yields between steps (a slice of the paragraph scan, one franc call) so that a
 * caller can stop or let messages in; its return value is the windows.
 */
export function* languageWindowSteps(text: string): Generator<void, LanguageWindows, void> {
  const starts: number[] = [0];
  const paragraph = /\n\s*\n/g;
  let windowStart = 0;
  let breaks = 0;
  for (let m = paragraph.exec(text); m; m = paragraph.exec(text)) {
    const end = m.index + m[0].length;
    if (end - windowStart >= WINDOW_CHARS && end < text.length) {
      starts.push(end);
      windowStart = end;
    }
    if (++breaks % SCAN_STEP === 0) yield;
  }
  const n = starts.length;
  const step = Math.max(1, n / MAX_DETECTED);
  // Sampled window indices (ascending, first 0) and their codes' indices into `codes`.
  const sampled: number[] = [];
  const sampledCode: number[] = [];
  const codes: string[] = [];
  for (let k = 0; k < n; k += step) {
    const i = Math.floor(k);
    const end = i + 1 < n ? starts[i + 1]! : text.length;
    const code = franc(text.slice(starts[i]!, Math.min(end, starts[i]! + DETECT_CHARS)), { minLength: 20 });
    let c = codes.indexOf(code);
    if (c < 0) c = codes.push(code) - 1;
    sampled.push(i);
    sampledCode.push(c);
    yield;
  }
  // Every window takes the nearest sampled one's language (the earlier on a tie), walking both lists once.
  const index = new Uint8Array(n);
  let p = 0;
  for (let i = 0; i < n; i++) {
    while (p + 1 < sampled.length && sampled[p + 1]! <= i) p++;
    const after = p + 1 < sampled.length && sampled[p + 1]! - i < i - sampled[p]! ? p + 1 : p;
    index[i] = sampledCode[after]!;
  }
  return { starts: Int32Array.from(starts), codes, index };
}

/** Detection in one go (tests, Node). */
export function detectLanguageWindows(text: string): LanguageWindows {
  const steps = languageWindowSteps(text);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

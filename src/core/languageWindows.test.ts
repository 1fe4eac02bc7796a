import { franc } from 'franc-min';
import { describe, expect, it } from 'vitest';
import { multilingual } from '../ui/samples/multilingual';
import { detectLanguageWindows, languageWindowSteps } from './languageWindows';

/** The detector as it was on the main thread (nearest sample found by a scan of every sample): the oracle. */
function detectByScan(text: string): { starts: number[]; languages: string[] } {
  const starts: number[] = [0];
  const paragraph = /\n\s*\n/g;
  let windowStart = 0;
  for (let m = paragraph.exec(text); m; m = paragraph.exec(text)) {
    const end = m.index + m[0].length;
    if (end - windowStart >= 40 && end < text.length) {
      starts.push(end);
      windowStart = end;
    }
  }
  const n = starts.length;
  const step = Math.max(1, n / 80);
  const detected = new Map<number, string>();
  for (let k = 0; k < n; k += step) {
    const i = Math.floor(k);
    const end = i + 1 < n ? starts[i + 1]! : text.length;
    detected.set(i, franc(text.slice(starts[i]!, Math.min(end, starts[i]! + 600)), { minLength: 20 }));
  }
  const sampled = [...detected.keys()];
  const languages = starts.map((_, i) => {
    let best = sampled[0]!;
    for (const j of sampled) if (Math.abs(j - i) < Math.abs(best - i)) best = j;
    return detected.get(best)!;
  });
  return { starts, languages };
}

function expanded(text: string) {
  const w = detectLanguageWindows(text);
  return { starts: Array.from(w.starts), languages: Array.from(w.index, (c) => w.codes[c]!) };
}

describe('language windows', () => {
  it('are the scan’s windows and languages, every window detected (a short document)', () => {
    expect(expanded(multilingual)).toEqual(detectByScan(multilingual));
    const w = detectLanguageWindows(multilingual);
    expect(new Set(w.codes).size).toBe(w.codes.length);
    expect(w.codes).toEqual(expect.arrayContaining(['eng', 'fra', 'deu', 'jpn']));
  });

  it('take the nearest sample’s language (the earlier on a tie) when only some windows are detected', () => {
    // 9 languages' paragraphs repeated: 400+ windows, 80 sampled, every neighbour a different language.
    const paragraphs = multilingual.split(/\n\s*\n/).filter((p) => p.length >= 40);
    const text = Array.from({ length: 50 }, () => paragraphs.join('\n\n')).join('\n\n');
    const oracle = detectByScan(text);
    expect(oracle.starts.length).toBeGreaterThan(400);
    expect(expanded(text)).toEqual(oracle);
  });

  it('hand back control between steps (the worker lets messages in between them)', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i}: the ferry leaves at seven, whatever the weather.`).join('\n\n');
    const steps = languageWindowSteps(text);
    let yields = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields++;
    // A step per 4096 paragraph breaks and one per franc call.
    expect(yields).toBe(Math.floor(19_999 / 4096) + 80);
    expect(r.value.codes).toEqual(['eng']);
    expect(r.value.starts).toHaveLength(20_000);
  });
});

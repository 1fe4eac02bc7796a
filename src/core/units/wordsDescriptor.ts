import type { SpanMeter } from './meter';
import type { UnitDescriptor } from './unit';
import { loadOnce } from '../loadOnce';

/** What the descriptor counts with: ./words.ts hands it over when it is loaded (on the first getUnit('words')). */
interface WordsImplementation {
  wordRanges(text: string): { starts: ArrayLike<number>; ends: ArrayLike<number> };
  wordsMeter(source: string): SpanMeter;
}

let provided: WordsImplementation | null = null;

export function provideWords(words: WordsImplementation): void {
  provided = words;
}

function implementation(): WordsImplementation {
  if (!provided) throw new Error("the words unit is not loaded yet (await getUnit('words') first)");
  return provided;
}

/** Words (Intl.Segmenter's word-like segments): the descriptor; the segmenter and its span counter are ./words.ts,
 * loaded on first use. */
export const words: UnitDescriptor<'words'> = {
  name: 'words',
  label: 'words',
  longLabel: 'words',
  title: 'Words',
  noun: 'word',
  description: 'words',
  additive: false,
  isLength: false,
  segments: (text) => implementation().wordRanges(text),
  program: {
    js: {
      setup: [
        "// Words as Chunkscope counts them: Intl.Segmenter's word-like segments (any language) and emoji.",
        "const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });",
        'const countWords = (t) => [...wordSegmenter.segment(t)].filter((s) => s.isWordLike || /\\p{Extended_Pictographic}/u.test(s.segment)).length;',
      ],
      count: 'countWords',
    },
    py: { count: 'lambda t: len(t.split())', note: "# Words here are runs of non-whitespace; Chunkscope counts Intl.Segmenter's words (CJK and Thai differ)." },
    pyTokenizer: 'str.split  # one token per word',
    chonkie: 'word',
    charsPer: 6,
  },
  load: loadOnce(() => import('./words').then((m) => m.wordsUnit)),
  meter: (_, source) => implementation().wordsMeter(source),
};

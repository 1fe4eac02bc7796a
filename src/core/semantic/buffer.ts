import { isWhitespaceCode } from '../measure';
import type { Range } from '../types';

/**
 * How a sentence's window (the sentence with `bufferSize` neighbours on each side) becomes the string to embed:
 * - 'space': the sentences joined with " " (LangChain SemanticChunker's combine_sentences);
 * - 'concat': the sentences concatenated with nothing between them (LlamaIndex SemanticSplitterNodeParser; its
 *   sentences keep their trailing whitespace, so this is the source text of the window);
 * - 'source': the source text from the window's first sentence to its last (native: the real text, line breaks
 *   included, whatever the sentences are).
 */
export type WindowJoin = 'space' | 'concat' | 'source';

export interface EmbeddingInputs {
  /** The strings to embed, one per sentence whose window has text; never empty or whitespace-only. */
  texts: string[];
  /** The source range each text was made from (its window's first sentence start to last sentence end). */
  ranges: Range[];
  /** For each sentence, the index in `texts` of its window's string, or -1 when the window is blank. */
  textOfSentence: Int32Array;
}

export function embeddingInputs(
  source: string,
  sentences: readonly Range[],
  bufferSize: number,
  join: WindowJoin,
): EmbeddingInputs {
  const n = sentences.length;
  const b = Math.max(0, Math.floor(bufferSize));
  const texts: string[] = [];
  const ranges: Range[] = [];
  const textOfSentence = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const first = Math.max(0, i - b);
    const last = Math.min(n - 1, i + b);
    let text: string;
    if (join === 'source') {
      text = source.slice(sentences[first]!.start, sentences[last]!.end);
    } else {
      const parts: string[] = [];
      for (let k = first; k <= last; k++) parts.push(source.slice(sentences[k]!.start, sentences[k]!.end));
      text = parts.join(join === 'space' ? ' ' : '');
    }
    if (isBlank(text)) continue; // an empty string embeds to NaN: its gaps get no distance
    textOfSentence[i] = texts.length;
    texts.push(text);
    ranges.push({ start: sentences[first]!.start, end: sentences[last]!.end });
  }
  return { texts, ranges, textOfSentence };
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isWhitespaceCode(text.charCodeAt(i))) return false;
  return true;
}

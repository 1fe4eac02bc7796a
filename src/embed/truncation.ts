import type { Range } from '../core/types';

/**
 * Embedding models read at most a fixed number of tokens and silently drop the rest: a chunk longer than that is
 * indexed by its beginning only. `truncation` says how many tokens a chunk is for the model and where in the chunk
 * the model stops reading, so the page can flag the chunk and shade the part that is never embedded.
 */

export interface Truncation {
  /** The chunk's length for the model: its tokens plus the special tokens the model adds. */
  tokens: number;
  /**
   * UTF-16 offset within the chunk of the first token the model does not read (the start of the shaded part), or
   * null when the whole chunk fits. A character split over several tokens (byte-level tokenizers) of which only some
   * are read counts as not read: the offset is the start of that character's first token.
   */
  truncatedAt: number | null;
}

/**
 * @param chunkText the chunk's text (used to check the offsets)
 * @param tokens the chunk's tokens in the model's tokenizer, without special tokens, with UTF-16 offsets within the
 *   chunk, in text order (`Embedder.tokenize(chunkText)`)
 * @param maxTokens the longest input the model reads, special tokens included (Infinity: never truncates)
 * @param specialTokens tokens the model adds around every input ([CLS] and [SEP] for BERT-style models: 2; the
 *   built-in static model: 0). They take room from `maxTokens`.
 */
export function truncation(chunkText: string, tokens: readonly Range[], maxTokens: number, specialTokens = 0): Truncation {
  if (!(maxTokens > 0)) throw new RangeError(`maxTokens must be a positive number, got ${maxTokens}`);
  if (!Number.isInteger(specialTokens) || specialTokens < 0) {
    throw new RangeError(`specialTokens must be a whole number >= 0, got ${specialTokens}`);
  }
  const last = tokens[tokens.length - 1];
  if (last && last.end > chunkText.length) {
    throw new RangeError(`token offsets run past the chunk (${last.end} > ${chunkText.length}): give offsets within the chunk`);
  }
  const total = tokens.length + specialTokens;
  // Room left for the chunk's own tokens once the special tokens are placed (never negative).
  const room = Math.max(0, maxTokens - specialTokens);
  if (tokens.length <= room) return { tokens: total, truncatedAt: null };
  const firstUnread = tokens[room]!;
  // Tokens of one character share its span; if the cut falls inside such a run, the character is not (fully) read.
  let at = firstUnread.start;
  for (let i = room - 1; i >= 0 && tokens[i]!.end > at; i--) at = Math.min(at, tokens[i]!.start);
  return { tokens: total, truncatedAt: at };
}

import type { CompatProfile } from '../../registry';
import { TOKEN_ENCODINGS } from '../../units';

/**
 * What the `chonkie` compat mode changes in each strategy's options (main-thread safe: no splitter here). The
 * defaults are @chonkiejs/core 0.0.11's own, applied when the user gives no size or overlap.
 */
export const CHONKIE_VERSION = '0.0.11';
export const CHONKIE_PACKAGE = '@chonkiejs/core';

const UNITS: CompatProfile['units'] = {
  allowed: ['chars', ...TOKEN_ENCODINGS],
  reason: "Chonkie's tokenizers are its character tokenizer (unit chars) or a token encoding (cl100k_base, o200k_base, ...)",
};

/** RecursiveChunker: chunkSize 512, its own rules (no separators, no overlap). */
export const CHONKIE_RECURSIVE_PROFILE: CompatProfile = {
  defaults: { size: 512, overlap: 0, unit: 'chars' },
  refuses: {
    overlap: "Chonkie's RecursiveChunker has no overlap (leave overlap out, or turn compat mode off)",
    separators: "Chonkie's RecursiveChunker uses its own rules (paragraphs, sentences, pauses, words, tokens): leave separators out in compat mode",
    keepSeparator: "Chonkie's RecursiveChunker keeps delimiters at the end of a piece: leave keepSeparator out in compat mode",
    language: "Chonkie's RecursiveChunker has no language presets in compat mode",
  },
  units: UNITS,
};

/** TokenChunker: chunkSize 512, chunkOverlap 0, the character tokenizer by default. */
export const CHONKIE_TOKEN_PROFILE: CompatProfile = {
  defaults: { size: 512, overlap: 0, unit: 'chars' },
  units: UNITS,
};

/** FastChunker: chunkSize 4096 bytes (UTF-8), its delimiters (\n . ?), no overlap. */
export const CHONKIE_FAST_PROFILE: CompatProfile = {
  defaults: { size: 4096, overlap: 0, unit: 'bytes' },
  refuses: { overlap: "Chonkie's FastChunker has no overlap (leave overlap out, or turn compat mode off)" },
  units: { allowed: ['bytes'], reason: "Chonkie's FastChunker counts UTF-8 bytes (unit bytes)" },
};

/** SentenceChunker: chunkSize 2048, chunkOverlap 0, the character tokenizer by default. */
export const CHONKIE_SENTENCE_PROFILE: CompatProfile = {
  defaults: { size: 2048, overlap: 0, unit: 'chars' },
  units: UNITS,
};

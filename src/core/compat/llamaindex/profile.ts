import type { CompatProfile } from '../../registry';

/**
 * What the `llamaindex` compat mode changes in each strategy's options (main-thread safe: no splitter here): the
 * defaults of @llamaindex/core 0.6.23's splitters, applied when the user gives no size, overlap or unit. The
 * package's default tokenizer is cl100k_base (js-tiktoken); any unit can stand in for it (the package takes a
 * `tokenizer` whose encode() length is the size).
 */
export const LLAMAINDEX_VERSION = '0.6.23';
export const LLAMAINDEX_PACKAGE = '@llamaindex/core';

/** SentenceSplitter: chunkSize 1024, chunkOverlap 200 (kept at any size above it), cl100k_base. */
export const LLAMAINDEX_SENTENCE_PROFILE: CompatProfile = {
  defaults: { size: 1024, overlap: 200, unit: 'cl100k_base' },
  keepsDefaultOverlap: true,
};

/** TokenTextSplitter: chunkSize 1024, chunkOverlap 20 (which it never applies), cl100k_base. */
export const LLAMAINDEX_TOKEN_PROFILE: CompatProfile = {
  defaults: { size: 1024, overlap: 20, unit: 'cl100k_base' },
  keepsDefaultOverlap: true,
};

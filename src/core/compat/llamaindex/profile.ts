import { ChunkOptionsError } from '../../optionError';
import type { CompatProfile } from '../../registry';

/**
 * What the `llamaindex` compat mode changes in each strategy's options (main-thread safe: no splitter here): the
 * defaults of @llamaindex/core 0.6.23's splitters, applied when the user gives no size, overlap or unit. The
 * package's default tokenizer is cl100k_base (js-tiktoken); any unit can stand in for it (the package takes a
 * `tokenizer` whose encode() length is the size).
 */
export const LLAMAINDEX_VERSION = '0.6.23';
export const LLAMAINDEX_PACKAGE = '@llamaindex/core';

/**
 * SentenceSplitter: chunkSize 1024, chunkOverlap 200 (kept at any size above it), cl100k_base. Its retrieval units:
 * SentenceWindowNodeParser (window 3, as Chunkscope's) and HierarchicalNodeParser (levels 2048/512/128 as
 * Chunkscope's, overlap 20 at every level; the package's SentenceSplitter refuses an overlap not below its size).
 */
export const LLAMAINDEX_SENTENCE_PROFILE: CompatProfile = {
  defaults: { size: 1024, overlap: 200, unit: 'cl100k_base' },
  keepsDefaultOverlap: true,
  retrieval: {
    window: {
      reproduces: 'SentenceWindowNodeParser',
      check(o) {
        if ((o.window ?? 3) < 1) throw new ChunkOptionsError('window', `SentenceWindowNodeParser's windowSize must be above 0 (got ${o.window})`);
      },
    },
    hierarchical: {
      reproduces: 'HierarchicalNodeParser',
      defaults: { overlap: 20 },
      check(o) {
        const smallest = Math.min(...(o.levels ?? [128]));
        if (o.overlap >= smallest) {
          throw new ChunkOptionsError('overlap', `overlap (${o.overlap}) must be smaller than every level (the smallest is ${smallest}): each level is a SentenceSplitter`);
        }
      },
    },
  },
};

/** TokenTextSplitter: chunkSize 1024, chunkOverlap 20 (which it never applies), cl100k_base. */
export const LLAMAINDEX_TOKEN_PROFILE: CompatProfile = {
  defaults: { size: 1024, overlap: 20, unit: 'cl100k_base' },
  keepsDefaultOverlap: true,
};

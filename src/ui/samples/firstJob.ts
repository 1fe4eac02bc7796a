import type { ChunkOptions } from '../../core/types';
import { toChunkOptions } from '../../state/chunkOptions';
import { DEFAULT_CONFIG } from '../../state/configSlice';
import { FIRST_SAMPLE } from './index';

/**
 * The chunk job a first visit asks for (nothing stored, no link): the first sample with the default options, as
 * the page's jobs make it (toChunkOptions with the document's name). vite.config.ts chunks it at build time.
 */
export function firstSampleJob(): { text: string; options: ChunkOptions } {
  return { text: FIRST_SAMPLE.text, options: toChunkOptions(DEFAULT_CONFIG, { name: FIRST_SAMPLE.name, pageStarts: null }) };
}

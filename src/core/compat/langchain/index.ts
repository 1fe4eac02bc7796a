import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';

/**
 * Exact reproduction of @langchain/textsplitters 1.x for the character, recursive and token strategies:
 * the same chunk texts in the same order, with exact offsets into the source.
 * (Placeholder signature; implemented in this folder.)
 */
export async function splitLangchain(text: string, ctx: ChunkContext): Promise<SplitSpan[]> {
  void text;
  throw new Error(`compat langchain is not implemented yet for ${ctx.options.strategy}`);
}

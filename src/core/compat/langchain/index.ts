import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_PRESETS } from '../../languages';
import type { SplitSpan } from '../../registry';
import type { ChunkContext, ResolvedOptions } from '../../types';
import { splitCharacterLangchain } from './character';
import { splitRecursiveLangchain } from './recursive';
import type { LangchainSpan } from './run';
import { splitTokenLangchain } from './token';

export type { LangchainSpan } from './run';
export { CompatAbortError } from './run';

/** LangChain JS's defaults where Chunkscope's options leave room for doubt. */
const LANGCHAIN_CHARACTER_SEPARATOR = '\n\n';
const LANGCHAIN_RECURSIVE_SEPARATORS = ['\n\n', '\n', ' ', ''];

/**
 * Exact reproduction of @langchain/textsplitters 1.x for the character, recursive and token strategies:
 * the same chunk texts in the same order, with exact offsets into the source. LangChain's string is
 * `source.slice(start, end)` except in the quirk cases documented in merge.ts (joins that collapse repeated
 * separators) and token.ts (token windows that cut a character); only there does a span carry `content`.
 * Sizes are measured like `ctx.unit.count` (chars = UTF-16 length, LangChain's default length function), through
 * the engine's per-span meter. See DIFFERENCES.md for every LangChain behaviour reproduced.
 */
export async function splitLangchain(text: string, ctx: ChunkContext): Promise<SplitSpan[]> {
  return splitLangchainSync(text, ctx);
}

/** The same, synchronously (LangChain's own API is async only because its length function may be). */
export function splitLangchainSync(text: string, ctx: ChunkContext): LangchainSpan[] {
  const options = ctx.options;
  // LangChain's constructor check, in its words.
  if (options.overlap >= options.size) throw new Error('Cannot have chunkOverlap >= chunkSize');
  switch (options.strategy) {
    case 'character':
      return splitCharacterLangchain(
        text,
        ctx,
        options.separators[0] ?? LANGCHAIN_CHARACTER_SEPARATOR,
        keepSeparatorFlag(options, false),
      );
    case 'recursive':
      return splitRecursiveLangchain(text, ctx, recursiveSeparators(options), keepSeparatorFlag(options, true));
    case 'token':
      return splitTokenLangchain(text, ctx);
    default:
      throw new Error(`LangChain compatibility covers character, recursive and token, not ${options.strategy}`);
  }
}

/** LangChain JS's keepSeparator is a boolean that keeps the separator at the START of the next piece. */
function keepSeparatorFlag(options: ResolvedOptions, fallback: boolean): boolean {
  switch (options.keepSeparator) {
    case 'start':
      return true;
    case 'none':
      return false;
    case 'end':
      throw new Error('LangChain JS cannot keep separators at the end (its keepSeparator puts them at the start)');
    default:
      return fallback;
  }
}

/** fromLanguage(language) replaces the separators with LangChain's list for that language. */
function recursiveSeparators(options: ResolvedOptions): readonly string[] {
  const language = options.language;
  if (language) {
    const preset = LANGCHAIN_JS_LANGUAGES.has(language) ? LANGUAGE_PRESETS[language] : undefined;
    if (!preset) throw new Error(`Language ${language} is not supported by LangChain JS.`);
    return preset;
  }
  return options.separators.length > 0 ? options.separators : LANGCHAIN_RECURSIVE_SEPARATORS;
}

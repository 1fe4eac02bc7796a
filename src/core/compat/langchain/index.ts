import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_PRESETS } from '../../languages';
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

/*
 * Exact reproduction of @langchain/textsplitters 1.x for the character, recursive and token strategies (each
 * strategy's split() calls its function here in compat mode `langchain`): the same chunk texts in the same order,
 * with exact offsets into the source. LangChain's string is `source.slice(start, end)` except in the quirk cases
 * documented in merge.ts (joins that collapse repeated separators) and token.ts (token windows that cut a
 * character); only there does a span carry `content`. Sizes are measured like `ctx.unit.count` (chars = UTF-16
 * length, LangChain's default length function), through the engine's per-span meter. See DIFFERENCES.md for every
 * LangChain behaviour reproduced.
 */

/** LangChain's constructor check, in its words. */
function checkSizes(ctx: ChunkContext): void {
  if (ctx.options.overlap >= ctx.options.size) throw new Error('Cannot have chunkOverlap >= chunkSize');
}

/** CharacterTextSplitter: the first separator only. */
export function langchainCharacter(text: string, ctx: ChunkContext): LangchainSpan[] {
  checkSizes(ctx);
  return splitCharacterLangchain(text, ctx, ctx.options.separators[0] ?? LANGCHAIN_CHARACTER_SEPARATOR, keepSeparatorFlag(ctx.options, false));
}

/** RecursiveCharacterTextSplitter (fromLanguage when a preset is chosen). */
export function langchainRecursive(text: string, ctx: ChunkContext): LangchainSpan[] {
  checkSizes(ctx);
  return splitRecursiveLangchain(text, ctx, recursiveSeparators(ctx.options), keepSeparatorFlag(ctx.options, true));
}

/** TokenTextSplitter. */
export function langchainToken(text: string, ctx: ChunkContext): LangchainSpan[] {
  checkSizes(ctx);
  return splitTokenLangchain(text, ctx);
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

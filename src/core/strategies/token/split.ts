import { loadChonkie, loadLangchain, loadLlamaindex } from '../../compat/load';
import { meterFor } from '../../measure';
import { RunGuard } from '../../merge';
import type { StrategyImplementation } from '../../registry';
import { tokenBoundsOf, tokenWindows } from '../../windows';

/**
 * LangChain's TokenTextSplitter, natively: windows of `size` tokens, each next window starting `overlap` tokens
 * before the previous one ends. Unlike LangChain, windows are cut only between characters (never inside an emoji
 * or a CJK character) and carry exact offsets; special-token strings such as <|endoftext|> are ordinary text.
 * Windows are not trimmed. Compat modes: LangChain's TokenTextSplitter, LlamaIndex TS's TokenTextSplitter (which packs
 * words rather than cutting windows).
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options, unit } = ctx;
    if (options.compat === 'langchain') return loadLangchain().then((m) => m.langchainToken(text, ctx));
    if (options.compat === 'llamaindex') return loadLlamaindex().then((m) => m.llamaindexTokenTextSplitter(text, ctx));
    if (options.compat === 'chonkie') return loadChonkie().then((m) => m.chonkieToken(text, ctx));
    if (!unit.tokenize) throw new Error(`the token strategy needs a token unit (got ${unit.name})`);
    const guard = new RunGuard(ctx, text.length);
    return tokenWindows(tokenBoundsOf(unit, text), options.size, options.overlap, meterFor(unit, text), guard, () => true);
  },
};

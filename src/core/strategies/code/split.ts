import type { StrategyImplementation } from '../../registry';
import { splitCode, codeStructure } from '../../structure/codeSplit';
import { CODE_LANGUAGE_NAMES, detectCodeLanguage, resolveCodeLanguage, type CodeLanguageName } from './languages';
import type { ChunkContext, LoadWasm } from '../../types';
import { ChunkOptionsError } from '../../optionError';

/**
 * Syntax-aware code splitting (tree-sitter): top-level definitions stay whole when they fit and small ones are
 * packed together; an oversize definition is cut at its members or statements; every chunk's content starts with
 * the file path and the signatures of the definitions it sits in. See src/core/structure/codeSplit.ts.
 */
export const implementation: StrategyImplementation = {
  split(text, ctx) {
    const { options } = ctx;
    return splitCode(text, {
      language: codeLanguageOf(ctx),
      size: options.size,
      overlap: options.overlap,
      unit: ctx.unit,
      path: options.path ?? null,
      loadWasm: loaderOf(ctx),
      signal: ctx.signal,
      onProgress: ctx.onProgress,
    });
  },
  structure(text, ctx) {
    return codeStructure(text, { language: codeLanguageOf(ctx), path: ctx.options.path ?? null, loadWasm: loaderOf(ctx), signal: ctx.signal });
  },
};

/** The language option (a name or alias), else the one the path's extension names; else a one-line error. */
export function codeLanguageOf(ctx: Pick<ChunkContext, 'options'>): CodeLanguageName {
  const { language, path } = ctx.options;
  if (language) {
    const resolved = resolveCodeLanguage(language);
    if (!resolved) throw new ChunkOptionsError('language', `the code strategy does not know the language "${language}" (expected one of ${CODE_LANGUAGE_NAMES.join(', ')})`);
    return resolved;
  }
  const detected = detectCodeLanguage(path ?? '');
  if (detected) return detected;
  throw new ChunkOptionsError(
    'language',
    path
      ? `cannot tell the code language of "${path}": choose a language (${CODE_LANGUAGE_NAMES.join(', ')})`
      : `the code strategy needs a language (${CODE_LANGUAGE_NAMES.join(', ')}) or a file path with a known extension`,
  );
}

function loaderOf(ctx: ChunkContext): LoadWasm {
  if (!ctx.loadWasm) throw new Error('the code strategy needs a wasm loader (hooks.loadWasm: nodeLoadWasm in Node, workerLoadWasm in the worker)');
  return ctx.loadWasm;
}

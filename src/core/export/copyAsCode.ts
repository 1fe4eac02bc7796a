/**
 * "Copy as code": a short, runnable program that splits a file the way the current configuration does, in
 * LangChain (JS or Python), LlamaIndex or Chonkie. Each program reads the file named on its command line and prints
 * the chunk strings as JSON. Each strategy's programs are its recipes (src/core/strategies/<id>/copyAsCode.ts);
 * the pieces they share are in ./programs.ts.
 *
 * Which targets give Chunkscope's chunks exactly (see `reproducesExactly`): a recipe says so per target and compat
 * mode. Today: langchain-js for the character, recursive and token strategies in compat mode `langchain` (compat mode
 * IS LangChain JS's algorithm; the export test runs the generated program against @langchain/textsplitters). In
 * native mode the same program gives LangChain's chunks, which differ as src/core/README.md lists. langchain-python,
 * llamaindex and chonkie are approximations: LangChain Python counts code points, joins and trims a little
 * differently and has other language lists; LlamaIndex and Chonkie have their own algorithms. A strategy a library
 * lacks gets a comment saying so and the closest equivalent. The structure strategies are approximations everywhere.
 */
import { getStrategy } from '../strategies';
import type { ResolvedOptions } from '../types';
import type { CodeTarget } from './programs';

export { jsString, pyString, reproducesExactly, type CodeTarget, type CopyAsCodeRecipes } from './programs';

export const CODE_TARGETS: CodeTarget[] = ['langchain-js', 'langchain-python', 'llamaindex', 'chonkie'];
export const CODE_TARGET_LABELS: Record<CodeTarget, string> = {
  'langchain-js': 'LangChain (JavaScript)',
  'langchain-python': 'LangChain (Python)',
  llamaindex: 'LlamaIndex',
  chonkie: 'Chonkie',
};

/** A runnable program for `target` that splits a file (its path the first command-line argument) like `options`. */
export function codeFor(options: ResolvedOptions, target: CodeTarget): string {
  return getStrategy(options.strategy).copyAsCode[target](options);
}

/**
 * "Copy as code": a short, runnable program that splits a file the way the current configuration does, in
 * LangChain (JS or Python), LlamaIndex or Chonkie. Each program reads the file named on its command line and prints
 * the chunk strings as JSON. Each strategy's programs are its recipes (src/core/strategies/<id>/copyAsCode.ts);
 * the pieces they share are in ./programs.ts.
 *
 * Which targets give Chunkscope's chunks exactly (see `reproducesExactly`): a recipe says so per target and compat
 * mode. Today: langchain-js for the character, recursive and token strategies in compat mode `langchain` (compat mode
 * IS LangChain JS's algorithm; the export test runs the generated program against @langchain/textsplitters). In
 * native mode the same program gives LangChain's chunks, which differ as src/core/README.md lists.
 * chonkie-ts (@chonkiejs/core) for the recursive, token and sentence strategies in compat mode `chonkie`
 * (copyAsCode.chonkie.exec.test.ts runs it); a strategy with no Chonkie TS chunker has no chonkie-ts recipe
 * (`targetsFor` leaves it out). llamaindex-ts (@llamaindex/core) for the sentence, token and markdown strategies in
 * compat mode `llamaindex` (copyAsCode.llamaindex.exec.test.ts runs it). langchain-python,
 * llamaindex and chonkie are approximations: LangChain Python counts code points, joins and trims a little
 * differently and has other language lists; LlamaIndex and Chonkie have their own algorithms. A strategy a library
 * lacks gets a comment saying so and the closest equivalent. The structure strategies are approximations everywhere.
 */
import { getStrategy, STRATEGY_NAMES } from '../strategies';
import type { ResolvedOptions } from '../types';
import { programIsExact, type CodeTarget, type CopyAsCodeRecipes } from './programs';

export { jsString, pyString, type CodeTarget, type CopyAsCodeRecipes } from './programs';

export const CODE_TARGETS: CodeTarget[] = ['langchain-js', 'langchain-python', 'llamaindex', 'llamaindex-ts', 'chonkie', 'chonkie-ts'];
export const CODE_TARGET_LABELS: Record<CodeTarget, string> = {
  'langchain-js': 'LangChain (JavaScript)',
  'langchain-python': 'LangChain (Python)',
  llamaindex: 'LlamaIndex',
  'llamaindex-ts': 'LlamaIndex (TypeScript)',
  chonkie: 'Chonkie',
  'chonkie-ts': 'Chonkie (TypeScript)',
};

/**
 * The dialog's one target that is not a program: the `chunkscope corpus` command line (./cliCommand.ts), exact by
 * construction (the same engine and options).
 */
export const CLI_TARGET = 'chunkscope-cli';
export const CLI_TARGET_LABEL = 'chunkscope CLI';

/** How a target's program is run: JavaScript with node, or Python (compiled only in the tests). */
export const CODE_TARGET_RUNTIME: Record<CodeTarget, 'node' | 'python'> = {
  'langchain-js': 'node',
  'langchain-python': 'python',
  llamaindex: 'python',
  'llamaindex-ts': 'node',
  chonkie: 'python',
  'chonkie-ts': 'node',
};

const loadedRecipes = new Map<string, CopyAsCodeRecipes>();

/**
 * Loads the strategies' programs (every strategy's, or one's), which the registry keeps behind dynamic imports so the
 * first paint loads none. Await it once before targetsFor, codeFor and reproducesExactly (the dialog's lazy import
 * does, the CLI and tests before their first program); loading twice fetches nothing.
 */
export async function loadCopyAsCode(strategy?: string): Promise<void> {
  const ids = strategy === undefined ? STRATEGY_NAMES : [strategy];
  await Promise.all(
    ids.map(async (id) => {
      if (!loadedRecipes.has(id)) loadedRecipes.set(id, await getStrategy(id).copyAsCode());
    }),
  );
}

function recipesFor(strategy: string): CopyAsCodeRecipes {
  const recipes = loadedRecipes.get(strategy);
  if (!recipes) throw new Error(`the ${strategy} strategy's copy-as-code programs are not loaded (await loadCopyAsCode() first)`);
  return recipes;
}

/** The targets with a program for these options' strategy (a library without an equivalent is left out). */
export function targetsFor(options: ResolvedOptions): CodeTarget[] {
  const recipes = recipesFor(options.strategy);
  return CODE_TARGETS.filter((t) => recipes[t] !== undefined);
}

/** A runnable program for `target` that splits a file (its path the first command-line argument) like `options`. */
export function codeFor(options: ResolvedOptions, target: CodeTarget): string {
  const recipes = recipesFor(options.strategy);
  const recipe = recipes[target];
  if (!recipe) throw new Error(`${CODE_TARGET_LABELS[target]} has no equivalent of the ${options.strategy} strategy`);
  return recipe({ ...options, described: getStrategy(options.strategy), recipes });
}

/** True when the program for `target` returns exactly the contents of chunk(text, options). */
export function reproducesExactly(options: ResolvedOptions, target: CodeTarget): boolean {
  return programIsExact({ ...options, described: getStrategy(options.strategy), recipes: recipesFor(options.strategy) }, target);
}

/**
 * Where the tests find ../shared: the folder beside the repository with the data too large to commit (the 1 MiB
 * English corpus of design.md, chunking_evaluation's State of the Union golden set). CI and the development
 * machine have it; a user's fresh clone does not. A test that needs it is reported as skipped there, with the
 * reason in its name (vitest's `skipIf` takes no message; Playwright's `test.skip(condition, reason)` does), and
 * runs where the folder is present. No test passes by returning early when it is missing:
 *
 *   it.skipIf(!HAVE_SHARED_CORPUS)(`on the corpus ${NEEDS_SHARED_CORPUS}`, () => { ... readSharedCorpus() ... });
 *
 * Test code only (it reads the file system): tests, e2e specs and benchmarks may import it; the engine, the page and
 * the worker never do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `<repository>/../shared/` (this file is `<repository>/src/testing/sharedData.ts`), or CHUNKSCOPE_SHARED_DIR where
 * the folder lives elsewhere (a git worktree whose parent folder is not the one holding shared/).
 */
export const SHARED_DIR = process.env.CHUNKSCOPE_SHARED_DIR || fileURLToPath(new URL('../../../shared/', import.meta.url));

const sharedPath = (relative: string): string => join(SHARED_DIR, relative);
const skipReason = (folder: string): string => `(needs ../shared/${folder}: absent in a fresh clone)`;

/** The 1 MiB English text the benchmarks and the large-document tests use. */
export const SHARED_CORPUS_PATH = sharedPath('corpus/english-1mib.txt');
export const HAVE_SHARED_CORPUS = existsSync(SHARED_CORPUS_PATH);
/** Put in the name of a test that is skipped without the corpus, so the report says why. */
export const NEEDS_SHARED_CORPUS = skipReason('corpus');

/** The corpus, or its first `chars` characters. Call it only inside a test skipped when HAVE_SHARED_CORPUS is false. */
export function readSharedCorpus(chars?: number): string {
  const text = readFileSync(SHARED_CORPUS_PATH, 'utf8');
  return chars === undefined ? text : text.slice(0, chars);
}

/** chunking_evaluation's State of the Union document and its 76 questions (CSV as that project writes it). */
export const SHARED_EVAL_DOCUMENT_PATH = sharedPath('eval/state_of_the_union.md');
export const SHARED_EVAL_QUESTIONS_PATH = sharedPath('eval/state_of_the_union.questions.csv');
export const HAVE_SHARED_EVAL = existsSync(SHARED_EVAL_DOCUMENT_PATH) && existsSync(SHARED_EVAL_QUESTIONS_PATH);
export const NEEDS_SHARED_EVAL = skipReason('eval');

/**
 * `chunkscope eval` over a corpus: which files of a directory are documents, the one-line refusal when no question
 * matches any document, and the questions set aside summarized (one line per cause, not one per question).
 */
import { isDocumentFile } from '../import/index';
import { prepareQuestions, setAsideSummary, someNames, type EvalDocument, type GoldenQuestion } from '../core/eval/index';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError } from './input';
import { readError } from './read';

/** Whether a file of a directory given to eval is a document (the page's folder open uses the same rule). */
export { isDocumentFile };

/** How deep a directory given to eval is walked: deeper levels are named in a note, not read. */
export const MAX_DIRECTORY_DEPTH = 16;

/**
 * Collects the documents of a directory and its sub-directories into `found.files` (sorted by name at each level;
 * hidden entries and node_modules skipped, the golden set itself left out) and the names of other files into
 * `found.leftOut`. Links to directories are not followed (a link loop would never end); a broken link is named.
 */
export async function walkDocuments(dir: string, questionsPath: string, found: { files: string[]; leftOut: string[] }, io: { stderr(text: string): void }, depth = 0): Promise<void> {
  let entries;
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((d) => !d.name.startsWith('.') && d.name !== 'node_modules').sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  } catch (err) {
    throw readError(dir, err);
  }
  const leaveOut = (path: string, why: string) => io.stderr(`chunkscope: note: left out "${path}": ${why}\n`);
  for (const dirent of entries) {
    const name = dirent.name;
    const path = join(dir, name);
    if (resolve(path) === questionsPath) continue;
    const entry = await stat(path).catch((err: unknown) => err as NodeJS.ErrnoException);
    if (entry instanceof Error) leaveOut(path, readError(path, entry).message.replace(/^cannot read "[^"]*": /, ''));
    else if (entry.isDirectory()) {
      if (dirent.isSymbolicLink()) leaveOut(path, 'a link to a directory (not followed)');
      else if (depth + 1 >= MAX_DIRECTORY_DEPTH) leaveOut(path, `deeper than ${MAX_DIRECTORY_DEPTH} levels`);
      else await walkDocuments(path, questionsPath, found, io, depth + 1);
    } else if (entry.isFile() && isDocumentFile(name)) found.files.push(path);
    else if (entry.isFile()) found.leftOut.push(name);
  }
}

/** Files PDF and DOCX readers convert (read as bytes, not as text). */
export function isConvertedFile(name: string): boolean {
  return /\.(pdf|docx)$/i.test(name);
}

/** One note for the files of directories that were not taken. */
export function leftOutNote(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  return `left out ${names.length} file${names.length === 1 ? '' : 's'} of no known document type: ${someNames(names)}`;
}

/**
 * Refuse (exit 2, one line) a golden set none of whose questions can be measured on these documents; else the notes
 * for the questions set aside (one line per cause).
 */
export function checkQuestions(documents: readonly EvalDocument[], questions: readonly GoldenQuestion[]): string[] {
  const { prepared, skipped } = prepareQuestions(documents, questions);
  if (questions.length === 0) throw new CliError('the golden set holds no questions');
  if (prepared.length === 0) {
    const named = [...new Set(questions.flatMap((q) => (q.corpusId === undefined ? [] : [q.corpusId])))].sort();
    const ids = documents.map((d) => d.id);
    if (skipped.every((s) => s.kind === 'unknown-corpus' || s.kind === 'no-corpus-id')) {
      throw new CliError(
        `no question matches any document: the questions name ${named.length > 0 ? someNames(named) : 'no corpus_id'}; the documents are ${someNames(ids)} (a corpus_id names a file, with or without extension)`,
      );
    }
    throw new CliError(`no question can be measured: ${setAsideSummary(skipped, documents.length).join('; ')}`);
  }
  return setAsideSummary(skipped, documents.length);
}

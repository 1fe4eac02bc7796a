/**
 * `chunkscope eval` over a corpus: which files of a directory are documents, the one-line refusal when no question
 * matches any document, and the questions set aside summarized (one line per cause, not one per question).
 */
import { isDocumentFile } from '../import/index';
import { prepareQuestions, setAsideSummary, someNames, type EvalDocument, type GoldenQuestion } from '../core/eval/index';
import { CliError } from './input';

/** Whether a file of a directory given to eval is a document (the page's folder open uses the same rule). */
export { isDocumentFile };

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

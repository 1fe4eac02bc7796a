import { fileTooLargeMessage, importDocument, isDocumentFile, PAGE_MAX_FILE_BYTES } from '../import/index';
import { someNames } from '../core/eval/corpora';
import { useStore } from '../state/store';
import type { NewDocument } from '../state/documentSetSlice';

/**
 * Several files opened at once (the file picker with several chosen, a drop of several, a folder): each is read as
 * the editor reads one (importDocument), and together they become the set of open documents (or join the set already
 * open). A folder keeps only files of known document types (the rule `chunkscope eval DIR` uses); what was left out
 * or could not be read is said in one line.
 */
export async function readDocumentFiles(files: readonly File[], options: { folder?: boolean } = {}): Promise<void> {
  const { setNotice } = useStore.getState();
  // A folder in path order, as `chunkscope eval DIR` takes it (the browser lists its files in no set order).
  if (options.folder) files = [...files].sort((a, b) => (relativeName(a) < relativeName(b) ? -1 : relativeName(a) > relativeName(b) ? 1 : 0));
  const taken = options.folder ? files.filter((f) => isDocumentFile(f.name)) : [...files];
  const leftOut = files.length - taken.length;
  const docs: NewDocument[] = [];
  const failed: string[] = [];
  if (taken.length > 1) setNotice(`Reading ${taken.length} files…`);
  for (const file of taken) {
    if (file.size > PAGE_MAX_FILE_BYTES) {
      failed.push(fileTooLargeMessage(file.name, file.size));
      continue;
    }
    try {
      const imported = await importDocument(file.name, new Uint8Array(await file.arrayBuffer()), { dropPageFurniture: useStore.getState().dropPageFurniture });
      docs.push({ name: relativeName(file), text: imported.text, pageStarts: imported.pageStarts });
    } catch (err) {
      failed.push(`${file.name}: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
    }
  }
  useStore.getState().openDocumentsIn(docs);
  const notes: string[] = [];
  if (docs.length > 1) notes.push(`Opened ${docs.length} documents.`);
  if (leftOut > 0) notes.push(`Skipped ${leftOut} file${leftOut === 1 ? '' : 's'} of no known document type: ${someNames(files.filter((f) => !isDocumentFile(f.name)).map(relativeName), 3)}.`);
  if (failed.length > 0) notes.push(`${failed.length} could not be read: ${someNames(failed, 2)}.`);
  if (docs.length === 0 && taken.length === 0) notes.push('No document to open.');
  setNotice(notes.length > 0 ? notes.join(' ') : null);
}

/** A folder's file by its path inside the folder (two README.md of sub-folders stay apart); other files by name. */
function relativeName(file: File): string {
  const path = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
  if (!path) return file.name;
  // Without the folder's own name: the corpus id is the path inside it.
  return path.split('/').slice(1).join('/') || file.name;
}

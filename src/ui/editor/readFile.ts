// The worker script of pdfjs-dist as a file of the app's own build: PDFs are parsed off the main thread, offline,
// from the same origin (allowed under COEP). Only the URL is imported here; pdfjs itself loads when a PDF is opened.
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { BASE_DEFAULTS, STRATEGY_NAMES } from '../../core/describe';
import { fileTooLargeMessage, ImportError, importDocument, PAGE_MAX_FILE_BYTES, setPdfWorkerSource, type ImportedDocument } from '../../import/index';
import { useStore } from '../../state/store';
import { applyChunkImport } from '../export/applyChunkImport';
import { parseChunkExport } from '../../core/export/reimport';
import { parseShareFile, ShareLinkError } from '../../state/shareLink';
import { applyShareFile } from '../../state/shareFile';

/**
 * Reading an opened or dropped file (the importer, share files, chunk exports opened again): loaded on the first
 * open (files.ts, loadFileReader), not on the first paint's path.
 */

setPdfWorkerSource(pdfWorkerUrl);

/** PDFs with at least this many pages show "page i of n" while they are read. */
const PROGRESS_FROM_PAGES = 5;

/** The newest open wins: a slow PDF finishing after a later file must not replace it. */
let latestOpen = 0;

/**
 * Read a dropped or opened file into the document. A file that cannot be read leaves the current document as
 * it is and says why in the notice; what the import has to say (pages read, furniture dropped, a strategy
 * switch) goes to the notice too.
 */
export async function readDroppedFile(file: File): Promise<void> {
  const openId = ++latestOpen;
  const current = () => openId === latestOpen;
  const { setNotice } = useStore.getState();
  // Refused before a byte is read: arrayBuffer() of a multi-gigabyte file would take the tab's memory.
  if (file.size > PAGE_MAX_FILE_BYTES) {
    setNotice(fileTooLargeMessage(file.name, file.size));
    return;
  }
  const converted = /\.(pdf|docx)$/i.test(file.name);
  if (converted) setNotice(`Reading “${file.name}”…`);
  let imported: ImportedDocument;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // A Chunkscope JSON/JSONL export opened again: the document is rebuilt from its chunks' exact offsets.
    if (/\.jsonl?$/i.test(file.name)) {
      // A share file ("Download share file", for documents too large for a link): its configuration and document.
      const shared = parseShareFile(new TextDecoder().decode(bytes));
      if (shared) {
        if (current()) {
          applyShareFile(useStore, shared);
          setNotice(`Opened the share file “${file.name}”: its settings and its document.`);
        }
        return;
      }
      const chunkExport = parseChunkExport(new TextDecoder().decode(bytes));
      if (chunkExport) {
        if (current()) applyChunkImport(chunkExport, file.name);
        return;
      }
    }
    imported = await importDocument(file.name, bytes, {
      dropPageFurniture: useStore.getState().dropPageFurniture,
      onProgress: (done, total) => {
        if (current() && total >= PROGRESS_FROM_PAGES) setNotice(`Reading “${file.name}”: page ${done} of ${total}…`);
      },
    });
  } catch (err) {
    if (!current()) return;
    const message = err instanceof ImportError || err instanceof ShareLinkError ? err.message : `“${file.name}” could not be opened: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
    setNotice(`${message}${/[.!?]$/.test(message) ? '' : '.'} The current document is unchanged.`);
    return;
  }
  if (!current()) return;
  const state = useStore.getState();
  // With several documents open the file joins them (a name already open is replaced); else it replaces the document.
  state.openDocumentsIn([{ name: file.name, text: imported.text, pageStarts: imported.pageStarts }]);
  const notes = [...imported.notes];
  // Structure-aware strategies fit structured files; the default strategy is only the generic suggestion: a plain
  // text file (or a PDF) keeps the strategy the person chose, and leaves the previous file's.
  const suggested = imported.suggestedStrategy;
  const structured = suggested !== BASE_DEFAULTS.strategy && (STRATEGY_NAMES as string[]).includes(suggested) ? suggested : null;
  const previous = state.config.strategy;
  const switched = state.followDocumentKind(structured);
  if (switched && structured) notes.push(`Strategy switched to ${switched} for this ${imported.format === 'docx' ? 'converted document' : 'file'}.`);
  else if (switched) notes.push(`Strategy back to ${switched}, your own choice (${previous} was for the previous document).`);
  if (notes.length > 0) setNotice(`“${file.name}”: ${notes.join(' ')}`);
  else if (converted) setNotice(null);
}


import type { StrategyName } from '../../core/types';
import { loadPart } from '../../state/lazyPart';
import { useStore } from '../../state/store';

/** The file input's `accept`: the importers' extensions (text formats, source files, PDF and DOCX; anything with NUL
 * bytes is refused), as the page has them built ahead (../registryFacts.ts), without the importers. */
export function openableFiles(extensions: readonly string[]): string {
  return extensions.map((ext) => `.${ext}`).join(',');
}

/** The importers (src/import: which strategy a named document's kind calls for, …), fetched on first use. */
export function loadImporters(): Promise<typeof import('../../import/index')> {
  return import('../../import/index');
}

/** The file reader (the importer, share files, chunk exports), fetched on the first file opened. */
export function loadFileReader(): Promise<typeof import('./readFile')> {
  return import('./readFile');
}

/**
 * Read a dropped or opened file into the document (readFile.ts). A file that cannot be read leaves the current
 * document as it is and says why in the notice, as does a reader that cannot be fetched.
 */
export async function readDroppedFile(file: File): Promise<void> {
  const reader = await loadPart('file reader', loadFileReader);
  await reader?.readDroppedFile(file);
}

/** Several files opened at once, or a folder (../documentFiles.ts). */
export async function readDocumentFiles(files: readonly File[], options: { folder?: boolean } = {}): Promise<void> {
  const reader = await loadPart('file reader', () => import('../documentFiles'));
  await reader?.readDocumentFiles(files, options);
}

/** Put a built-in sample (or any named text) in as a document of its own, with the strategy its kind calls for. */
export function openNamedDocument(text: string, name: string | null, strategy: StrategyName | null): StrategyName | null {
  const state = useStore.getState();
  if (state.openDocuments.length > 0) state.openDocumentsIn([{ name: name ?? 'untitled', text }]);
  else state.setDocument(text, { name, pageStarts: null });
  return state.followDocumentKind(strategy);
}

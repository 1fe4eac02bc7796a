import { useStore } from '../../state/store';
import type { ChunkExportImport } from './reimport';

/**
 * Put a re-imported export into the page: the rebuilt document, the strategy and compatibility its chunks were
 * made with, and a notice saying where it came from and how many gaps were filled. (Called by Open file… for a
 * file that parseChunkExport recognises.)
 */
export function applyChunkImport(imported: ChunkExportImport, fileName: string): void {
  const s = useStore.getState();
  const { strategy, compat } = imported.options;
  const patch: Parameters<typeof s.setConfig>[0] = {};
  if (strategy && strategy !== s.config.strategy) patch.strategy = strategy;
  if (compat) patch.compat = compat;
  if (Object.keys(patch).length > 0) s.setConfig(patch);
  s.setDocument(imported.document, { name: null });
  const filled =
    imported.gaps === 0
      ? 'every character came from a chunk'
      : `${imported.gaps} ${imported.gaps === 1 ? 'gap' : 'gaps'} no chunk covered (${imported.gapChars} characters of dropped whitespace) filled with spaces`;
  s.setNotice(`Rebuilt the document from the ${imported.chunks} chunks in “${fileName}”: ${filled}.`);
}

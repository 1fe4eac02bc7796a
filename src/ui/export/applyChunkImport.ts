import { useStore } from '../../state/store';
import type { ChunkExportImport } from '../../core/export/reimport';

/**
 * Put a re-imported export into the page: the rebuilt document, the strategy, compatibility and unit its chunks
 * were made with, and a notice saying where it came from and how many gaps were filled. (Called by Open file… for a
 * file that parseChunkExport recognises.)
 */
export function applyChunkImport(imported: ChunkExportImport, fileName: string): void {
  const s = useStore.getState();
  const { strategy, compat, unit } = imported.options;
  const patch: Parameters<typeof s.setConfig>[0] = {};
  if (strategy && strategy !== s.config.strategy) patch.strategy = strategy;
  if (compat) patch.compat = compat;
  // The unit too: a token export opened over a characters configuration would otherwise be refused or re-cut.
  if (unit) patch.unit = unit;
  if (Object.keys(patch).length > 0) s.setConfig(patch);
  s.setDocument(imported.document, { name: null });
  const filled =
    imported.gaps === 0
      ? 'every character came from a chunk'
      : `${imported.gaps} ${imported.gaps === 1 ? 'gap' : 'gaps'} no chunk covered (${imported.gapChars} characters of dropped whitespace) filled with spaces`;
  s.setNotice(`Rebuilt the document from the ${imported.chunks} chunks in “${fileName}”: ${filled}.`);
}

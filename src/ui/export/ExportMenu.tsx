import { useState } from 'react';
import { downloadFile, exportedText } from '../../state/controller';
import { selectResult } from '../../state/selectors';
import { useStore } from '../../state/store';
import type { Chunk } from '../../core/types';
import { lazy } from 'react';
import { AfterFirstPaint } from '../afterFirstPaint';
const CopyAsCodeDialog = lazy(() => Promise.all([import('./CopyAsCodeDialog'), import('../../core/export/copyAsCode').then((m) => m.loadCopyAsCode())]).then(([m]) => ({ default: m.CopyAsCodeDialog }))); // the programs: after the first paint, on first use
import type { NativeExportFormat } from '../../core/export/exporters';
import { loadPart } from '../../state/lazyPart';
import registry from 'virtual:chunkscope-registry-facts';
import type { ExportButton } from '../registryFacts';
import './export.css';

/** One button per exporter in core's registry, from its descriptor built ahead (../registryFacts.ts): the renderers
 * (./formats.ts with the exporters) load on the first export in a format the page renders itself. */
const EXPORT_BUTTONS: readonly ExportButton[] = registry.exportFormats;

/**
 * The export actions: one button per format in a group labelled "Export" (each button's accessible name is
 * "Export <format>", so every format is one click or one Tab + Enter away), then "Copy as code…".
 */
export function ExportMenu() {
  const result = useStore(selectResult);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const onExport = async (info: ExportButton) => {
    setError(null);
    setBusy(info.id);
    try {
      await exportFormat(info);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {error && (
        <span className="export-error" role="alert" title={error}>
          {error}
        </span>
      )}
      <div className="export-group" role="group" aria-label="Export">
        <span className="export-group-label" aria-hidden="true">
          Export
        </span>
        {EXPORT_BUTTONS.map((info) => (
          <button
            key={info.id}
            type="button"
            className="btn export-button"
            aria-label={info.label}
            title={`${info.fileName}: ${info.description}`}
            disabled={!result || busy !== null}
            onClick={() => onExport(info)}
          >
            {info.short}
          </button>
        ))}
      </div>
      <AfterFirstPaint placeholder={<button type="button" className="btn" aria-haspopup="dialog">Copy as code</button>}>
        <CopyAsCodeDialog />
      </AfterFirstPaint>
    </>
  );
}

/** Formats the painted chunks and downloads them (JSON/JSONL straight from the worker; the rest built from its JSON). */
async function exportFormat(info: ExportButton): Promise<void> {
  const s = useStore.getState();
  const result = s.result;
  if (!result) return;
  if (info.native) {
    const text = await exportedText(info.id as NativeExportFormat);
    if (text !== null) downloadFile(info.fileName, text, info.mime);
    return;
  }
  const formats = await loadPart('export formats', () => import('./formats'));
  const exporter = formats?.PAGE_EXPORT_FORMATS.find((f) => f.id === info.id);
  if (!formats || !exporter) return;
  const json = await exportedText('json');
  if (json === null) return;
  // JSON keeps every field and its order, so these chunks serialize exactly as the worker's objects would.
  const chunks = JSON.parse(json) as Chunk[];
  const body = formats.renderForeignExport(chunks, exporter, { text: result.text, source: s.docName });
  downloadFile(info.fileName, body, info.mime);
}

import { useState } from 'react';
import { downloadFile, exportedText } from '../../state/controller';
import { selectResult } from '../../state/selectors';
import { useStore } from '../../state/store';
import type { Chunk } from '../../core/types';
import { lazy } from 'react';
import { AfterFirstPaint } from '../afterFirstPaint';
const CopyAsCodeDialog = lazy(() => Promise.all([import('./CopyAsCodeDialog'), import('../../core/export/copyAsCode').then((m) => m.loadCopyAsCode())]).then(([m]) => ({ default: m.CopyAsCodeDialog }))); // the programs: after the first paint, on first use
import { isNativeExporter } from '../../core/export/exporters';
import { PAGE_EXPORT_FORMATS, renderForeignExport, type ExportFormatInfo } from './formats';
import './export.css';

/**
 * The export actions: one button per format in a group labelled "Export" (each button's accessible name is
 * "Export <format>", so every format is one click or one Tab + Enter away), then "Copy as code…".
 */
export function ExportMenu() {
  const result = useStore(selectResult);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const onExport = async (info: ExportFormatInfo) => {
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
        {PAGE_EXPORT_FORMATS.map((info) => (
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
async function exportFormat(info: ExportFormatInfo): Promise<void> {
  const s = useStore.getState();
  const result = s.result;
  if (!result) return;
  if (isNativeExporter(info)) {
    const text = await exportedText(info.id);
    if (text !== null) downloadFile(info.fileName, text, info.mime);
    return;
  }
  const json = await exportedText('json');
  if (json === null) return;
  // JSON keeps every field and its order, so these chunks serialize exactly as the worker's objects would.
  const chunks = JSON.parse(json) as Chunk[];
  const body = renderForeignExport(chunks, info, { text: result.text, source: s.docName });
  downloadFile(info.fileName, body, info.mime);
}

/**
 * The URL of pdfjs-dist's worker script in the browser. The page sets it from a Vite `?url` import of
 * `pdfjs-dist/build/pdf.worker.min.mjs`: the worker is then a file of the app's own bundle (offline, same
 * origin, allowed under COEP), and parsing a PDF runs off the main thread. Kept apart from pdf.ts so that
 * setting it does not load pdfjs. Node ignores it (the legacy build runs its worker code in-process).
 */
let workerSource: string | null = null;

export function setPdfWorkerSource(url: string): void {
  workerSource = url;
}

export function pdfWorkerSource(): string | null {
  return workerSource;
}

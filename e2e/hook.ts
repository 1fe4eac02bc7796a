/** The page's test/bench hook (contracts.md), declared once for the e2e specs and the browser benchmark. */
export interface ChunkscopeHook {
  setDocument(text: string): void;
  editDocument(text: string): void;
  getDocument(): string;
  getConfig(): Record<string, unknown>;
  paintedJobId(): number;
  boundaries(): { jobId: number; starts: number[]; ends: number[] } | null;
}

declare global {
  interface Window {
    __chunkscope?: ChunkscopeHook;
  }
}

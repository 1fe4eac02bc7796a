// Types for the benchmark results writer (scripts/bench-results.mjs), used by src/docs.test.ts.
export interface BenchStep {
  file: string;
  /** The exit code; null when the benchmark could not start or was killed. */
  status: number | null;
  seconds: number;
  output: string;
}
export function machineSummary(): string;
export function commitSummary(cwd?: string): string;
export function renderResults(run: { date: Date; machine: string; commit: string; command: string; steps: BenchStep[] }): string;

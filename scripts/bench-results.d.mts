// Types for the benchmark results writer (scripts/bench-results.mjs), used by src/docs.test.ts.
export interface BenchRun {
  file: string;
  /** The command that ran it, as the section names it. */
  command: string;
  date: Date | string;
  commit: string;
  machine: string;
  load: string;
  /** The exit code; null when the benchmark could not start or was killed. */
  status: number | null;
  seconds: number;
  output: string;
  /** What it wrote to standard error (shown when it failed). */
  errors?: string;
}
export interface TargetEntry {
  id: string;
  bench?: string;
  measure: string;
  unit: string;
  before: number | [number, number] | null;
  target: { op: '<=' | '>='; value: number } | null;
  commit?: string;
  source?: string;
}
export interface Baseline {
  issue: number;
  beforeCommit: string;
  beforeCommitWhy: string;
  targets: TargetEntry[];
}
export interface TargetFigure {
  id: string;
  value: number;
  unit: string;
}
export function machineSummary(): string;
export function loadSummary(): string;
export function commitSummary(cwd?: string): string;
export function sectionName(file: string): string;
export function parseTargets(output: string): TargetFigure[];
export function formatValue(value: number | [number, number] | null, unit: string): string;
export function judgeTarget(entry: TargetEntry, values: number[]): { value: number | null; verdict: 'met' | 'missed' | 'information' | 'not measured' };
export function describeTarget(baseline: Baseline | null, figure: TargetFigure): string;
export function cleanOutput(output: string, baseline: Baseline | null): string;
export function renderSection(run: BenchRun, baseline: Baseline | null): string;
export function parseSection(markdown: string | null): (Omit<BenchRun, 'output' | 'date'> & { date: string; targets: TargetFigure[]; lastFailure?: { date: string; commit: string; command: string; status: number | null } }) | null;
export function nextSection(previous: string | null, run: BenchRun, baseline: Baseline | null): string;
export function assembleResults(input: {
  steps: { file: string; section: string | null }[];
  lastRun: { command: string; date: Date | string; files: string[] };
  baseline: Baseline | null;
}): string;

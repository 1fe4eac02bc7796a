// The writer of bench/RESULTS.md: what each benchmark printed, under the date, the machine and the commit it ran
// on. scripts/bench.mjs captures each benchmark's standard output and calls renderResults once all have run.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** Terminal colour codes some tools print; they mean nothing in a markdown file. */
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** The machine in one line: CPU, cores, memory, OS, Node, and the load average now. */
export function machineSummary() {
  const cpus = os.cpus();
  const model = cpus[0]?.model?.trim() || 'unknown CPU';
  const memory = `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`;
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  return `${model}, ${cpus.length} cores, ${memory} memory, ${os.type()} ${os.release()}, Node ${process.version}; load average (1/5/15 min) at the start ${load}`;
}

/** The commit the benchmarks ran on, with "+ changes" when the work tree differs from it. */
export function commitSummary(cwd = process.cwd()) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown (not a git work tree)';
  }
}

/**
 * RESULTS.md for one run.
 * @param {{ date: Date, machine: string, commit: string, command: string,
 *           steps: { file: string, status: number | null, seconds: number, output: string }[] }} run
 */
export function renderResults({ date, machine, commit, command, steps }) {
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`${command}\` on ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC; the next run replaces this file.`,
    'What each figure means, and the targets, is in [docs/performance.md](../docs/performance.md). Absolute times',
    'depend on the machine and its load; the ratios are measured side by side in one run.',
    '',
    `- Machine: ${machine}`,
    `- Commit: ${commit}`,
    '',
  ];
  for (const step of steps) {
    const outcome = step.status === 0 ? '' : step.status === null ? ' — did not finish' : ` — exit code ${step.status}`;
    lines.push(`## ${step.file}${outcome}`, '', `Ran for ${step.seconds.toFixed(0)} s.`, '', '```text');
    const output = step.output.replace(ANSI, '').replace(/\r\n?/g, '\n').replace(/```/g, "'''").trimEnd();
    lines.push(output === '' ? '(no output)' : output, '```', '');
  }
  return lines.join('\n');
}

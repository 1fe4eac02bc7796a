// The writer of the benchmark results: one section file per benchmark (bench/results/<name>.md: what it printed,
// with the date, commit, machine, load average and command of the run that made it) and bench/RESULTS.md assembled
// from the sections (an index, issue 28's before/after table, then every section). scripts/bench.mjs runs the
// benchmarks and does the file reading and writing; everything here is a pure function of its arguments, apart from
// machineSummary, loadSummary and commitSummary, which read the machine and git.
//
// A benchmark reports a figure against a target by printing one line where it prints the figure:
//   ::target <id> <value> <unit>
// The ids, their before figures and targets are in bench/baseline/issue-28.json; the line becomes
// "before -> now (target, met/missed)" here.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** Terminal colour codes some tools print; they mean nothing in a markdown file. */
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const TARGET_LINE = /^::target (\S+) (\S+) (\S+)\s*$/;
const META = /^<!-- bench-section (\{.*\}) -->$/m;

/** The machine in one line: CPU, cores, memory, OS, Node. */
export function machineSummary() {
  const cpus = os.cpus();
  const model = cpus[0]?.model?.trim() || 'unknown CPU';
  return `${model}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB memory, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** The load average now (1 / 5 / 15 min). */
export function loadSummary() {
  return os.loadavg().map((l) => l.toFixed(1)).join(' / ');
}

/**
 * The commit the benchmarks ran on, with "+ uncommitted changes" when the work tree differs from it (the results
 * files themselves, which the runs rewrite, do not count).
 */
export function commitSummary(cwd = process.cwd()) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const results = [':(exclude)bench/RESULTS.md', ':(exclude)bench/results'];
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ...results], { cwd, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown (not a git work tree)';
  }
}

/** `bench/first-load.bench.ts` → `first-load`: the section's name and file name. */
export function sectionName(file) {
  return file.replace(/^.*\//, '').replace(/(\.bench)?\.[cm]?[jt]s$/, '');
}

/** The `::target` lines of a benchmark's output, in order. */
export function parseTargets(output) {
  const found = [];
  for (const line of output.split(/\r?\n/)) {
    const m = TARGET_LINE.exec(line.replace(ANSI, '').trim());
    if (m && Number.isFinite(Number(m[2]))) found.push({ id: m[1], value: Number(m[2]), unit: m[3] });
  }
  return found;
}

/** A figure as the tables show it: thousands separated, digits by unit. */
export function formatValue(value, unit) {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value[0] === value[1] ? formatValue(value[0], unit) : `${formatNumber(value[0], unit)}–${formatValue(value[1], unit)}`;
  if (unit === 'x') return `${formatNumber(value, unit)}×`;
  return `${formatNumber(value, unit)} ${unit}`;
}

function formatNumber(value, unit) {
  const digits = unit === 'x' ? 2 : unit === 's' || Math.abs(value) < 10 ? 1 : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function formatTarget(target, unit) {
  return target ? `${target.op === '<=' ? '≤' : '≥'} ${formatValue(target.value, unit)}` : '—';
}

/**
 * One target's figures in a run, judged: a target printed more than once is judged on its worst value (the
 * largest for "≤", the smallest for "≥").
 */
export function judgeTarget(entry, values) {
  if (values.length === 0) return { value: null, verdict: 'not measured' };
  const worst = entry.target?.op === '>=' ? Math.min(...values) : Math.max(...values);
  if (!entry.target) return { value: worst, verdict: 'information' };
  const met = entry.target.op === '>=' ? worst >= entry.target.value : worst <= entry.target.value;
  return { value: worst, verdict: met ? 'met' : 'missed' };
}

/** The baseline's entry for an id, or an information-only entry for an id the baseline does not list. */
function entryFor(baseline, id, unit) {
  return baseline?.targets?.find((t) => t.id === id) ?? { id, measure: id, unit, before: null, target: null };
}

/** "label: before → now (target, met)" for one `::target` line, as the terminal and the section show it. */
export function describeTarget(baseline, { id, value, unit }) {
  const entry = entryFor(baseline, id, unit);
  const { verdict } = judgeTarget(entry, [value]);
  const before = entry.before === null ? 'no before figure' : formatValue(entry.before, entry.unit);
  const judged = entry.target ? `${formatTarget(entry.target, entry.unit)}, ${verdict}` : 'information, no target';
  return `issue ${baseline?.issue ?? '?'} · ${entry.measure}: ${before} → ${formatValue(value, unit)} (${judged})`;
}

/** The before/after rows for the targets a run printed (or, with `all`, every target in the baseline). */
export function targetRows(baseline, targets, { all = false, ids = null } = {}) {
  const seen = [...new Set(targets.map((t) => t.id))];
  const listed = (baseline?.targets ?? []).map((t) => t.id);
  const order = all ? [...listed, ...seen.filter((id) => !listed.includes(id))] : seen;
  return order
    .filter((id) => !ids || ids.includes(id))
    .map((id) => {
      const unit = targets.find((t) => t.id === id)?.unit;
      const entry = entryFor(baseline, id, unit);
      const { value, verdict } = judgeTarget(entry, targets.filter((t) => t.id === id).map((t) => t.value));
      return { entry, value, verdict };
    });
}

/** The before/after table in markdown; `where` gives the last column (the section a figure comes from). */
export function renderTargetTable(baseline, rows, where = null) {
  const lines = [
    `| measure | before (${baseline?.beforeCommit ?? '?'}) | now | target | verdict |${where ? ' measured in |' : ''}`,
    `| --- | ---: | ---: | --- | --- |${where ? ' --- |' : ''}`,
  ];
  for (const { entry, value, verdict } of rows) {
    const now = value === null ? '—' : formatValue(value, entry.unit);
    const mark = verdict === 'met' ? '**met**' : verdict === 'missed' ? '**missed**' : verdict;
    lines.push(`| ${entry.measure} | ${formatValue(entry.before, entry.unit)} | ${now} | ${formatTarget(entry.target, entry.unit)} | ${mark} |${where ? ` ${where(entry)} |` : ''}`);
  }
  return lines.join('\n');
}

/** A benchmark's printed output for a markdown code block: no colours, no fences, `::target` lines spelled out. */
export function cleanOutput(output, baseline) {
  const text = output
    .replace(ANSI, '')
    .replace(/\r\n?/g, '\n')
    .replace(/```/g, "'''")
    .split('\n')
    .map((line) => {
      const [target] = parseTargets(line);
      return target ? `→ ${describeTarget(baseline, target)}` : line;
    })
    .join('\n')
    .trimEnd();
  return text === '' ? '(no output)' : text;
}

/** A run's time to the minute; a day alone stays a day (sections carried over from before these files had times). */
/** The end of a failed benchmark's standard error: where it says why. */
function errorTail(errors, lines = 12) {
  return cleanOutput(errors, null).split('\n').slice(-lines).join('\n');
}

const isoMinute = (date) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? date : new Date(date).toISOString().slice(0, 16).replace('T', ' ') + ' UTC');

/**
 * A section file for one benchmark's run. `run`: { file, command, date, commit, machine, load, status, seconds,
 * output }. Its first line holds the run's facts as JSON, so that RESULTS.md can be assembled again later.
 */
export function renderSection(run, baseline) {
  const targets = parseTargets(run.output);
  const meta = { file: run.file, date: new Date(run.date).toISOString(), commit: run.commit, machine: run.machine, load: run.load, command: run.command, status: run.status, seconds: Math.round(run.seconds), targets };
  const outcome = run.status === 0 ? '' : run.status === null ? ' — did not finish' : ` — exit code ${run.status}`;
  const lines = [
    `<!-- bench-section ${JSON.stringify(meta)} -->`,
    `## ${sectionName(run.file)} (\`${run.file}\`)${outcome}`,
    '',
    `Written by \`${run.command}\` on ${isoMinute(run.date)}; ran for ${meta.seconds} s.`,
    '',
    `- Commit: ${run.commit}`,
    `- Machine: ${run.machine}`,
    `- Load average (1 / 5 / 15 min) at its start: ${run.load}`,
    '',
  ];
  if (targets.length > 0) lines.push(renderTargetTable(baseline, targetRows(baseline, targets)), '');
  lines.push('```text', cleanOutput(run.output, baseline), '```', '');
  if (run.status !== 0 && run.errors) lines.push('Standard error, last lines:', '', '```text', errorTail(run.errors), '```', '');
  return lines.join('\n');
}

/** The facts of a section file (null when the text is not one). */
export function parseSection(markdown) {
  const m = markdown ? META.exec(markdown) : null;
  if (!m) return null;
  try {
    return JSON.parse(m[1]);
  } catch {
    return null;
  }
}

/**
 * The section to keep after a run: the new one, or, when the run failed and an earlier section exists, the earlier
 * one with a note that this run failed (and the end of what it printed), its figures left as they were.
 */
export function nextSection(previous, run, baseline) {
  const earlier = parseSection(previous);
  if (run.status === 0 || !earlier) return renderSection(run, baseline);
  const failure = { date: new Date(run.date).toISOString(), commit: run.commit, command: run.command, status: run.status };
  const meta = { ...earlier, lastFailure: failure };
  const tail = [cleanOutput(run.output, baseline).split('\n').slice(-8).join('\n'), run.errors ? errorTail(run.errors) : ''].filter(Boolean).join('\n');
  const note = [
    `> **The last run failed** (${run.status === null ? 'did not finish' : `exit code ${run.status}`}): \`${run.command}\` on ${isoMinute(run.date)} at ${run.commit}.`,
    `> The figures below are from the earlier run on ${isoMinute(earlier.date)} at ${earlier.commit}. The failed run's last lines:`,
    '',
    '```text',
    tail,
    '```',
    '',
  ].join('\n');
  const body = previous.replace(META, '').replace(/^\n/, '').replace(/^> \*\*The last run failed\*\*[\s\S]*?```text[\s\S]*?```\n\n/m, '');
  const [heading, ...rest] = body.split('\n');
  return [`<!-- bench-section ${JSON.stringify(meta)} -->`, heading, '', note, ...rest.slice(1)].join('\n');
}

/** One index row: the benchmark, its section's run, and whether the latest run re-ran it. */
function indexRow(step, facts, rerun) {
  if (!facts) return `| ${step.file} | no results yet | | |`;
  const link = `[${step.file}](results/${sectionName(step.file)}.md)`;
  const when = `${isoMinute(facts.date)}, ${facts.commit}`;
  const state = facts.lastFailure
    ? `**failed** on ${isoMinute(facts.lastFailure.date)} at ${facts.lastFailure.commit}; figures from ${facts.date.slice(0, 10)}`
    : facts.status !== 0
      ? `**failed** (${facts.status === null ? 'did not finish' : `exit code ${facts.status}`}), no earlier figures`
      : rerun
        ? 're-run by the last run'
        : `not re-run since ${facts.commit} (${facts.date.slice(0, 10)})`;
  const seconds = Number.isFinite(facts.seconds) ? `${facts.seconds} s` : '';
  return `| ${link} | ${when} | ${seconds} | ${state}${facts.note ? `; ${facts.note}` : ''} |`;
}

/**
 * bench/RESULTS.md from the section files. `steps`: every benchmark `npm run bench` runs, in order, each with the
 * text of its section file or null; `lastRun`: { command, date, files (those it ran) }; `baseline`: issue 28's.
 */
export function assembleResults({ steps, lastRun, baseline }) {
  const facts = steps.map((s) => parseSection(s.section));
  const lines = [
    '# Benchmark results',
    '',
    'Generated by `npm run bench` (scripts/bench.mjs) from the section files in [results/](results/): each benchmark\'s',
    'section is written by the run that ran it, with that run\'s date, commit, machine and load, so sections may come',
    'from different runs; the index says which. Do not edit by hand: run the benchmarks. What each figure means and',
    'the targets are in [docs/performance.md](../docs/performance.md); absolute times depend on the machine and its',
    'load, the ratios are measured side by side in one run.',
    '',
    `Last assembled after \`${lastRun.command}\` on ${isoMinute(lastRun.date)} (it ran ${lastRun.files.length} of ${steps.length} benchmarks).`,
    '',
    '| benchmark | section written (UTC, commit) | ran for | state |',
    '| --- | --- | ---: | --- |',
    ...steps.map((s, i) => indexRow(s, facts[i], lastRun.files.includes(s.file))),
    '',
  ];
  if (baseline) lines.push(...beforeAfter(baseline, steps, facts));
  steps.forEach((s, i) => {
    if (!s.section || !facts[i]) return;
    lines.push(s.section.replace(META, '').replace(/^\n/, '').trimEnd(), '');
  });
  return lines.join('\n');
}

/** Issue 28's before/after table over every section: each target's latest figure and the section it came from. */
function beforeAfter(baseline, steps, facts) {
  const targets = facts.flatMap((f) => (f ? f.targets.map((t) => ({ ...t, file: f.file, date: f.date, commit: f.commit })) : []));
  const rows = targetRows(baseline, targets, { all: true, ids: baseline.targets.map((t) => t.id) });
  const where = (entry) => {
    const from = targets.find((t) => t.id === entry.id);
    if (from) return `[${sectionName(from.file)}](results/${sectionName(from.file)}.md), ${from.date.slice(0, 10)}, ${from.commit}`;
    const step = steps.findIndex((s) => s.file === entry.bench);
    return step < 0 || !facts[step] ? `${entry.bench}: not run yet` : `not in the ${sectionName(entry.bench)} section (${facts[step].date.slice(0, 10)}, ${facts[step].commit})`;
  };
  return [
    `## Issue ${baseline.issue}: before and after`,
    '',
    `Before: commit ${baseline.beforeCommit}, ${baseline.beforeCommitWhy}; where each before figure comes from is in`,
    `[baseline/issue-${baseline.issue}.json](baseline/issue-${baseline.issue}.json). Now: the latest section of the benchmark named.`,
    '',
    renderTargetTable(baseline, rows, where),
    '',
  ];
}

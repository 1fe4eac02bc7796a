// `node --test scripts/bench-results.test.mjs`: the benchmark results are assembled from their sections as the
// docs say (sections in, document out), a failed run keeps the earlier figures, and `::target` lines become the
// before/after table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { assembleResults, describeTarget, judgeTarget, nextSection, parseSection, parseTargets, renderSection, sectionName } from './bench-results.mjs';

const baseline = {
  issue: 28,
  beforeCommit: 'abc0001',
  beforeCommitWhy: 'before the work',
  targets: [
    { id: 'page.paint', bench: 'bench/first-load.bench.ts', measure: 'first paint', unit: 'ms', before: [822, 844], target: { op: '<=', value: 800 } },
    { id: 'embed.rate', bench: 'bench/semantic.bench.ts', measure: 'sentences/s', unit: '/s', before: 32400, target: { op: '>=', value: 100000 } },
    { id: 'cli.rss', bench: 'bench/cli-50mib.ts', measure: 'peak RSS', unit: 'MiB', before: null, target: { op: '<=', value: 2048 } },
  ],
};
const run = (over) => ({
  file: 'bench/first-load.bench.ts',
  command: 'npm run bench: npx tsx bench/first-load.bench.ts',
  date: new Date('2026-12-05T03:30:00Z'),
  commit: 'def5678',
  machine: 'a CPU, 2 cores',
  load: '2.0 / 3.0 / 4.0',
  status: 0,
  seconds: 61.4,
  output: 'first chunks painted 612 ms\n::target page.paint 612.4 ms\n',
  ...over,
});

test('section names drop the folder and the .bench.ts / .ts ending', () => {
  assert.equal(sectionName('bench/first-load.bench.ts'), 'first-load');
  assert.equal(sectionName('bench/cli-50mib.ts'), 'cli-50mib');
});

test('::target lines are read wherever they are printed, colours and other lines ignored', () => {
  const out = 'x\n\u001b[1m::target a.b 12.5 ms\u001b[0m\n::target c 3 x\r\nnot ::target d 1 ms\n::target e NaN ms\n';
  assert.deepEqual(parseTargets(out), [
    { id: 'a.b', value: 12.5, unit: 'ms' },
    { id: 'c', value: 3, unit: 'x' },
  ]);
});

test('a target printed more than once is judged on its worst value, in the target\'s direction', () => {
  assert.deepEqual(judgeTarget(baseline.targets[2], [300, 2100, 900]), { value: 2100, verdict: 'missed' });
  assert.deepEqual(judgeTarget(baseline.targets[1], [120000, 99000]), { value: 99000, verdict: 'missed' });
  assert.deepEqual(judgeTarget(baseline.targets[0], [799]), { value: 799, verdict: 'met' });
  assert.deepEqual(judgeTarget(baseline.targets[0], []), { value: null, verdict: 'not measured' });
});

test('the terminal line reads before → now (target, verdict)', () => {
  assert.equal(describeTarget(baseline, { id: 'page.paint', value: 612.4, unit: 'ms' }), 'issue 28 · first paint: 822–844 ms → 612 ms (≤ 800 ms, met)');
  assert.equal(describeTarget(baseline, { id: 'embed.rate', value: 86000, unit: '/s' }), 'issue 28 · sentences/s: 32,400 /s → 86,000 /s (≥ 100,000 /s, missed)');
  assert.equal(describeTarget(baseline, { id: 'other', value: 1.5, unit: 'x' }), 'issue 28 · other: no before figure → 1.50× (information, no target)');
});

test('a section carries the date, commit, machine, load and command, the before/after table and the output', () => {
  const md = renderSection(run({ output: '\u001b[1mratio\u001b[0m 2.8x\r\n```\n::target page.paint 612.4 ms\n' }), baseline);
  assert.match(md, /^<!-- bench-section \{.*\} -->\n## first-load \(`bench\/first-load.bench.ts`\)\n/);
  assert.ok(md.includes('Written by `npm run bench: npx tsx bench/first-load.bench.ts` on 2026-12-05 03:30 UTC; ran for 61 s.'));
  assert.ok(md.includes('- Commit: def5678\n- Machine: a CPU, 2 cores\n- Load average (1 / 5 / 15 min) at its start: 2.0 / 3.0 / 4.0'));
  assert.ok(md.includes('| first paint | 822–844 ms | 612 ms | ≤ 800 ms | **met** |'));
  assert.ok(md.includes("```text\nratio 2.8x\n'''\n→ issue 28 · first paint: 822–844 ms → 612 ms (≤ 800 ms, met)\n```"));
  assert.equal(md.match(/```/g).length, 2);
  const facts = parseSection(md);
  assert.equal(facts.commit, 'def5678');
  assert.deepEqual(facts.targets, [{ id: 'page.paint', value: 612.4, unit: 'ms' }]);
});

test('a failed run keeps the earlier section and its figures, and says it failed', () => {
  const earlier = renderSection(run(), baseline);
  const failedRun = run({ status: 1, commit: 'fff0000', date: new Date('2026-12-06T01:00:00Z'), output: 'loading\n', errors: 'Error: vite preview exited with 1\n' });
  const kept = nextSection(earlier, failedRun, baseline);
  const facts = parseSection(kept);
  assert.equal(facts.commit, 'def5678');
  assert.equal(facts.status, 0);
  assert.deepEqual(facts.targets, parseSection(earlier).targets);
  assert.deepEqual(facts.lastFailure, { date: '2026-12-06T01:00:00.000Z', commit: 'fff0000', command: failedRun.command, status: 1 });
  assert.ok(kept.includes('**The last run failed** (exit code 1)'));
  assert.ok(kept.includes('Error: vite preview exited with 1'));
  assert.ok(kept.includes('first chunks painted 612 ms'), 'the earlier output stays');
  // Failing again replaces the note instead of stacking notes; a success replaces the whole section.
  const twice = nextSection(kept, run({ status: null, commit: 'fff0001', output: 'killed' }), baseline);
  assert.equal(twice.match(/The last run failed/g).length, 1);
  assert.ok(twice.includes('(did not finish)') && twice.includes('fff0001') && !twice.includes('fff0000'));
  assert.ok(twice.includes('first chunks painted 612 ms'));
  const fixed = nextSection(twice, run({ commit: 'aaa1111' }), baseline);
  assert.ok(!fixed.includes('failed'));
  assert.equal(parseSection(fixed).commit, 'aaa1111');
});

test('a failed run with no earlier section is written as failed, with the end of its standard error', () => {
  const errors = `${Array.from({ length: 30 }, (_, i) => `frame ${i}`).join('\n')}\nError: Build failed\n`;
  const md = nextSection(null, run({ status: 2, output: '', errors }), baseline);
  assert.ok(md.includes('## first-load (`bench/first-load.bench.ts`) — exit code 2'));
  assert.ok(md.includes('```text\n(no output)\n```'));
  assert.ok(md.includes('Standard error, last lines:\n\n```text\nframe 19\n'));
  assert.ok(md.includes('frame 29\nError: Build failed\n```') && !md.includes('frame 18'));
  assert.ok(!renderSection(run({ errors: 'a warning' }), baseline).includes('Standard error'), 'a run that passed shows no standard error');
});

test('RESULTS.md: an index of every benchmark, the before/after table across sections, then the sections', () => {
  const firstLoad = renderSection(run(), baseline);
  const semantic = renderSection(run({ file: 'bench/semantic.bench.ts', commit: 'old0001', date: new Date('2026-12-01T10:00:00Z'), output: '::target embed.rate 86000 /s\n' }), baseline);
  const failed = nextSection(renderSection(run({ file: 'bench/cli-50mib.ts', output: 'table\n' }), baseline), run({ file: 'bench/cli-50mib.ts', status: 1, commit: 'bad0002' }), baseline);
  const md = assembleResults({
    steps: [
      { file: 'bench/node.bench.ts', section: null },
      { file: 'bench/first-load.bench.ts', section: firstLoad },
      { file: 'bench/semantic.bench.ts', section: semantic },
      { file: 'bench/cli-50mib.ts', section: failed },
    ],
    lastRun: { command: 'npm run bench (CHUNKSCOPE_BENCH_ONLY=first-load,cli)', date: new Date('2026-12-05T03:30:00Z'), files: ['bench/first-load.bench.ts', 'bench/cli-50mib.ts'] },
    baseline,
  });
  assert.ok(md.startsWith('# Benchmark results\n'));
  assert.ok(md.includes('(it ran 2 of 4 benchmarks)'));
  assert.ok(md.includes('| bench/node.bench.ts | no results yet | | |'));
  assert.ok(md.includes('| [bench/first-load.bench.ts](results/first-load.md) | 2026-12-05 03:30 UTC, def5678 | 61 s | re-run by the last run |'));
  assert.ok(md.includes('| [bench/semantic.bench.ts](results/semantic.md) | 2026-12-01 10:00 UTC, old0001 | 61 s | not re-run since old0001 (2026-12-01) |'));
  assert.ok(md.includes('| [bench/cli-50mib.ts](results/cli-50mib.md) | 2026-12-05 03:30 UTC, def5678 | 61 s | **failed** on 2026-12-05 03:30 UTC at bad0002; figures from 2026-12-05 |'));
  assert.ok(md.includes('## Issue 28: before and after'));
  assert.ok(md.includes('| first paint | 822–844 ms | 612 ms | ≤ 800 ms | **met** | [first-load](results/first-load.md), 2026-12-05, def5678 |'));
  assert.ok(md.includes('| sentences/s | 32,400 /s | 86,000 /s | ≥ 100,000 /s | **missed** | [semantic](results/semantic.md), 2026-12-01, old0001 |'));
  assert.ok(md.includes('| peak RSS | — | — | ≤ 2,048 MiB | not measured | not in the cli-50mib section (2026-12-05, def5678) |'));
  // Each section once, in the benchmarks' order, without its facts comment; fences balanced.
  assert.ok(md.indexOf('## first-load (') < md.indexOf('## semantic (') && md.indexOf('## semantic (') < md.indexOf('## cli-50mib ('));
  assert.ok(!md.includes('<!-- bench-section'));
  assert.equal(md.match(/```/g).length % 2, 0);
});

test('the committed baseline names a before commit and, for every target, a bench, a unit, a source and a target or none', () => {
  const real = JSON.parse(readFileSync(new URL('../bench/baseline/issue-28.json', import.meta.url), 'utf8'));
  assert.match(real.beforeCommit, /^[0-9a-f]{7,40}$/);
  const ids = real.targets.map((t) => t.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const t of real.targets) {
    assert.match(t.bench, /^bench\/.+\.ts$/, t.id);
    assert.ok(['ms', 's', 'KiB', 'MiB', 'x', '/s'].includes(t.unit), t.id);
    assert.ok(typeof t.source === 'string' && t.source.length > 0, t.id);
    assert.ok(t.target === null || (['<=', '>='].includes(t.target.op) && Number.isFinite(t.target.value)), t.id);
    assert.ok(t.before === null || Number.isFinite(t.before) || (Array.isArray(t.before) && t.before.length === 2), t.id);
  }
});

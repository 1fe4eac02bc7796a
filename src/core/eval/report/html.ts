import { COMPARED_METRICS } from '../significance';
import { failureRows, figure, meanRows, METRIC_LABELS, pValueText, setAsideLines, signed, valueText, verdictText, type ReportInput, type ReportRun } from './model';
import { barChart, escapeHtml as e, lineChart } from './svg';

/**
 * The report as one self-contained HTML file: inline CSS and SVG, no script (a Content-Security-Policy forbids any),
 * every document and question text escaped.
 */
export function reportHtml(input: ReportInput): string {
  const title = input.runs.length > 1 ? 'Chunkscope comparison' : 'Chunkscope evaluation';
  const body = [
    `<h1>${title}</h1>`,
    input.generated ? `<p class="muted">Made ${e(input.generated)} by chunkscope.</p>` : '',
    input.significance ? `<p class="verdict">${e(verdictText(input.significance, [input.runs[0]!.label, input.runs[1]!.label]))}</p>` : '',
    configurationSection(input),
    corpusSection(input),
    meansSection(input),
    input.significance ? significanceSection(input) : '',
    chartsSection(input),
    failuresSection(input),
    questionsSection(input),
  ].join('\n');
  return htmlPage(title, STYLE, body);
}

/**
 * A report as one self-contained page: no script, nothing fetched (its policy allows only inline styles and data:
 * images, the charts being inline SVG), so a downloaded report opens safely from disk. `body` is markup already
 * escaped by its builder.
 */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;max-width:980px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:#666}.verdict{font-size:1.1rem;font-weight:600;padding:.5rem .8rem;background:#f1f5ff;border-left:4px solid #1f6feb}
figure{margin:1rem 0}figcaption{color:#555;font-size:.9rem}ul.failures{margin:.2rem 0 .6rem 1rem;padding:0;color:#444}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}th,td{border-color:#444}.verdict{background:#1a2233}svg{background:#fff}}`;

function table(head: string[], rows: string[][], numeric: boolean[] = []): string {
  const cls = (i: number) => (numeric[i] ? ' class="n"' : '');
  return `<table><thead><tr>${head.map((h, i) => `<th${cls(i)}>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function configurationSection(input: ReportInput): string {
  const keys = [...new Set(input.runs.flatMap((r) => Object.keys(r.result.configuration)))];
  const head = ['Option', ...input.runs.map((r) => e(r.label))];
  // Options whose values differ between A and B are in bold.
  const differs = (k: string) => new Set(input.runs.map((r) => valueText(r.result.configuration[k]))).size > 1;
  const rows = keys.map((k) => [differs(k) ? `<strong>${e(k)}</strong>` : e(k), ...input.runs.map((r) => (k in r.result.configuration ? `<code>${e(valueText(r.result.configuration[k]))}</code>` : '–'))]);
  return `<h2>Configuration</h2>${table(head, rows)}`;
}

function corpusSection(input: ReportInput): string {
  const run = input.runs[0]!.result;
  const docs = run.byDocument.map((d) => [e(d.document), String(d.questions), String(d.chunks)]);
  const setAside = setAsideLines(run);
  return (
    `<h2>Corpus and questions</h2>` +
    `<p>${run.index.documents} document${run.index.documents === 1 ? '' : 's'}, ${run.measured} question${run.measured === 1 ? '' : 's'} measured` +
    (run.skipped.length > 0 ? `, ${run.skipped.length} set aside (not scored)` : '') +
    `; k = ${run.k}.</p>` +
    (setAside.length > 0 ? `<ul>${setAside.map((l) => `<li>${e(l)}</li>`).join('')}</ul>` : '') +
    (input.files.length > 0 ? `<p class="muted">Files: ${input.files.map((f) => `<code>${e(f)}</code>`).join(', ')}</p>` : '') +
    table(['Document', 'Questions', input.runs.length > 1 ? `Chunks (${e(input.runs[0]!.label)})` : 'Chunks'], docs, [false, true, true])
  );
}

function meansSection(input: ReportInput): string {
  const parts = input.runs.map((r) => {
    const rows = meanRows(r.result).map((m) => [e(m.metric), figure(m.pooled, m.metric), m.mean === null ? '–' : `${figure(m.mean, m.metric)} ± ${figure(m.std!, m.metric)}`]);
    const caption = input.runs.length > 1 ? `<h3>${e(r.label)}</h3>` : '';
    return caption + table(['Metric', 'Pooled mean', `Across ${r.result.spread.documents} document${r.result.spread.documents === 1 ? '' : 's'} (mean ± std)`], rows, [false, true, true]);
  });
  const byDoc = input.runs.map((r) => {
    const rows = r.result.byDocument.map((d) => [e(d.document), String(d.questions), ...(['recall', 'iou', 'precisionOmega', 'reciprocalRank'] as const).map((m) => (d.means ? figure(d.means[m], METRIC_LABELS[m]) : '–')), d.rankMeans ? figure(d.rankMeans.ndcg, 'NDCG@k') : '–']);
    return (input.runs.length > 1 ? `<h3>${e(r.label)} per document</h3>` : '<h3>Per document</h3>') + table(['Document', 'Questions', 'Recall', 'IoU', 'Precision-Ω', 'MRR', 'NDCG@k'], rows, [false, true, true, true, true, true, true]);
  });
  return `<h2>Means</h2>${parts.join('')}${byDoc.join('')}`;
}

function significanceSection(input: ReportInput): string {
  const s = input.significance!;
  const [a, b] = input.runs as [ReportInput['runs'][0], ReportInput['runs'][0]];
  const value = (r: ReportRun, m: (typeof COMPARED_METRICS)[number]) => (m === 'ndcg' ? r.rankMeans.ndcg : m === 'map' ? r.rankMeans.map : r.means[m]);
  const rows = COMPARED_METRICS.map((m) => {
    const d = s.difference[m];
    return [e(METRIC_LABELS[m]) + (m === s.metric ? ' (verdict)' : ''), figure(value(a.result, m), METRIC_LABELS[m]), figure(value(b.result, m), METRIC_LABELS[m]), signed(d.mean, METRIC_LABELS[m]), `${signed(d.ci95[0], METRIC_LABELS[m])} to ${signed(d.ci95[1], METRIC_LABELS[m])}`, pValueText(d.pValue) + (d.test === 'normal' ? ' (normal approx.)' : ' (exact)'), `${d.wins} / ${d.losses} / ${d.ties}`];
  });
  return (
    `<h2>Significance</h2><p>Paired by question: difference = ${e(b.label)} − ${e(a.label)}; 95% interval from ${s.resamples} bootstrap resamples (seed ${s.seed}); ` +
    `p from Wilcoxon's signed-rank test; wins / losses / ties are ${e(b.label)}'s. A winner is named only when p &lt; ${s.alpha}.</p>` +
    table(['Metric', e(a.label), e(b.label), 'Difference', '95% CI', 'p', 'Wins / losses / ties'], rows, [false, true, true, true, true, true, true])
  );
}

function chartsSection(input: ReportInput): string {
  const curve = lineChart(
    input.runs.map((r) => ({ label: r.label, points: r.result.recallCurve.map((p) => ({ x: p.k, y: p.recall })) })),
    { title: 'Recall@k for k = 1..20', xLabel: 'k', yLabel: 'mean recall' },
  );
  const docs = input.runs[0]!.result.byDocument.map((d) => d.document);
  const bars = barChart(docs, input.runs.map((r) => ({ label: r.label, values: r.result.byDocument.map((d) => d.means?.recall ?? null) })), { title: 'Recall per document' });
  return `<h2>Charts</h2><figure>${curve}<figcaption>Mean recall of the first k chunks retrieved, k = 1..20 (the evaluation's k is ${input.runs[0]!.result.k}).</figcaption></figure><figure>${bars}<figcaption>Mean recall per document.</figcaption></figure>`;
}

function failuresSection(input: ReportInput): string {
  const parts = input.runs.map((r) => {
    const rows = failureRows(r.result).map((f) => [e(f.label), String(f.questions), f.share]);
    const head = input.runs.length > 1 ? `<h3>${e(r.label)}</h3>` : '';
    return head + (rows.length > 0 ? table(['Why', 'Questions', 'Share of measured'], rows, [false, true, true]) : '<p>No question failed.</p>');
  });
  return `<h2>Failures by kind</h2>${parts.join('')}`;
}

function questionsSection(input: ReportInput): string {
  const run = input.runs[input.runs.length - 1]!;
  const failing = run.result.questions.filter((q) => q.failures.length > 0);
  if (failing.length === 0) return '';
  const items = failing.map(
    (q) => `<li><strong>${e(q.question)}</strong> <span class="muted">(${e(q.document)}; recall ${figure(q.metrics.recall)})</span><ul class="failures">${q.failures.map((f) => `<li>${e(f.message)}</li>`).join('')}</ul></li>`,
  );
  return `<h2>Questions that missed${input.runs.length > 1 ? ` (${e(run.label)})` : ''}</h2><ol>${items.join('')}</ol>`;
}

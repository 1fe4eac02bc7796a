import { COMPARED_METRICS } from '../significance';
import { failureRows, figure, meanRows, METRIC_LABELS, pValueText, setAsideLines, signed, valueText, verdictText, type ReportInput, type ReportRun } from './model';

/**
 * The report as markdown, for a design document or a pull request. Text from documents and questions is made inert:
 * HTML characters become entities (markdown renderers pass HTML through) and table cells keep to one line.
 */
export function reportMarkdown(input: ReportInput): string {
  const out: string[] = [`# ${input.runs.length > 1 ? 'Chunkscope comparison' : 'Chunkscope evaluation'}`, ''];
  if (input.significance) out.push(`**${md(verdictText(input.significance, [input.runs[0]!.label, input.runs[1]!.label]))}**`, '');
  out.push('## Configuration', '', ...configuration(input), '');
  const run = input.runs[0]!.result;
  out.push('## Corpus and questions', '', `${run.index.documents} documents, ${run.measured} questions measured${run.skipped.length > 0 ? `, ${run.skipped.length} set aside (not scored)` : ''}; k = ${run.k}.`, '');
  for (const line of setAsideLines(run)) out.push(`- ${md(line)}`);
  if (input.files.length > 0) out.push('', `Files: ${input.files.map(md).join(', ')}`);
  out.push('', '## Means', '');
  for (const r of input.runs) {
    if (input.runs.length > 1) out.push(`### ${md(r.label)}`, '');
    out.push(...markdownRows(['Metric', 'Pooled mean', `Across ${r.result.spread.documents} documents (mean ± std)`], meanRows(r.result).map((m) => [m.metric, figure(m.pooled, m.metric), m.mean === null ? '–' : `${figure(m.mean, m.metric)} ± ${figure(m.std!, m.metric)}`])), '');
    out.push(...markdownRows(['Document', 'Questions', 'Recall', 'IoU', 'MRR', 'NDCG@k'], r.result.byDocument.map((d) => [d.document, String(d.questions), d.means ? figure(d.means.recall) : '–', d.means ? figure(d.means.iou) : '–', d.means ? figure(d.means.reciprocalRank, 'MRR') : '–', d.rankMeans ? figure(d.rankMeans.ndcg, 'NDCG@k') : '–'])), '');
  }
  if (input.significance) out.push(...significance(input), '');
  out.push('## Recall@k', '', ...markdownRows(['k', ...input.runs.map((r) => r.label)], run.recallCurve.map((p, i) => [String(p.k), ...input.runs.map((r) => figure(r.result.recallCurve[i]!.recall))])), '');
  out.push('## Failures by kind', '');
  for (const r of input.runs) {
    if (input.runs.length > 1) out.push(`### ${md(r.label)}`, '');
    const f = failureRows(r.result);
    out.push(...(f.length > 0 ? markdownRows(['Why', 'Questions', 'Share of measured'], f.map((x) => [x.label, String(x.questions), x.share])) : ['No question failed.']), '');
  }
  const last = input.runs[input.runs.length - 1]!;
  const failing = last.result.questions.filter((q) => q.failures.length > 0);
  if (failing.length > 0) {
    out.push(`## Questions that missed${input.runs.length > 1 ? ` (${md(last.label)})` : ''}`, '');
    failing.forEach((q, i) => {
      out.push(`${i + 1}. **${md(q.question)}** (${md(q.document)}; recall ${figure(q.metrics.recall)})`);
      for (const f of q.failures) out.push(`   - ${md(f.message)}`);
    });
    out.push('');
  }
  return out.join('\n') + '\n';
}

/** Inert markdown text: HTML characters as entities, markdown's emphasis and link characters escaped, one line. */
export function md(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#])/g, '\\$1')
    .replace(/\s*\r?\n\s*/g, ' ');
}

/** A markdown table, every cell made inert. */
export function markdownRows(head: string[], body: string[][]): string[] {
  return [`| ${head.map(md).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...body.map((r) => `| ${r.map(md).join(' | ')} |`)];
}

function configuration(input: ReportInput): string[] {
  const keys = [...new Set(input.runs.flatMap((r) => Object.keys(r.result.configuration)))];
  return markdownRows(['Option', ...input.runs.map((r) => r.label)], keys.map((k) => [k, ...input.runs.map((r) => (k in r.result.configuration ? valueText(r.result.configuration[k]) : '–'))]));
}

function significance(input: ReportInput): string[] {
  const s = input.significance!;
  const [a, b] = input.runs as [ReportInput['runs'][0], ReportInput['runs'][0]];
  const value = (r: ReportRun, m: (typeof COMPARED_METRICS)[number]) => (m === 'ndcg' ? r.rankMeans.ndcg : m === 'map' ? r.rankMeans.map : r.means[m]);
  return [
    '## Significance',
    '',
    `Paired by question: difference = ${md(b.label)} − ${md(a.label)}; 95% interval from ${s.resamples} bootstrap resamples (seed ${s.seed}); p from Wilcoxon's signed-rank test; wins / losses / ties are ${md(b.label)}'s. A winner is named only when p < ${s.alpha}.`,
    '',
    ...markdownRows(
      ['Metric', a.label, b.label, 'Difference', '95% CI', 'p', 'Wins / losses / ties'],
      COMPARED_METRICS.map((m) => {
        const d = s.difference[m];
        return [METRIC_LABELS[m] + (m === s.metric ? ' (verdict)' : ''), figure(value(a.result, m), METRIC_LABELS[m]), figure(value(b.result, m), METRIC_LABELS[m]), signed(d.mean, METRIC_LABELS[m]), `${signed(d.ci95[0], METRIC_LABELS[m])} to ${signed(d.ci95[1], METRIC_LABELS[m])}`, pValueText(d.pValue), `${d.wins} / ${d.losses} / ${d.ties}`];
      }),
    ),
  ];
}

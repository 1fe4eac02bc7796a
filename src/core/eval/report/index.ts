/** Evaluation, comparison and sweep reports: one self-contained HTML file (inline SVG) or markdown. */
export { reportHtml } from './html';
export { reportMarkdown, md as markdownText } from './markdown';
export { escapeHtml, lineChart, barChart } from './svg';
export { failureRows, meanRows, verdictText, FAILURE_LABELS, METRIC_LABELS, type ReportInput, type ReportRun } from './model';
export { sweepReportHtml, sweepReportMarkdown, sweepAxes, sweepMetrics, bestPoint, type SweepReportInput, type SweepReportPoint } from './sweep';

import type { ComparedMetric, Significance } from '../../core/eval/significance';
import { comparisonReportInput, downloadReport, runReportInput, sweepReportInput, withDocumentName, type ReportFormat, type ReportKind } from '../../state/labReport';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import './labVerdict.css';

/**
 * "Export report": the golden-set run, the comparison or the sweep as one self-contained HTML file (inline SVG, no
 * script) or as markdown, for a design document or a pull request. Disabled until there is something to report.
 */
export function ReportExport({ kind, significance }: { kind: ReportKind; significance?: Significance<ComparedMetric> | null }) {
  const run = useStore((s) => s.run);
  const comparison = useStore((s) => s.comparison);
  const sweep = useStore((s) => s.sweepState);
  const config = useStore(selectConfig);
  const golden = useStore((s) => s.golden);
  const docName = useStore((s) => s.docName);
  const input = () => {
    const made = new Date().toISOString();
    if (kind === 'run') return run ? runReportInput(withDocumentName(run.payload.result, docName), made) : null;
    if (kind === 'comparison') {
      const a = comparison?.runA?.result;
      const b = comparison?.runB?.result;
      return a && b && significance ? comparisonReportInput(withDocumentName(a, docName), withDocumentName(b, docName), significance, made) : null;
    }
    const measured = sweep?.points.some((p) => p.means) ?? false;
    return sweep && measured && !sweep.running ? sweepReportInput(sweep.points, config, golden.filter((q) => q.references.length > 0).length, docName ? [docName] : [], made) : null;
  };
  const ready = kind === 'run' ? !!run : kind === 'comparison' ? !!(comparison?.runA && comparison.runB && significance) : !!sweep && !sweep.running && sweep.points.some((p) => p.means);
  const save = (format: ReportFormat) => {
    const i = input();
    if (i) downloadReport(kind, i, format);
  };
  const what = kind === 'run' ? 'this run' : kind === 'comparison' ? 'this comparison' : 'this sweep';
  return (
    <span className="lab-report-export" role="group" aria-label="Export report">
      <span className="small muted">Export report:</span>
      <button type="button" className="link" disabled={!ready} onClick={() => save('html')} title={`One self-contained HTML file of ${what} (charts included, no script)`}>
        HTML
      </button>
      <button type="button" className="link" disabled={!ready} onClick={() => save('md')} title={`A markdown summary of ${what}`}>
        Markdown
      </button>
    </span>
  );
}

import { useEffect, useState } from 'react';
import type { ComparedMetric, Significance } from '../../core/eval/significance';
import { METRIC_LABELS as REPORT_LABELS, pValueText, signed } from '../../core/eval/report/model';
import { pinConfiguration, unpinConfiguration } from '../../state/controller';
import type { Config } from '../../state/configSlice';
import { compareRuns, DEFAULT_SIGNIFICANCE_LEVEL, SIGNIFICANCE_LEVELS, VERDICT_METRICS, verdictSentence } from '../../state/labCompare';
import { retrieverCaption } from '../../state/labBaseline';
import type { LabRun } from '../../state/labSlice';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import { strategyDefinition } from '../../state/strategyInfo';
import { formatNumber } from '../panels/format';
import { CiChart } from './CiChart';
import { pct } from './labCommon';
import { ReportExport } from './ReportExport';
import './labVerdict.css';

export function describeConfig(c: Config): string {
  return `${strategyDefinition(c.strategy).label} ${c.size}/${c.overlap} ${c.unit} · ${retrieverCaption(c.retriever, c.embedder)} k=${c.chunksInContext}`;
}

type RunResult = LabRun['payload']['result'];

/** The comparison with a pinned configuration: both means, the paired difference with its interval and test, and the verdict. */
export function CompareTab() {
  const pinned = useStore((s) => s.pinned);
  const config = useStore(selectConfig);
  const comparison = useStore((s) => s.comparison);
  const error = useStore((s) => s.compareError);
  const golden = useStore((s) => s.golden);
  const [alpha, setAlpha] = useState<number>(DEFAULT_SIGNIFICANCE_LEVEL);
  const [metricName, setMetricName] = useState<ComparedMetric>('recall');
  const a = comparison?.runA?.result;
  const b = comparison?.runB?.result;
  const significance = useSignificance(a, b, alpha, metricName);
  if (!pinned) {
    return (
      <div className="lab-compare">
        <p className="hint">Pin the current configuration as A, then change the controls (B): the editor draws the boundaries only in A, only in B and in both, and the golden set is scored on both.</p>
        <button type="button" className="primary" onClick={pinConfiguration}>
          Pin current as A
        </button>
      </div>
    );
  }
  return (
    <div className="lab-compare">
      <div className="lab-row">
        <span className="lab-config">
          <strong>A</strong> {describeConfig(pinned)}
        </span>
        <span className="lab-config">
          <strong>B</strong> {describeConfig(config)}
        </span>
        <span className="lab-spacer" />
        <button type="button" onClick={pinConfiguration} title="Pin the current configuration as A instead">
          Re-pin current
        </button>
        <button type="button" onClick={unpinConfiguration}>
          Unpin
        </button>
      </div>
      <p className="lab-diff-legend small" aria-hidden="true">
        <span className="lab-bnd lab-bnd-a">A</span> boundary only in A <span className="lab-bnd lab-bnd-b">B</span> only in B <span className="lab-bnd lab-bnd-both">|</span> in both
      </p>
      {error && (
        <p className="lab-error" role="status">
          {error}
        </p>
      )}
      {comparison && (
        <p className="muted small" data-testid="compare-counts">
          A: {formatNumber(comparison.starts.length)} chunks · B: {formatNumber(useStore.getState().result?.starts.length ?? 0)} chunks
        </p>
      )}
      {golden.length === 0 && <p className="hint">Add questions in the golden set to score A against B.</p>}
      {a && b && (
        <>
          <div className="lab-row lab-verdict-controls">
            <label>
              Verdict on{' '}
              <select aria-label="Verdict metric" value={metricName} onChange={(e) => setMetricName(e.target.value as ComparedMetric)}>
                {VERDICT_METRICS.map((m) => (
                  <option key={m} value={m}>
                    {REPORT_LABELS[m]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              at level α{' '}
              <select aria-label="Significance level" value={alpha} onChange={(e) => setAlpha(Number(e.target.value))}>
                {SIGNIFICANCE_LEVELS.map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
            <span className="lab-spacer" />
            <ReportExport kind="comparison" significance={significance} />
          </div>
          {significance ? (
            <p className={`lab-verdict v-${significance.verdict}`} data-testid="compare-verdict">
              {verdictSentence(significance)}
            </p>
          ) : (
            <p className="lab-verdict muted" data-testid="compare-verdict-pending">
              Testing the difference…
            </p>
          )}
          <CompareTable a={a} b={b} significance={significance} />
          {significance && <CiChart significance={significance} />}
          {significance && (
            <p className="small" data-testid="compare-winners">
              Per question ({REPORT_LABELS[significance.metric]}): B higher on {significance.wins}, lower on {significance.losses}, the same on {significance.ties}. These counts are not a verdict: only the test above is.
            </p>
          )}
          <CompareQuestions a={a} b={b} metric={significance?.metric ?? metricName} />
        </>
      )}
    </div>
  );
}

/** The significance of A against B, recomputed (in a worker) when either run, the level or the metric changes; null while pending. */
function useSignificance(a: RunResult | undefined, b: RunResult | undefined, alpha: number, metricName: ComparedMetric): Significance<ComparedMetric> | null {
  const [state, setState] = useState<{ key: unknown[]; value: Significance<ComparedMetric> } | null>(null);
  useEffect(() => {
    if (!a || !b) return;
    let live = true;
    const key = [a, b, alpha, metricName];
    compareRuns(a.questions, b.questions, alpha, metricName).then(
      (value) => live && setState({ key, value }),
      () => live && setState(null),
    );
    return () => {
      live = false;
    };
  }, [a, b, alpha, metricName]);
  // A result of other runs or settings is never shown under these.
  if (!state || !a || !b) return null;
  const [ka, kb, kAlpha, kMetric] = state.key;
  return ka === a && kb === b && kAlpha === alpha && kMetric === metricName ? state.value : null;
}

const valueOf = (r: RunResult, m: ComparedMetric): number => (m === 'ndcg' ? r.rankMeans.ndcg : m === 'map' ? r.rankMeans.map : r.means[m]);

/** Each metric: A's and B's means, B − A with its 95% interval, Wilcoxon's p, and B's wins / losses / ties. */
function CompareTable({ a, b, significance }: { a: RunResult; b: RunResult; significance: Significance<ComparedMetric> | null }) {
  return (
    <table className="lab-means lab-side lab-sig-table" data-testid="compare-table">
      <thead>
        <tr>
          <th scope="col">Metric</th>
          <th scope="col">A</th>
          <th scope="col">B</th>
          <th scope="col">B − A</th>
          <th scope="col">95% CI</th>
          <th scope="col">p (Wilcoxon)</th>
          <th scope="col" title="Questions where B scores higher / lower / the same">B higher / lower / same</th>
        </tr>
      </thead>
      <tbody>
        {VERDICT_METRICS.map((m) => {
          const label = REPORT_LABELS[m];
          const d = significance?.difference[m];
          const significant = d !== undefined && d.pValue < significance!.alpha;
          const dir = d && significant ? (d.mean > 0 ? 'better' : d.mean < 0 ? 'worse' : '') : '';
          return (
            <tr key={m} className={m === significance?.metric ? 'is-verdict' : ''}>
              <th scope="row">{m === 'hit' ? `Hit@${b.k}` : label}</th>
              <td>{figureOf(valueOf(a, m), m)}</td>
              <td>{figureOf(valueOf(b, m), m)}</td>
              <td className={dir}>{d ? signed(d.mean, label) : '…'}</td>
              <td>{d ? `${signed(d.ci95[0], label)} to ${signed(d.ci95[1], label)}` : '…'}</td>
              <td className={significant ? 'sig' : ''}>{d ? pValueText(d.pValue) : '…'}</td>
              <td>{d ? `${d.wins} / ${d.losses} / ${d.ties}` : '…'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const DECIMAL: ReadonlySet<ComparedMetric> = new Set(['reciprocalRank', 'ndcg', 'map']);
const figureOf = (x: number, m: ComparedMetric) => (DECIMAL.has(m) ? (Number.isFinite(x) ? x.toFixed(3) : '–') : pct(x));

/** Per question: the verdict metric under A then B, marked where B is higher (+) or lower (−); a click opens the question. */
function CompareQuestions({ a, b, metric }: { a: RunResult; b: RunResult; metric: ComparedMetric }) {
  const golden = useStore((s) => s.golden);
  const openQuestion = useStore((s) => s.openQuestion);
  const byIndex = new Map(b.questions.map((q) => [q.index, q]));
  const value = (q: RunResult['questions'][number]) => (metric === 'ndcg' ? q.rankMetrics.ndcg : metric === 'map' ? q.rankMetrics.averagePrecision : q.metrics[metric]);
  return (
    <ul className="lab-winners" aria-label={`Per question: ${REPORT_LABELS[metric]} under A then B`}>
      {a.questions.map((qa) => {
        const qb = byIndex.get(qa.index);
        if (!qb) return null;
        const d = value(qb) - value(qa);
        const dir = d > 1e-12 ? 'B' : d < -1e-12 ? 'A' : 'tie';
        return (
          <li key={qa.index}>
            <span className={`lab-winner w-${dir}`} title={dir === 'B' ? 'B higher' : dir === 'A' ? 'B lower' : 'the same'}>
              {dir === 'B' ? '+' : dir === 'A' ? '−' : '='}
            </span>
            <button type="button" className="link" onClick={() => openQuestion(golden.find((g) => g.question === qa.question)?.id ?? null)}>
              {qa.question}
            </button>
            <span className="muted small">
              {' '}
              {REPORT_LABELS[metric]} {figureOf(value(qa), metric)} → {figureOf(value(qb), metric)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

import { METRIC_NAMES, type MetricName } from '../../core/describe';
import { pinConfiguration, unpinConfiguration } from '../../state/controller';
import type { Config } from '../../state/configSlice';
import { meanDelta, questionWinner, winnerCounts } from '../../state/labCompare';
import { retrieverCaption } from '../../state/labBaseline';
import type { LabRun } from '../../state/labSlice';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import { strategyDefinition } from '../../state/strategyInfo';
import { formatNumber } from '../panels/format';
import { METRIC_LABELS, metric, pct } from './labCommon';

function describeConfig(c: Config): string {
  return `${strategyDefinition(c.strategy).label} ${c.size}/${c.overlap} ${c.unit} · ${retrieverCaption(c.retriever, c.embedder)} k=${c.chunksInContext}`;
}

/** The comparison with a pinned configuration: both means side by side and which one each question prefers. */
export function CompareTab() {
  const pinned = useStore((s) => s.pinned);
  const config = useStore(selectConfig);
  const comparison = useStore((s) => s.comparison);
  const error = useStore((s) => s.compareError);
  const golden = useStore((s) => s.golden);
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
  const a = comparison?.runA?.result;
  const b = comparison?.runB?.result;
  const winners = a && b ? a.questions.map((qa, i) => questionWinner(qa.metrics, b.questions[i]!.metrics)) : [];
  const counts = winnerCounts(winners);
  const delta = a && b ? meanDelta(a.means, b.means) : null;
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
      {a && b && delta && (
        <>
          <CompareMeans a={a} b={b} delta={delta} />
          <p className="small" data-testid="compare-winners">
            Per question: A wins {counts.A}, B wins {counts.B}, tie {counts.tie}.
          </p>
          <CompareWinners a={a} b={b} winners={winners} />
        </>
      )}
    </div>
  );
}

type RunResult = LabRun['payload']['result'];

/** A's and B's means side by side (B's marked better or worse than A's). */
function CompareMeans({ a, b, delta }: { a: RunResult; b: RunResult; delta: Record<MetricName, number> }) {
  return (
    <table className="lab-means lab-side" data-testid="compare-table">
      <thead>
        <tr>
          <th scope="col" />
          {METRIC_NAMES.map((m) => (
            <th key={m} scope="col">
              {m === 'hit' ? `Hit@${b.k}` : METRIC_LABELS[m]}
            </th>
          ))}
          <th scope="col">Chunks</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">A</th>
          {METRIC_NAMES.map((m) => (
            <td key={m}>{metric(m, a.means[m])}</td>
          ))}
          <td>{formatNumber(a.index.indexed)}</td>
        </tr>
        <tr>
          <th scope="row">B</th>
          {METRIC_NAMES.map((m) => (
            <td key={m} className={delta[m] > 1e-9 ? 'better' : delta[m] < -1e-9 ? 'worse' : ''}>
              {metric(m, b.means[m])}
            </td>
          ))}
          <td>{formatNumber(b.index.indexed)}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** Per question: which configuration won, and its recall and IoU under A then B (a click opens the question). */
function CompareWinners({ a, b, winners }: { a: RunResult; b: RunResult; winners: ReturnType<typeof questionWinner>[] }) {
  const golden = useStore((s) => s.golden);
  const openQuestion = useStore((s) => s.openQuestion);
  return (
    <ul className="lab-winners">
      {a.questions.map((qa, i) => (
        <li key={i}>
          <span className={`lab-winner w-${winners[i]}`}>{winners[i] === 'tie' ? '=' : winners[i]}</span>
          <button type="button" className="link" onClick={() => openQuestion(golden.find((g) => g.question === qa.question)?.id ?? null)}>
            {qa.question}
          </button>
          <span className="muted small">
            {' '}
            recall {pct(qa.metrics.recall)} → {pct(b.questions[i]!.metrics.recall)}, IoU {pct(qa.metrics.iou)} → {pct(b.questions[i]!.metrics.iou)}
          </span>
        </li>
      ))}
    </ul>
  );
}

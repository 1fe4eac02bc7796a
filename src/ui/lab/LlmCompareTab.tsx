import { runLlmComparison } from '../../state/controller';
import { costPerPoint, formatCount, formatMoney, llmCompareReadiness, llmRunCost, recallGain, resultKeyOf, type LlmCompareRow, type LlmRunCost } from '../../state/labLlm';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';

/**
 * The lab's "With LLM" tab: the chunks drawn now ("plain") against the page's last LLM run (llmResult, written by the
 * LLM panel) on the golden set under BM25, dense and hybrid, with the run's requests, tokens and money beside recall
 * and what one point of recall cost. Scoring runs in the chunk worker (labJobs.ts); all text here is React text.
 */

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : `${(x * 100).toFixed(1)}%`);
const FEATURE_LABEL: Record<string, string> = { contextual: 'contextual', propositions: 'propositions', boundaries: 'LLM boundaries', summaries: 'summaries' };

export function LlmCompareTab() {
  const llmResult = useStore((s) => s.llmResult);
  const serial = useStore((s) => s.documentSerial);
  const text = useStore((s) => s.text);
  const compare = useStore((s) => s.llmCompare);
  const refused = useStore((s) => s.llmCompareError);
  const golden = useStore((s) => s.golden);
  const readiness = llmCompareReadiness(llmResult, serial, text);
  if (readiness.kind === 'none') {
    return (
      <p className="hint" data-testid="llm-compare-none">
        No LLM result yet: run a feature (contextual, propositions, boundaries or summaries) in the LLM panel, then compare it here with the plain chunks.
      </p>
    );
  }
  if (readiness.kind === 'stale') {
    return (
      <p className="lab-error" role="status" data-testid="llm-compare-stale">
        {readiness.message}
      </p>
    );
  }
  const result = readiness.result;
  const feature = FEATURE_LABEL[result.feature] ?? result.feature;
  const current = compare && compare.resultKey === resultKeyOf(result) ? compare : null;
  const running = current?.running ?? false;
  return (
    <div className="lab-llm">
      <div className="lab-row">
        <span className="lab-config">
          <strong>Plain</strong> the chunks drawn now
        </span>
        <span className="lab-config">
          <strong>With LLM</strong> {feature} · {formatNumber(result.chunks.length)} entries{result.feature === 'summaries' ? ' · summaries first, then chunks inside them' : ''}
        </span>
        <span className="lab-spacer" />
        <button type="button" className="primary" disabled={running || golden.length === 0} onClick={() => void runLlmComparison()}>
          {running ? `Scoring… ${current!.done}/${current!.rows.length}` : current ? 'Score again' : 'Compare on the golden set'}
        </button>
      </div>
      <CostLine cost={current?.cost ?? llmRunCost(result)} />
      {golden.length === 0 && <p className="hint">Add questions in the golden set (with their answers marked) to score plain against {feature}.</p>}
      {refused && (
        <p className="lab-error" role="status">
          {refused}
        </p>
      )}
      {current && <LlmCompareTable rows={current.rows} feature={feature} cost={current.cost} />}
      {compare && !current && <p className="muted small">The last comparison scored an earlier LLM result: score again.</p>}
    </div>
  );
}

function CostLine({ cost }: { cost: LlmRunCost }) {
  return (
    <p className="small lab-llm-cost" data-testid="llm-compare-cost">
      LLM run: {formatNumber(cost.requests)} requests ({formatNumber(cost.cached)} cached, {formatNumber(cost.sent)} sent{cost.failed ? `, ${formatNumber(cost.failed)} failed` : ''}) ·{' '}
      {formatCount(cost.inputTokens)} input + {formatCount(cost.outputTokens)} output tokens · {cost.money === null ? 'no price set' : `cost ${formatMoney(cost.money)}`}
    </p>
  );
}

function LlmCompareTable({ rows, feature, cost }: { rows: LlmCompareRow[]; feature: string; cost: LlmRunCost }) {
  return (
    <table className="lab-means lab-side lab-llm-table" data-testid="llm-compare-table">
      <thead>
        <tr>
          <th scope="col">Retriever</th>
          <th scope="col">Recall plain</th>
          <th scope="col">Recall {feature}</th>
          <th scope="col">Gain</th>
          <th scope="col">IoU plain</th>
          <th scope="col">IoU {feature}</th>
          <th scope="col">Entries plain / {feature}</th>
          <th scope="col">Cost of a point of recall</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const gain = recallGain(row);
          const tone = gain === null ? '' : gain > 1e-9 ? 'better' : gain < -1e-9 ? 'worse' : '';
          return (
            <tr key={row.retriever} data-retriever={row.retriever}>
              <th scope="row">{row.retriever}</th>
              {row.error ? (
                <td colSpan={7} className="lab-llm-row-error">
                  {row.error}
                </td>
              ) : (
                <>
                  <td>{pct(row.plain?.recall)}</td>
                  <td className={tone}>{pct(row.llm?.recall)}</td>
                  <td className={tone}>{gain === null ? '–' : `${gain > 0 ? '+' : ''}${gain.toFixed(1)} pt`}</td>
                  <td>{pct(row.plain?.iou)}</td>
                  <td>{pct(row.llm?.iou)}</td>
                  <td>{row.plainIndexed === null ? '–' : `${formatNumber(row.plainIndexed)} / ${formatNumber(row.llmIndexed ?? 0)}`}</td>
                  <td>{costPerPoint(row, cost) ?? '…'}</td>
                </>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

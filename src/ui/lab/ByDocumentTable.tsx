import { METRIC_NAMES, type MetricName } from '../../core/describe';
import type { LabRun } from '../../state/labSlice';
import { METRIC_LABELS, metric } from './labCommon';
import './byDocument.css';

type Result = LabRun['payload']['result'];

/** The columns shown (the other metrics are pooled in the grid above: the table has to fit beside the question list). */
const COLUMNS: readonly MetricName[] = METRIC_NAMES.filter((m) => m === 'recall' || m === 'precision' || m === 'iou');

/**
 * A run over several documents: a row per document (its questions and chunks, its means), then the pooled means (over
 * every question) and the spread across documents (the mean of the documents' means ± their standard deviation).
 * Clicking a document's name shows it.
 */
export function ByDocumentTable({ result, onShow }: { result: Result; onShow: (document: string) => void }) {
  const spread = result.spread;
  const label = (m: MetricName) => (m === 'hit' ? `Hit@${result.k}` : METRIC_LABELS[m]);
  return (
    <div className="lab-bydoc-wrap">
      <table className="lab-means lab-bydoc" data-testid="lab-by-document">
        <caption className="sr-only">Means per document, pooled, and the spread across documents</caption>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col" title="Questions measured on this document">Q</th>
            <th scope="col" title="Chunks indexed from this document">Chunks</th>
            {COLUMNS.map((m) => (
              <th key={m} scope="col">
                {label(m)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.byDocument.map((d) => (
            <tr key={d.document} data-document={d.document}>
              <th scope="row">
                <button type="button" className="link lab-bydoc-name" title={`Show ${d.document}`} onClick={() => onShow(d.document)}>
                  {d.document}
                </button>
              </th>
              <td>{d.questions}</td>
              <td>{d.chunks}</td>
              {COLUMNS.map((m) => (
                <td key={m} data-metric={m}>
                  {d.means ? metric(m, d.means[m]) : '–'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="lab-bydoc-pooled" data-row="pooled">
            <th scope="row" title="Over every question, whatever its document">
              Pooled
            </th>
            <td>{result.measured}</td>
            <td>{result.index.chunks}</td>
            {COLUMNS.map((m) => (
              <td key={m} data-metric={m}>
                {metric(m, result.means[m])}
              </td>
            ))}
          </tr>
          <tr className="lab-bydoc-spread" data-row="spread">
            <th scope="row" title={`The mean of the ${spread.documents} documents' means ± their standard deviation`}>
              Across {spread.documents} docs
            </th>
            <td />
            <td />
            {COLUMNS.map((m) => (
              <td key={m} data-metric={m}>
                {metric(m, spread[m].mean)}
                <span className="lab-bydoc-std muted"> ± {metric(m, spread[m].std)}</span>
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

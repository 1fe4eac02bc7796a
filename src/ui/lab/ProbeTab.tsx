import { useState } from 'react';
import { formatScore } from '../../state/labMarks';
import { probeStatus, retrieverCaption, settingsKey } from '../../state/labBaseline';
import type { ProbeView } from '../../state/labSlice';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';
import { preview, RetrieverControls, useSettingsKey } from './labCommon';

/** The query probe: what a question retrieves under the current retriever, live, with the evaluation settings. */
export function ProbeTab() {
  const query = useStore((s) => s.query);
  const probe = useStore((s) => s.probe);
  const error = useStore((s) => s.probeError);
  const text = useStore((s) => s.result?.text ?? '');
  const version = useStore((s) => s.result?.version);
  const retriever = useStore((s) => s.config.retriever);
  const embedder = useStore((s) => s.config.embedder);
  const setQuery = useStore((s) => s.setQuery);
  const key = useSettingsKey();
  const [draft, setDraft] = useState(query);
  const status = probeStatus(probe, { query, version, settingsKey: key });
  const shown = status === 'none' ? null : probe!;
  const pending = status === 'pending';
  return (
    <div className="lab-probe">
      <div className="lab-row">
        <label htmlFor="lab-query" className="sr-only">
          Question
        </label>
        <input
          id="lab-query"
          type="search"
          className="lab-query"
          placeholder="Ask the document a question, e.g. “what does the policy say about refunds?”"
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setQuery(e.target.value);
          }}
        />
      </div>
      <RetrieverControls />
      {error && (
        <p className="lab-error" role="status">
          {error}
        </p>
      )}
      {!query.trim() && <p className="hint">Type a question: the chunks retrieval would return are ranked here and marked in the editor; move any slider and the ranking follows.</p>}
      {query.trim() && !shown && !error && (
        <p className="muted small" aria-live="polite">
          Ranking…
        </p>
      )}
      {shown && (
        <div className={pending ? 'lab-pending' : undefined} data-testid="probe-ranking" data-status={status} data-retriever={shown.retriever}>
          <p className="muted small" data-testid="probe-summary">
            <strong className="lab-ranked-by" data-testid="probe-retriever">
              {retrieverCaption(shown.retriever, shown.embedder)}
            </strong>
            {' · '}
            {shown.hits.length === 0
              ? 'Nothing matched: no chunk shares a word with the question.'
              : `Top ${shown.hits.length} of ${formatNumber(shown.matched)} matching ${shown.units === 1 ? 'unit' : 'units'} · ranked in ${(shown.indexMs + shown.searchMs).toFixed(0)} ms`}
            {pending && (
              <span className="lab-pending-mark" role="status" data-testid="probe-pending">
                {' '}
                · recomputing for {retrieverCaption(retriever, embedder)}…
              </span>
            )}
          </p>
          <ProbeHits hits={shown.hits} text={text} />
        </div>
      )}
    </div>
  );
}

/** The probe's ranking: each hit's rank, score, kind and preview (a click selects its chunk); what it matched inside. */
function ProbeHits({ hits, text }: { hits: ProbeView['hits']; text: string }) {
  const select = useStore((s) => s.select);
  return (
    <ol className="lab-hits" data-testid="probe-hits">
      {hits.map((h) => (
        <li key={`${h.rank}-${h.start}`}>
          <button
            type="button"
            className="lab-hit-row"
            data-start={h.start}
            data-end={h.end}
            onClick={() => {
              const leaf = h.leaf >= 0 ? h.leaf : (h.matched[0]?.leaf ?? -1);
              if (leaf >= 0) select(leaf, 'list');
            }}
          >
            <span className="lab-rank">#{h.rank}</span>
            <span className="lab-score" title="score">
              {formatScore(h.score)}
            </span>
            <span className="lab-kind">{h.kind === 'parent' ? 'parent' : h.kind === 'window' ? 'window' : `chunk #${h.leaf}`}</span>
            <span className="lab-preview">{preview(text, h.start, h.end)}</span>
          </button>
          {h.kind !== 'chunk' && h.matched.length > 0 && (
            <span className="lab-matched-list muted small">
              matched {h.kind === 'window' ? 'sentence' : 'child'}
              {h.matched.length > 1 ? 's' : ''}: {h.matched.map((m) => `chunk #${m.leaf} (${formatScore(m.score)})`).join(', ')}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

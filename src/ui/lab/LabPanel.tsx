import { useRef, useState } from 'react';
import { corpusIdForDocument, formatGoldenSet, getRetriever, GOLDEN_FORMATS, METRIC_NAMES, parseGoldenSet, RETRIEVERS, STOP_WORD_LISTS, STRATEGY_NAMES, type GoldenFormat, type MeanMetrics, type MetricName } from '../../core/describe';
import { cancelSweep, downloadFile, pinConfiguration, runGoldenSet, runSweep, unpinConfiguration } from '../../state/controller';
import type { Config, ConfigName } from '../../state/configSlice';
import { meanDelta, questionWinner, winnerCounts } from '../../state/labCompare';
import { fromGoldenQuestions, toGoldenQuestions, type GoldenItem } from '../../state/labGolden';
import { formatScore } from '../../state/labMarks';
import { labShareAfterKey, labShareAtPointer, MAX_LAB_SHARE, MIN_LAB_SHARE } from '../../state/labLayout';
import { denseBelowBm25Note, formatPercent, probeStatus, retrieverCaption, settingsKey } from '../../state/labBaseline';
import { evalSettingsOf } from '../../state/labJobs';
import type { LabRun, LabTab, ProbeView } from '../../state/labSlice';
import { parseNumberList, sortSweepRows, sweepColumns, sweepCsv, sweepJson, sweepRows, sweepSeries, type SortDirection, type SweepColumn, type SweepPoint } from '../../state/labSweep';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import { strategyDefinition } from '../../state/strategyInfo';
import { CheckField, Field, NumberField, SelectField, specOf } from '../panels/OptionFields';
import { formatNumber } from '../panels/format';
import { LlmCompareTab } from './LlmCompareTab';
import { SERIES_COLOURS, SweepChart } from './SweepChart';
import './lab.css';

/** One question's result in a golden-set run. */
type QuestionResult = LabRun['payload']['result']['questions'][number];

/**
 * The evaluation lab under the editor: the query probe (what a question retrieves, live), the golden set (questions
 * with answer spans marked in the editor; run it, read why questions fail), the sweep (a grid of sizes × overlaps
 * scored in the worker) and the comparison with a pinned configuration. Retrieval and scoring run in the chunk worker
 * (src/state/labJobs.ts); this file only lays out and dispatches. All document text is rendered as React text.
 */

export const METRIC_LABELS: Record<MetricName, string> = {
  recall: 'Recall',
  precision: 'Precision',
  iou: 'IoU',
  precisionOmega: 'Precision Ω',
  hit: 'Hit@k',
  reciprocalRank: 'MRR',
};

const TABS: { id: LabTab; label: string }[] = [
  { id: 'probe', label: 'Query probe' },
  { id: 'golden', label: 'Golden set' },
  { id: 'sweep', label: 'Sweep' },
  { id: 'compare', label: 'Compare' },
  { id: 'llm', label: 'With LLM' },
];

/** Percentages never round up to 100% (or down to 0%): labBaseline.formatPercent. */
const pct = formatPercent;
const metric = (name: MetricName, x: number) => (name === 'reciprocalRank' ? (Number.isFinite(x) ? x.toFixed(3) : '–') : pct(x));

/** A short, single-line preview of a span of the document (text, never HTML). */
export function preview(text: string, start: number, end: number, max = 140): string {
  const s = text.slice(start, Math.min(end, start + max + 1)).replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function LabSection() {
  const open = useStore((s) => s.labOpen);
  const tab = useStore((s) => s.labTab);
  const showLabTab = useStore((s) => s.showLabTab);
  const toggleLab = useStore((s) => s.toggleLab);
  const pinned = useStore((s) => s.pinned !== null);
  const onTabKey = (e: React.KeyboardEvent, i: number) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    e.preventDefault();
    const next = TABS[(i + d + TABS.length) % TABS.length]!;
    showLabTab(next.id);
    document.getElementById(`lab-tab-${next.id}`)?.focus();
  };
  const share = useStore((s) => s.labShare);
  return (
    <section className={`panel lab${open ? ' is-open' : ''}`} aria-label="Evaluation lab" style={open ? ({ '--lab-share': share } as React.CSSProperties) : undefined}>
      {open && <LabSplitter />}
      <div className="lab-bar">
        <button type="button" className="lab-toggle" aria-expanded={open} aria-controls="lab-body" onClick={toggleLab}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> Evaluation lab
        </button>
        {open && (
          <div role="tablist" aria-label="Lab views" className="lab-tabs">
            {TABS.map((t, i) => (
              <button
                key={t.id}
                id={`lab-tab-${t.id}`}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                aria-controls="lab-body"
                tabIndex={tab === t.id ? 0 : -1}
                className={tab === t.id ? 'is-active' : ''}
                onClick={() => showLabTab(t.id)}
                onKeyDown={(e) => onTabKey(e, i)}
              >
                {t.label}
                {t.id === 'compare' && pinned ? ' · A pinned' : ''}
              </button>
            ))}
          </div>
        )}
      </div>
      {open && (
        <div id="lab-body" role="tabpanel" aria-labelledby={`lab-tab-${tab}`} className="lab-body">
          {tab === 'probe' && <ProbeTab />}
          {tab === 'golden' && <GoldenTab />}
          {tab === 'sweep' && <SweepTab />}
          {tab === 'compare' && <CompareTab />}
          {tab === 'llm' && <LlmCompareTab />}
        </div>
      )}
    </section>
  );
}

/**
 * The separator between the editor and the open lab: drag it, or focus it and press ↑/↓ (PageUp/PageDown, Home/End).
 * The lab's share of the pane is kept in the store and remembered in the browser (labLayout.ts).
 */
function LabSplitter() {
  const share = useStore((s) => s.labShare);
  const setLabShare = useStore((s) => s.setLabShare);
  const paneOf = (el: Element) => el.closest('.editor-pane')?.getBoundingClientRect() ?? null;
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    const handle = e.currentTarget;
    const pane = paneOf(handle);
    if (!pane || e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => setLabShare(labShareAtPointer(ev.clientY, pane.top, pane.height));
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  return (
    <div
      className="lab-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the lab (↑ ↓)"
      aria-valuemin={Math.round(MIN_LAB_SHARE * 100)}
      aria-valuemax={Math.round(MAX_LAB_SHARE * 100)}
      aria-valuenow={Math.round(share * 100)}
      aria-valuetext={`Lab ${Math.round(share * 100)}% of the editor pane`}
      tabIndex={0}
      title="Drag, or focus and press ↑ ↓, to resize the lab"
      data-testid="lab-splitter"
      onPointerDown={onPointerDown}
      onKeyDown={(e) => {
        const next = labShareAfterKey(share, e.key);
        if (next === null) return;
        e.preventDefault();
        setLabShare(next);
      }}
    />
  );
}

/**
 * Retriever, k, then what the chosen retriever reads (src/core/retrievers/registry.ts): its own option rows (hybrid's
 * dense weight) and, for a lexical one, the analyzer's stop words and stemming. Every field is the option table's row.
 */
function RetrieverControls() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const retriever = getRetriever(config.retriever);
  return (
    <div className="lab-controls">
      <SelectField name="retriever" value={config.retriever} values={RETRIEVERS} title={(v) => getRetriever(String(v)).label} onChange={(v) => setConfig({ retriever: v as Config['retriever'] })} />
      <NumberField name="chunksInContext" label="k" value={config.chunksInContext} onChange={(n) => n !== null && n >= 1 && setConfig({ chunksInContext: Math.floor(n) })} />
      {retriever.options.map(({ name }) => (
        <RetrieverOptionField key={name} name={name as ConfigName} />
      ))}
      {retriever.analyzer && (
        <>
          <SelectField name="stopWords" value={config.stopWords} values={STOP_WORD_LISTS} title={(v) => (v === 'none' ? 'Keep all' : 'English (NLTK)')} onChange={(v) => setConfig({ stopWords: v as Config['stopWords'] })} />
          <CheckField name="stemming" checked={config.stemming} onChange={(c) => setConfig({ stemming: c })} />
        </>
      )}
    </div>
  );
}

/** A retriever's own option, drawn from its row's control (a slider shows its value beside it, to the step's decimals). */
function RetrieverOptionField({ name }: { name: ConfigName }) {
  const value = useStore((s) => (selectConfig(s) as unknown as Record<string, unknown>)[name]);
  const setConfig = useStore((s) => s.setConfig);
  const set = (v: unknown) => setConfig({ [name]: v } as Partial<Config>);
  const { control, flag, choices } = specOf(name);
  switch (control.kind) {
    case 'slider': {
      const id = `lab-${flag}`;
      const step = control.step ?? 1;
      const decimals = String(step).split('.')[1]?.length ?? 0;
      return (
        <Field name={name} htmlFor={id}>
          <span className="range-row">
            <input id={id} type="range" min={control.min ?? 0} max={control.max ?? 1} step={step} value={Number(value)} onChange={(e) => set(Number(e.target.value))} />
            <span className="muted small">{Number(value).toFixed(decimals)}</span>
          </span>
        </Field>
      );
    }
    case 'checkbox':
      return <CheckField name={name} checked={value === true} onChange={set} />;
    case 'select':
      return <SelectField name={name} value={String(value)} values={choices ?? []} onChange={set} />;
    default:
      return <NumberField name={name} value={typeof value === 'number' ? value : null} onChange={(n) => n !== null && set(n)} />;
  }
}

/** The key of the current evaluation settings (null while the controls hold a value they refuse). */
function useSettingsKey(): string | null {
  const config = useStore(selectConfig);
  try {
    return settingsKey(evalSettingsOf(config));
  } catch {
    return null;
  }
}

function ProbeTab() {
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

function MeansTable({ means, k }: { means: MeanMetrics; k: number }) {
  return (
    <dl className="lab-means-grid" data-testid="lab-means">
      {METRIC_NAMES.map((m) => (
        <div key={m}>
          <dt>{m === 'hit' ? `Hit@${k}` : METRIC_LABELS[m]}</dt>
          <dd>{metric(m, means[m])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The golden set: questions with their answers marked in the editor (left), the run's means and cost (right). */
function GoldenTab() {
  const golden = useStore((s) => s.golden);
  const active = useStore((s) => s.activeQuestion);
  const selection = useStore((s) => s.editorSelection);
  const run = useStore((s) => s.run);
  const running = useStore((s) => s.labRunning);
  const runError = useStore((s) => s.runError);
  const jobId = useStore((s) => s.result?.jobId);
  const markAnswer = useStore((s) => s.markAnswer);
  const activeItem = golden.find((q) => q.id === active) ?? null;
  const result = run && run.jobId === jobId ? run.payload.result : null;
  const staleRun = run !== null && run.jobId !== jobId;
  const byId = new Map(result ? run!.ids.map((id, i) => [id, result.questions[i]!]) : []);
  const canMark = Boolean(activeItem && selection && selection.end > selection.start);
  return (
    <div className="lab-golden">
      <div className="lab-golden-left">
        <NewQuestionRow />
        <div className="lab-row">
          <button type="button" className="primary" onClick={markAnswer} disabled={!canMark} title={canMark ? 'Add the editor selection as an answer span' : 'Select a question, then select its answer text in the editor'}>
            Mark as answer
          </button>
          <button type="button" className="primary" onClick={() => void runGoldenSet()} disabled={running || golden.length === 0}>
            {running ? 'Running…' : 'Run golden set'}
          </button>
        </div>
        <GoldenFileRow />
        {runError && (
          <p className="lab-error" role="status">
            {runError}
          </p>
        )}
        {golden.length === 0 && <p className="hint">No questions yet. A golden set is stored with this document in the browser; import one as JSON, JSONL or Chroma's CSV.</p>}
        <ul className="lab-questions" data-testid="golden-questions">
          {golden.map((q, qi) => (
            <QuestionItem key={q.id} item={q} number={qi + 1} measured={byId.get(q.id)} />
          ))}
        </ul>
      </div>
      <div className="lab-golden-right">
        <RetrieverControls />
        {staleRun && <p className="hint">The chunks changed since the last run: run the golden set again.</p>}
        {result && (
          <>
            <p className="small lab-ranked-by" data-testid="lab-run-retriever">
              {retrieverCaption(run!.retriever ?? 'bm25', run!.embedder ?? 'builtin')}
            </p>
            <MeansTable means={result.means} k={result.k} />
            <BaselineNote run={run!} />
            <p className="muted small" data-testid="lab-index-cost">
              {result.measured} question{result.measured === 1 ? '' : 's'} · index: {formatNumber(result.index.indexed)} chunks, {formatNumber(result.index.embeddingTokens)} embedding tokens (cl100k),{' '}
              {formatNumber(result.index.indexedCharacters)} chars · {(result.timings.indexMs + result.timings.searchMs).toFixed(0)} ms
            </p>
            <p className="hint">Click a question to see its answer spans (green) and the chunks it retrieved (rank badges) in the editor.</p>
          </>
        )}
      </div>
    </div>
  );
}

/** One line when the run's retriever embeds and scored below BM25 on the same chunks: name the model, suggest a better one. */
function BaselineNote({ run }: { run: LabRun }) {
  const bm25 = run.bm25Means;
  if (!bm25 || !run.retriever) return null;
  const note = denseBelowBm25Note({ retriever: run.retriever, embedder: run.embedder ?? 'builtin', recall: run.payload.result.means.recall, bm25Recall: bm25.recall ?? Number.NaN, online: navigator.onLine });
  return note ? (
    <p className="lab-baseline small" role="note" data-testid="lab-baseline-note">
      {note}
    </p>
  ) : null;
}

/** The box a new question is written in. */
function NewQuestionRow() {
  const addQuestion = useStore((s) => s.addQuestion);
  const [draft, setDraft] = useState('');
  const add = () => {
    if (!draft.trim()) return;
    addQuestion(draft);
    setDraft('');
  };
  return (
    <div className="lab-row">
      <label htmlFor="lab-new-question" className="sr-only">
        New question
      </label>
      <input
        id="lab-new-question"
        type="text"
        placeholder="Write a question, then select its answer in the editor"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && add()}
      />
      <button type="button" onClick={add} disabled={!draft.trim()}>
        Add
      </button>
    </div>
  );
}

/** The golden set's count, its import (JSON, JSONL, Chroma's CSV) and its export in a chosen format. */
function GoldenFileRow() {
  const golden = useStore((s) => s.golden);
  const docName = useStore((s) => s.docName);
  const importQuestions = useStore((s) => s.importQuestions);
  const setNotice = useStore((s) => s.setNotice);
  const [format, setFormat] = useState<GoldenFormat>('json');
  const file = useRef<HTMLInputElement>(null);
  const onImport = async (f: File) => {
    try {
      const questions = parseGoldenSet(await f.text(), { name: f.name });
      const items = fromGoldenQuestions(questions);
      importQuestions(items);
      setNotice(`Imported ${items.length} question${items.length === 1 ? '' : 's'} from ${f.name}.`);
    } catch (error) {
      setNotice(`Could not import ${f.name}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    }
  };
  const onExport = () => {
    const body = formatGoldenSet(toGoldenQuestions(golden), format, { defaultCorpusId: corpusIdForDocument(docName) });
    const ext = format === 'jsonl' ? 'jsonl' : format;
    downloadFile(`golden-set.${ext}`, body, format === 'csv' ? 'text/csv' : 'application/json');
  };
  return (
    <div className="lab-io small">
      <span className="muted">
        {golden.length} question{golden.length === 1 ? '' : 's'} · stored with this document
      </span>
      <span className="lab-spacer" />
      <button type="button" className="link" onClick={() => file.current?.click()}>
        Import…
      </button>
      <input
        ref={file}
        type="file"
        accept=".json,.jsonl,.csv,application/json,text/csv"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void onImport(f);
          e.target.value = '';
        }}
      />
      <label className="sr-only" htmlFor="lab-export-format">
        Export format
      </label>
      <select id="lab-export-format" className="lab-small-select" value={format} onChange={(e) => setFormat(e.target.value as GoldenFormat)}>
        {GOLDEN_FORMATS.map((f) => (
          <option key={f} value={f}>
            {f === 'csv' ? 'Chroma CSV' : f.toUpperCase()}
          </option>
        ))}
      </select>
      <button type="button" className="link" onClick={onExport} disabled={golden.length === 0}>
        Export
      </button>
    </div>
  );
}

/** One question: its text (editable), its recall in the last run, its answers, and why it failed when it is active. */
function QuestionItem({ item: q, number, measured }: { item: GoldenItem; number: number; measured: QuestionResult | undefined }) {
  const active = useStore((s) => s.activeQuestion === q.id);
  const text = useStore((s) => s.text);
  const refStates = useStore((s) => s.referenceStates.get(q.id)) ?? [];
  const renameQuestion = useStore((s) => s.renameQuestion);
  const selectQuestion = useStore((s) => s.selectQuestion);
  const deleteQuestion = useStore((s) => s.deleteQuestion);
  const [editing, setEditing] = useState<string | null>(null);
  const missing = q.references.filter((r, i) => refStates[i]?.status === 'missing' || text.slice(r.start, r.end) !== r.content).length;
  const commit = (value: string) => {
    renameQuestion(q.id, value);
    setEditing(null);
  };
  return (
    <li className={active ? 'is-active' : ''}>
      <div className="lab-question-row">
        {editing !== null ? (
          <input
            type="text"
            aria-label="Edit question"
            autoFocus
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit(editing);
              else if (e.key === 'Escape') setEditing(null);
            }}
            onBlur={() => commit(editing)}
          />
        ) : (
          <button type="button" className="lab-question" aria-pressed={active} onClick={() => selectQuestion(q.id)}>
            <span className="lab-qnum">{number}.</span> {q.question || '(no question)'}
          </button>
        )}
        {measured && (
          <span className={`lab-recall ${measured.metrics.recall >= 1 ? 'ok' : measured.metrics.recall > 0 ? 'partial' : 'miss'}`} title="recall of this question">
            {pct(measured.metrics.recall)}
          </span>
        )}
        <button type="button" className="link" onClick={() => setEditing(q.question)} aria-label={`Edit question ${number}`}>
          Edit
        </button>
        <button type="button" className="link danger" aria-label={`Delete question ${number}`} onClick={() => deleteQuestion(q.id)}>
          Delete
        </button>
      </div>
      <div className="lab-refs muted small">
        <AnswerList item={q} number={number} />
        {missing > 0 && <span className="lab-flag"> {missing} not in the document: left out of runs</span>}
      </div>
      {measured && active && measured.failures.length > 0 && (
        <ul className="lab-failures" data-testid="failure-reasons">
          {measured.failures.map((f, i) => (
            <li key={i}>{f.message}</li>
          ))}
        </ul>
      )}
      {measured && active && measured.failures.length === 0 && (
        <p className="lab-ok small">{measured.metrics.recall >= 1 ? 'Every answer span was retrieved.' : `${pct(measured.metrics.recall)} of the answer characters were retrieved.`}</p>
      )}
    </li>
  );
}

/** A question's answer spans (a span no longer in the text is flagged), each removable. */
function AnswerList({ item: q, number }: { item: GoldenItem; number: number }) {
  const text = useStore((s) => s.text);
  const removeAnswer = useStore((s) => s.removeAnswer);
  if (q.references.length === 0) return <span>No answer marked yet.</span>;
  return (
    <>
      {q.references.map((r, i) => {
        const gone = text.slice(r.start, r.end) !== r.content;
        return (
          <span key={`${r.start}-${i}`} className={`lab-ref${gone ? ' is-missing' : ''}`} title={gone ? 'Not found in the document any more: mark it again' : `${r.start}–${r.end}`}>
            {gone ? '⚠ missing: ' : ''}“{preview(r.content, 0, r.content.length, 60)}”
            <button type="button" className="link" aria-label={`Remove answer ${i + 1} of question ${number}`} onClick={() => removeAnswer(q.id, i)}>
              ×
            </button>
          </span>
        );
      })}
    </>
  );
}

const STRATEGY_CHOICES = STRATEGY_NAMES;

function SweepTab() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const sweep = useStore((s) => s.sweepState);
  const [sizes, setSizes] = useState('128, 256, 512, 1024');
  const [overlaps, setOverlaps] = useState('0, 64');
  const [strategies, setStrategies] = useState<string[]>([]);
  const [retrievers, setRetrievers] = useState<string[]>([]);
  const sizeList = parseNumberList(sizes);
  const overlapList = parseNumberList(overlaps);
  const problem = !sizeList || sizeList.length === 0 ? 'Sizes: whole numbers separated by commas.' : !overlapList || overlapList.length === 0 ? 'Overlaps: whole numbers separated by commas.' : null;
  const count = problem ? 0 : sizeList!.length * overlapList!.length * Math.max(1, strategies.length) * Math.max(1, retrievers.length);
  const start = () => {
    if (problem) return;
    void runSweep({ sizes: sizeList!, overlaps: overlapList!, strategies, retrievers });
  };
  const points = sweep?.points ?? [];
  const apply = (i: number) => {
    const p = points[i];
    if (p) setConfig(p.values);
  };
  const currentPoint = points.findIndex((p) => Object.entries(p.values).every(([k, v]) => (config as unknown as Record<string, unknown>)[k] === v));
  const k = config.chunksInContext;
  return (
    <div className="lab-sweep">
      <div className="lab-row lab-sweep-form">
        <label>
          Sizes <input type="text" value={sizes} onChange={(e) => setSizes(e.target.value)} aria-label="Sweep sizes" />
        </label>
        <label>
          Overlaps <input type="text" value={overlaps} onChange={(e) => setOverlaps(e.target.value)} aria-label="Sweep overlaps" />
        </label>
        <SweepChoices strategies={strategies} retrievers={retrievers} setStrategies={setStrategies} setRetrievers={setRetrievers} />
        {sweep?.running ? (
          <button type="button" onClick={cancelSweep}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={start} disabled={Boolean(problem)}>
            Run sweep ({count})
          </button>
        )}
      </div>
      {problem && <p className="lab-error">{problem}</p>}
      {sweep && (
        <div className="lab-progress-row">
          <progress max={Math.max(1, sweep.points.length)} value={sweep.done} aria-label="Sweep progress" />
          <span className="muted small" data-testid="sweep-status">
            {sweep.running ? `${sweep.done} of ${sweep.points.length} configurations…` : sweep.error ? sweep.error : `${sweep.done} configurations in ${(sweep.ms / 1000).toFixed(1)} s`}
          </span>
        </div>
      )}
      {sweep?.error && !sweep.running && sweep.done === 0 && null}
      {points.some((p) => p.means) && (
        <>
          <SweepLegend points={points} />
          <div className="lab-charts">
            <SweepChart title={`Recall@${k}`} series={sweepSeries(points, (p) => p.means?.recall ?? null)} format={pct} onPick={apply} current={currentPoint} testId="chart-recall" />
            <SweepChart title="IoU" series={sweepSeries(points, (p) => p.means?.iou ?? null)} format={pct} onPick={apply} current={currentPoint} testId="chart-iou" />
            <SweepChart title="Chunks in the index" series={sweepSeries(points, (p) => p.chunks)} format={(v) => formatNumber(v, 0)} onPick={apply} current={currentPoint} testId="chart-chunks" />
            <SweepChart title="Embedding tokens" series={sweepSeries(points, (p) => p.tokens)} format={(v) => compact(v)} onPick={apply} current={currentPoint} testId="chart-tokens" />
          </div>
          <p className="hint">Hover a point for its value; click it (or focus it and press Enter), or a row of the table, to apply that configuration.</p>
          <SweepBaselineNote points={points} />
          <SweepTable points={points} k={k} onPick={apply} current={currentPoint} />
        </>
      )}
      {points.some((p) => p.error) && (
        <p className="muted small">
          Refused: {points.filter((p) => p.error).map((p) => `size ${p.values.size}/overlap ${p.values.overlap}: ${p.error}`).slice(0, 3).join('; ')}
        </p>
      )}
    </div>
  );
}

/** The sweep's optional axes: strategies (those with a size) and retrievers; none ticked: the current one. */
function SweepChoices(props: { strategies: string[]; retrievers: string[]; setStrategies: (l: string[]) => void; setRetrievers: (l: string[]) => void }) {
  const { strategies, retrievers, setStrategies, setRetrievers } = props;
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  return (
    <details className="lab-more">
      <summary>Strategies, retrievers{strategies.length + retrievers.length ? ` (${strategies.length + retrievers.length})` : ''}</summary>
      <fieldset>
        <legend>Strategies (none: the current one)</legend>
        {STRATEGY_CHOICES.filter((id) => strategyDefinition(id).controls.includes('size')).map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked={strategies.includes(id)} onChange={() => setStrategies(toggle(strategies, id))} /> {strategyDefinition(id).label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Retrievers (none: the current one)</legend>
        {RETRIEVERS.map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked={retrievers.includes(id)} onChange={() => setRetrievers(toggle(retrievers, id))} /> {id}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

function compact(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(0)}k` : String(Math.round(v));
}

function SweepLegend({ points }: { points: SweepPoint[] }) {
  const series = sweepSeries(points, (p) => p.means?.recall ?? null);
  return (
    <ul className="lab-legend" aria-label="Lines in the charts" data-testid="sweep-legend">
      {series.map((s, i) => (
        <li key={s.key}>
          <span className="lab-legend-swatch" style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** The sweep's one-line baseline note: a retriever that embeds scored below BM25 (mean recall over the same grid). */
function SweepBaselineNote({ points }: { points: SweepPoint[] }) {
  const embedder = useStore((s) => s.config.embedder);
  const current = useStore((s) => s.config.retriever);
  const recallOf = (retriever: string) => {
    const rs = points.filter((p) => (p.values.retriever ?? current) === retriever && p.means).map((p) => p.means!.recall ?? Number.NaN);
    return rs.length ? rs.reduce((a, b) => a + b, 0) / rs.length : Number.NaN;
  };
  const bm25 = recallOf('bm25');
  const worst = RETRIEVERS.filter((r) => r !== 'bm25')
    .map((r) => ({ r, recall: recallOf(r) }))
    .filter((e) => Number.isFinite(e.recall))
    .sort((a, b) => a.recall - b.recall)[0];
  const note = worst ? denseBelowBm25Note({ retriever: worst.r, embedder, recall: worst.recall, bm25Recall: bm25, online: navigator.onLine }) : null;
  return note ? (
    <p className="lab-baseline small" role="note" data-testid="sweep-baseline-note">
      Over this sweep: {note}
    </p>
  ) : null;
}

/** How a cell of the sweep's table reads: metrics as percentages (MRR as a fraction), counts grouped. */
function sweepCell(column: SweepColumn, v: string | number | null): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'string') return column.key === 'strategy' ? strategyDefinition(v as Config['strategy']).label : column.key === 'retriever' ? getRetriever(v).label : v;
  if (column.kind === 'metric') return column.key === 'reciprocalRank' || column.key === 'map' || column.key === 'ndcg' ? v.toFixed(3) : pct(v);
  if (column.key === 'tokens') return compact(v);
  return formatNumber(v, 0);
}

/**
 * Every configuration of the sweep with every metric, sortable by any column (click its header; again: the other
 * way), a row click applies it; exported as CSV or JSON (full precision, fractions).
 */
function SweepTable({ points, k, onPick, current }: { points: SweepPoint[]; k: number; onPick: (point: number) => void; current: number }) {
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | null>(null);
  const labels = Object.fromEntries(Object.entries(METRIC_LABELS).map(([m, l]) => [m, m === 'hit' ? `Hit@${k}` : l])) as Record<string, string>;
  const columns = sweepColumns(points, METRIC_NAMES, labels);
  const rows = sweepRows(points, columns);
  const shown = sort ? sortSweepRows(rows, sort.key, sort.direction) : rows;
  const toggle = (key: string, kind: SweepColumn['kind']) =>
    setSort((s) => (s?.key === key ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: kind === 'metric' ? 'desc' : 'asc' }));
  const save = (format: 'csv' | 'json') =>
    format === 'csv' ? downloadFile('chunkscope-sweep.csv', sweepCsv(shown, columns), 'text/csv') : downloadFile('chunkscope-sweep.json', sweepJson(shown, columns, k), 'application/json');
  return (
    <div className="lab-sweep-table-box">
      <div className="lab-io">
        <span className="muted small">
          {rows.length} configuration{rows.length === 1 ? '' : 's'} · k = {k}
        </span>
        <button type="button" className="link" onClick={() => save('csv')}>
          Export sweep as CSV
        </button>
        <button type="button" className="link" onClick={() => save('json')}>
          Export sweep as JSON
        </button>
      </div>
      <div className="lab-table-scroll">
        <table className="lab-means lab-sweep-table" data-testid="sweep-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" aria-sort={sort?.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="lab-sort" onClick={() => toggle(c.key, c.kind)}>
                    {c.label}
                    <span aria-hidden="true">{sort?.key === c.key ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.point} className={r.point === current ? 'is-current' : undefined} data-point={r.point} onClick={() => onPick(r.point)} title={r.error ?? 'Click to apply this configuration'}>
                {columns.map((c) => (
                  <td key={c.key} className={c.kind === 'config' ? 'lab-cell-config' : undefined}>
                    {r.error && c.kind === 'metric' ? (c === columns.find((x) => x.kind === 'metric') ? <span className="lab-flag">{r.error}</span> : '') : sweepCell(c, r.values[c.key] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function describeConfig(c: Config): string {
  return `${strategyDefinition(c.strategy).label} ${c.size}/${c.overlap} ${c.unit} · ${retrieverCaption(c.retriever, c.embedder)} k=${c.chunksInContext}`;
}

function CompareTab() {
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

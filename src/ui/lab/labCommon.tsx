import { getRetriever, METRIC_NAMES, RETRIEVERS, STOP_WORD_LISTS, type MeanMetrics, type MetricName } from '../../core/describe';
import type { Config, ConfigName } from '../../state/configSlice';
import { denseBelowBm25Note, formatPercent, settingsKey } from '../../state/labBaseline';
import { evalSettingsOf } from '../../state/labJobs';
import type { LabRun } from '../../state/labSlice';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';
import { CheckField, Field, NumberField, SelectField, specOf } from '../panels/OptionFields';

/**
 * Pieces several lab tabs share: metric labels and formatting, the retriever controls, the means grid and the
 * dense-below-BM25 note. All document text is rendered as React text.
 */

/** One question's result in a golden-set run. */
export type QuestionResult = LabRun['payload']['result']['questions'][number];

export const METRIC_LABELS: Record<MetricName, string> = {
  recall: 'Recall',
  precision: 'Precision',
  iou: 'IoU',
  precisionOmega: 'Precision Ω',
  hit: 'Hit@k',
  reciprocalRank: 'MRR',
};

/** Percentages never round up to 100% (or down to 0%): labBaseline.formatPercent. */
export const pct = formatPercent;
export const metric = (name: MetricName, x: number) => (name === 'reciprocalRank' ? (Number.isFinite(x) ? x.toFixed(3) : '–') : pct(x));

/** A short, single-line preview of a span of the document (text, never HTML). */
export function preview(text: string, start: number, end: number, max = 140): string {
  const s = text.slice(start, Math.min(end, start + max + 1)).replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * Retriever, k, then what the chosen retriever reads (src/core/retrievers/registry.ts): its own option rows (hybrid's
 * dense weight) and, for a lexical one, the analyzer's stop words and stemming. Every field is the option table's row.
 */
export function RetrieverControls() {
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
export function useSettingsKey(): string | null {
  const config = useStore(selectConfig);
  try {
    return settingsKey(evalSettingsOf(config));
  } catch {
    return null;
  }
}

export function MeansTable({ means, k }: { means: MeanMetrics; k: number }) {
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

/** One line when the run's retriever embeds and scored below BM25 on the same chunks: name the model, suggest a better one. */
export function BaselineNote({ run }: { run: LabRun }) {
  const bm25 = run.bm25Means;
  if (!bm25 || !run.retriever) return null;
  const note = denseBelowBm25Note({ retriever: run.retriever, embedder: run.embedder ?? 'builtin', recall: run.payload.result.means.recall, bm25Recall: bm25.recall ?? Number.NaN, online: navigator.onLine });
  return note ? (
    <p className="lab-baseline small" role="note" data-testid="lab-baseline-note">
      {note}
    </p>
  ) : null;
}

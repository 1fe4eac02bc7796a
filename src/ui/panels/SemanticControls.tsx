import { useEffect, useId, useRef, useState } from 'react';
import { BREAKPOINT_DEFAULTS, BREAKPOINT_MODES } from '../../core/describe';
import type { BreakpointMode, SentenceFinder } from '../../core/types';
import { embedderCatalogue } from '../../state/embedders';
import { embedderDownloadHint, loadModelFolder } from '../../state/controller';
import { selectConfig } from '../../state/selectors';
import { useStore } from '../../state/store';

const MODE_LABELS: Record<BreakpointMode, string> = {
  percentile: 'Percentile of distances',
  standard_deviation: 'Mean + k standard deviations',
  interquartile: 'Mean + k interquartile ranges',
  gradient: 'Percentile of the gradient',
  absolute: 'Absolute distance',
};

const AMOUNT_HINTS: Record<BreakpointMode, string> = {
  percentile: 'Cut at gaps whose distance is above this percentile (0–100).',
  standard_deviation: 'Cut where the distance exceeds the mean by k standard deviations.',
  interquartile: 'Cut where the distance exceeds the mean by k interquartile ranges.',
  gradient: 'Cut where the distance rises fastest (percentile of its gradient, 0–100).',
  absolute: 'Cut where 1 − cosine similarity is above this distance (0–2). Dragging the curve sets it.',
};

/** The semantic strategy's controls (names follow the CLI flags); shown instead of size and overlap. */
export function SemanticControls() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const localModels = useStore((s) => s.localModels);
  const catalogue = embedderCatalogue();
  const known = new Set([...catalogue.map((m) => m.id), ...localModels]);
  const downloadHint = embedderDownloadHint(config.embedder);
  const defaultAmount = config.breakpoint === 'absolute' ? undefined : BREAKPOINT_DEFAULTS[config.breakpoint];

  return (
    <>
      <div className="field">
        <label htmlFor="ctl-embedder">Embedder</label>
        <select id="ctl-embedder" value={config.embedder} onChange={(e) => setConfig({ embedder: e.target.value })}>
          {catalogue.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id === 'builtin' ? 'Built-in (offline)' : m.label}
            </option>
          ))}
          {localModels.map((id) => (
            <option key={id} value={id}>
              {id.slice('local/'.length)} (local folder)
            </option>
          ))}
          {!known.has(config.embedder) && <option value={config.embedder}>{config.embedder}</option>}
        </select>
        <p className="hint">{downloadHint ?? (config.embedder === 'builtin' ? 'Static word vectors shipped with the app: no network.' : 'Loaded from this computer.')}</p>
        <ModelFolderButton />
      </div>

      <div className="field">
        <label htmlFor="ctl-breakpoint">Breakpoint mode</label>
        <select
          id="ctl-breakpoint"
          value={config.breakpoint}
          onChange={(e) => {
            const breakpoint = e.target.value as BreakpointMode;
            // An amount belongs to its mode's scale (a percentile is not a distance): a new mode starts from its default.
            setConfig({ breakpoint, amount: breakpoint === 'absolute' ? (config.amount ?? 0.3) : null });
          }}
        >
          {BREAKPOINT_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </div>

      <NumberField
        label="Threshold value"
        value={config.amount}
        placeholder={defaultAmount === undefined ? '0.3' : String(defaultAmount)}
        step={config.breakpoint === 'absolute' ? 0.01 : config.breakpoint === 'percentile' || config.breakpoint === 'gradient' ? 1 : 0.1}
        min={0}
        disabled={config.targetChunks !== null}
        hint={config.targetChunks !== null ? 'Unused while a target number of chunks is set.' : AMOUNT_HINTS[config.breakpoint]}
        onChange={(amount) => setConfig({ amount })}
      />
      <NumberField
        label="Target chunks"
        value={config.targetChunks}
        placeholder="none"
        step={1}
        min={1}
        integer
        hint="Cut at the strongest gaps until there are this many chunks (overrides the threshold)."
        onChange={(targetChunks) => setConfig({ targetChunks })}
      />
      <div className="field-pair">
        <NumberField label="Buffer" value={config.buffer} step={1} min={0} integer onChange={(n) => setConfig({ buffer: n ?? 1 })} />
        <div className="field">
          <label htmlFor="ctl-sentences">Sentence splitter</label>
          <select
            id="ctl-sentences"
            value={config.compat ? 'regex' : config.sentences}
            disabled={config.compat}
            onChange={(e) => setConfig({ sentences: e.target.value as SentenceFinder })}
          >
            <option value="intl">Intl.Segmenter</option>
            <option value="regex">LangChain regex</option>
          </select>
        </div>
      </div>
      <div className="field-pair">
        <NumberField label="Minimum size" value={config.minSize} placeholder="none" step={1} min={1} onChange={(minSize) => setConfig({ minSize })} />
        <NumberField label="Maximum size" value={config.maxSize} placeholder="none" step={1} min={1} onChange={(maxSize) => setConfig({ maxSize })} />
      </div>
      <p className="hint semantic-hint">Buffer: neighbouring sentences joined to each one before embedding. Sizes are in the unit above.</p>
    </>
  );
}

/** A number box that may be empty (null: the default). Keeps what the user types until it is a number. */
function NumberField(props: {
  label: string;
  value: number | null;
  placeholder?: string;
  step: number;
  min: number;
  integer?: boolean;
  disabled?: boolean;
  hint?: string;
  onChange: (n: number | null) => void;
}) {
  const { label, value, placeholder, step, min, integer, disabled, hint, onChange } = props;
  const id = useId();
  const [draft, setDraft] = useState(value === null ? '' : String(value));
  useEffect(() => setDraft(value === null ? '' : String(value)), [value]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        aria-label={label}
        inputMode={integer ? 'numeric' : 'decimal'}
        step={step}
        min={min}
        placeholder={placeholder}
        disabled={disabled}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          const raw = e.target.value.trim();
          if (raw === '') return onChange(null);
          const n = Number(raw);
          if (Number.isFinite(n)) onChange(n);
        }}
      />
      {hint && <p className="hint">{hint}</p>}
    </div>
  );
}

/** "Load model folder…": a transformers.js model folder (config.json, tokenizer.json, onnx/…) from this computer. */
function ModelFolderButton() {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // webkitdirectory is not in React's attribute list: set it on the element.
    input.current?.setAttribute('webkitdirectory', '');
    input.current?.setAttribute('directory', '');
  }, []);
  const onFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const files = Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file: file as Blob }));
    const name = (files[0]!.path.split('/')[0] ?? 'model') || 'model';
    void loadModelFolder({ name, files });
  };
  return (
    <>
      <button type="button" className="btn btn-small btn-quiet folder-btn" onClick={() => input.current?.click()}>
        Load model folder…
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        aria-label="Model folder"
        onChange={(e) => {
          onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </>
  );
}

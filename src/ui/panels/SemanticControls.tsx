import { useEffect, useRef } from 'react';
import { BREAKPOINT_DEFAULTS } from '../../core/semantic/breakpoints';
import type { BreakpointMode, SentenceFinder } from '../../core/types';
import { embedderCatalogue } from '../../state/embedders';
import { optionApplies } from '../../state/strategyInfo';
import { embedderDownloadHint, loadModelFolder } from '../../state/controller';
import { selectConfig, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { GroupFields, NumberField, SelectField, specOf, unitText, useShown } from './OptionFields';

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

const SENTENCE_TITLES: Record<SentenceFinder, string> = { intl: 'Intl.Segmenter', regex: 'LangChain regex' };

/**
 * The semantic options (the table's `semantic` group), each where the strategy's description lists it; a strategy
 * that lists none of them shows nothing here.
 */
export function SemanticControls() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const shown = {
    embedder: useShown('embedder'),
    breakpoint: useShown('breakpoint'),
    // Shown (disabled) also while a target number of chunks makes it unused.
    amount: optionApplies(specOf('amount'), strategy),
    chunks: useShown('chunks'),
    buffer: useShown('buffer'),
    sentences: useShown('sentences'),
    minSize: useShown('minSize'),
    maxSize: useShown('maxSize'),
  };
  const unitApplies = useShown('unit');
  const sizeUnit = unitText(specOf('minSize').control, config, strategy.defaults.unit, unitApplies);
  // LangChain's SemanticChunker finds sentences with its regex: the choice is fixed in that mode.
  const sentencesFixed = config.compat === 'langchain';

  return (
    <>
      {shown.embedder && <EmbedderField />}
      <BreakpointFields breakpoint={shown.breakpoint} amount={shown.amount} chunks={shown.chunks} />
      {(shown.buffer || shown.sentences) && (
        <div className="field-pair">
          {shown.buffer && <NumberField name="buffer" value={config.buffer} onChange={(n) => setConfig({ buffer: n ?? (specOf('buffer').default as number) })} />}
          {shown.sentences && (
            <SelectField
              name="sentences"
              value={sentencesFixed ? 'regex' : config.sentences}
              values={specOf('sentences').choices ?? []}
              title={(v) => SENTENCE_TITLES[v as SentenceFinder] ?? String(v)}
              disabled={sentencesFixed}
              onChange={(v) => setConfig({ sentences: v as SentenceFinder })}
            />
          )}
        </div>
      )}
      {(shown.minSize || shown.maxSize) && (
        <div className="field-pair">
          {shown.minSize && <NumberField name="minSize" value={config.minSize} unit={sizeUnit} onChange={(minSize) => setConfig({ minSize })} />}
          {shown.maxSize && <NumberField name="maxSize" value={config.maxSize} unit={sizeUnit} onChange={(maxSize) => setConfig({ maxSize })} />}
        </div>
      )}
      {shown.buffer && <p className="hint semantic-hint">Buffer: neighbouring sentences joined to each one before embedding. Sizes are in the unit above.</p>}
      <GroupFields group="semantic" />
    </>
  );
}

/** Where to cut: the breakpoint mode, its amount (on the mode's scale), or a target number of chunks. */
function BreakpointFields(shown: { breakpoint: boolean; amount: boolean; chunks: boolean }) {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const defaultAmount = config.breakpoint === 'absolute' ? undefined : BREAKPOINT_DEFAULTS[config.breakpoint];
  const unusedAmount = config.chunks !== null;
  return (
    <>
    {shown.breakpoint && (
      <SelectField
        name="breakpoint"
        value={config.breakpoint}
        values={specOf('breakpoint').choices ?? []}
        title={(m) => MODE_LABELS[m as BreakpointMode] ?? String(m)}
        onChange={(value) => {
          const breakpoint = value as BreakpointMode;
          // An amount belongs to its mode's scale (a percentile is not a distance): a new mode starts from its default.
          setConfig({ breakpoint, amount: breakpoint === 'absolute' ? (config.amount ?? 0.3) : null });
        }}
      />
    )}
    {shown.amount && (
      <NumberField
        name="amount"
        value={config.amount}
        placeholder={defaultAmount === undefined ? '0.3' : String(defaultAmount)}
        unsetShows={defaultAmount}
        step={config.breakpoint === 'absolute' ? 0.01 : config.breakpoint === 'percentile' || config.breakpoint === 'gradient' ? 1 : 0.1}
        disabled={unusedAmount}
        hint={unusedAmount ? 'Unused while a target number of chunks is set.' : AMOUNT_HINTS[config.breakpoint]}
        onChange={(amount) => setConfig({ amount })}
      />
    )}
    {shown.chunks && (
      <NumberField
        name="chunks"
        value={config.chunks}
        hint="Cut at the strongest gaps until there are this many chunks (overrides the threshold)."
        onChange={(chunks) => setConfig({ chunks })}
      />
    )}
    </>
  );
}

/** The embedder: the model catalogue, folders the user loaded, and an id from a link that is neither. */
function EmbedderField() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const localModels = useStore((s) => s.localModels);
  const catalogue = embedderCatalogue();
  const known = new Set([...catalogue.map((m) => m.id), ...localModels]);
  const downloadHint = embedderDownloadHint(config.embedder);
  const values = [...catalogue.map((m) => m.id), ...localModels, ...(known.has(config.embedder) ? [] : [config.embedder])];
  const title = (id: string | number): string => {
    const model = catalogue.find((m) => m.id === id);
    if (model) return model.id === 'builtin' ? 'Built-in (offline)' : model.label;
    return localModels.includes(String(id)) ? `${String(id).slice('local/'.length)} (local folder)` : String(id);
  };
  return (
    <SelectField name="embedder" value={config.embedder} values={values} title={title} onChange={(embedder) => setConfig({ embedder })}>
      <p className="hint">{downloadHint ?? (config.embedder === 'builtin' ? 'Static word vectors shipped with the app: no network.' : 'Loaded from this computer.')}</p>
      <ModelFolderButton />
    </SelectField>
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

import { useEffect, useId, useState } from 'react';
import { LANGUAGE_PRESETS, STRATEGY_NAMES, UNIT_NAMES } from '../../core/describe';
import type { KeepSeparator, StrategyName, UnitName } from '../../core/types';
import { formatSeparators, parseSeparators } from '../../state/separators';
import { defaultFor, strategyDefinition } from '../../state/strategyInfo';
import { selectConfig, selectError, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { unitLabel } from './format';
import { SemanticControls } from './SemanticControls';
import { LangchainMarkdownOptions, RetrievalControls, StructureControls } from './StructureControls';

const UNIT_TITLES: Record<string, string> = {
  chars: 'Characters',
  words: 'Words',
  cl100k_base: 'Tokens · cl100k_base (GPT-4, GPT-3.5)',
  o200k_base: 'Tokens · o200k_base (GPT-4o)',
  p50k_base: 'Tokens · p50k_base (Codex)',
  r50k_base: 'Tokens · r50k_base (GPT-3)',
  gpt2: 'Tokens · gpt2',
};

/** The configuration controls, built from the strategy registry (a strategy lists the controls it uses). */
export function ControlsPanel() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const error = useStore(selectError);
  const setConfig = useStore((s) => s.setConfig);
  const controls = new Set<string>(strategy.controls);
  const unit = controls.has('unit') ? config.unit : (strategy.defaults.unit ?? config.unit);
  const sizeMax = Math.max(unit === 'chars' ? 4000 : 2000, Number.isFinite(config.size) ? config.size : 0);
  const overlapMax = Math.max(1, (Number.isFinite(config.size) ? config.size : 1) - 1, Number.isFinite(config.overlap) ? config.overlap : 0);
  const compatAvailable = strategy.compat.includes('langchain');

  const onStrategy = (id: StrategyName) => {
    const next = strategyDefinition(id);
    const patch: Parameters<typeof setConfig>[0] = { strategy: id, separators: null, keepSeparator: null };
    // A strategy that counts in tokens by default (token windows) brings its encoding when the unit is not one;
    // a strategy that fixes its unit brings it along.
    const unitIsTokens = config.unit !== 'chars' && config.unit !== 'words';
    const wantsTokens = next.defaults.unit !== undefined && next.defaults.unit !== 'chars' && next.defaults.unit !== 'words';
    if (next.defaults.unit && (!next.controls.includes('unit') || (wantsTokens && !unitIsTokens))) patch.unit = next.defaults.unit;
    setConfig(patch);
  };

  return (
    <section className="panel controls" aria-labelledby="controls-title">
      <h2 id="controls-title" className="section-title">Splitter</h2>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}

      <Field label="Strategy" htmlFor="ctl-strategy">
        <select id="ctl-strategy" value={config.strategy} onChange={(e) => onStrategy(e.target.value as StrategyName)}>
          {STRATEGY_NAMES.map(strategyDefinition).map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
        <p className="hint">{strategy.description}</p>
      </Field>

      <Field label="Unit" htmlFor="ctl-unit">
        <select
          id="ctl-unit"
          value={unit}
          disabled={!controls.has('unit')}
          onChange={(e) => setConfig({ unit: e.target.value as UnitName })}
        >
          {UNIT_NAMES.map((u) => (
            <option key={u} value={u}>
              {UNIT_TITLES[u] ?? u}
            </option>
          ))}
        </select>
      </Field>

      {config.strategy === 'semantic' && <SemanticControls />}

      {config.strategy !== 'semantic' && (
      <RangeField
        label="Chunk size"
        unit={unitLabel(unit)}
        min={1}
        max={sizeMax}
        value={config.size}
        onChange={(size) => setConfig({ size })}
      />
      )}
      {controls.has('overlap') && config.strategy !== 'semantic' && (
        <RangeField
          label="Overlap"
          unit={unitLabel(unit)}
          min={0}
          max={overlapMax}
          value={config.overlap}
          onChange={(overlap) => setConfig({ overlap })}
        />
      )}

      <StructureControls />

      {controls.has('language') && config.strategy !== 'code' && (
        <Field label="Language preset" htmlFor="ctl-language">
          <select
            id="ctl-language"
            value={config.language ?? ''}
            onChange={(e) => setConfig({ language: e.target.value || null, separators: null })}
          >
            <option value="">None (plain text)</option>
            {Object.keys(LANGUAGE_PRESETS)
              .sort()
              .map((lang) => (
                <option key={lang} value={lang}>
                  {lang}
                </option>
              ))}
          </select>
        </Field>
      )}

      {controls.has('separators') && <SeparatorsField compat={config.compat && compatAvailable} />}

      {controls.has('locale') && (
        <Field label="Locale" htmlFor="ctl-locale">
          <input
            id="ctl-locale"
            type="text"
            className="text-input"
            spellCheck={false}
            placeholder={defaultFor(config.strategy, 'locale')}
            value={config.locale ?? ''}
            onChange={(e) => setConfig({ locale: e.target.value.trim() || null })}
          />
          <p className="hint">Sentence rules of this language (BCP 47 tag, e.g. de, ja, zh-Hans).</p>
        </Field>
      )}

      {controls.has('keepSeparator') && (
        <Field label="Keep separator" htmlFor="ctl-keep">
          <select
            id="ctl-keep"
            value={config.keepSeparator ?? defaultFor(config.strategy, 'keepSeparator')}
            onChange={(e) => setConfig({ keepSeparator: e.target.value as KeepSeparator })}
          >
            <option value="start">At the start of the next chunk</option>
            <option value="end">At the end of the previous chunk</option>
            <option value="none">Drop it</option>
          </select>
        </Field>
      )}

      <div className="field field-check">
        <label className={compatAvailable ? '' : 'is-disabled'}>
          <input
            type="checkbox"
            checked={config.compat && compatAvailable}
            disabled={!compatAvailable}
            onChange={(e) => setConfig(e.target.checked ? { compat: true, llamaindex: false } : { compat: false })}
          />
          <span>LangChain compatibility</span>
        </label>
        <LangchainMarkdownOptions />
        {strategy.compat.includes('llamaindex') && (
          <label>
            <input
              type="checkbox"
              checked={config.llamaindex && !config.compat}
              onChange={(e) => setConfig(e.target.checked ? { llamaindex: true, compat: false } : { llamaindex: false })}
            />
            <span>LlamaIndex compatibility</span>
          </label>
        )}
        <p className="hint">
          {config.strategy === 'semantic'
            ? "Reproduce LangChain's SemanticChunker or LlamaIndex's SemanticSplitterNodeParser given the same embeddings."
            : config.strategy === 'markdown' && compatAvailable
            ? "Reproduce LangChain's MarkdownHeaderTextSplitter or LlamaIndex's MarkdownNodeParser."
            : compatAvailable
            ? 'Reproduce @langchain/textsplitters 1.x exactly, quirks included.'
            : `Not available for the ${strategy.label.toLowerCase()} strategy.`}
        </p>
      </div>

      <RetrievalControls />
    </section>
  );
}

function Field({ label, htmlFor, children }: { label: string; htmlFor: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
    </div>
  );
}

/** Slider plus number box; the box keeps what the user types until it is a number. */
function RangeField(props: { label: string; unit: string; min: number; max: number; value: number; onChange: (n: number) => void }) {
  const { label, unit, min, max, value, onChange } = props;
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(Number.isFinite(value) ? String(value) : ''), [value]);
  return (
    <div className="field">
      <label htmlFor={`${id}-range`}>{label}</label>
      <div className="range-row">
        <input
          id={`${id}-range`}
          type="range"
          aria-label={label}
          min={min}
          max={max}
          step={1}
          value={Number.isFinite(value) ? Math.min(value, max) : min}
          onChange={(e) => onChange(Number(e.target.value))}
        />
        <span className="number-box">
          <input
            type="number"
            inputMode="numeric"
            aria-label={`${label} value`}
            min={min}
            step={1}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              const n = e.target.value.trim() === '' ? NaN : Number(e.target.value);
              if (Number.isFinite(n)) onChange(n);
            }}
          />
          <span className="unit">{unit}</span>
        </span>
      </div>
    </div>
  );
}

/**
 * One separator per line, with escapes (\n, \t, \s for a space, "" for the empty separator); with "Separators are
 * regular expressions" ticked, each line is a pattern's source as typed.
 */
function SeparatorsField({ compat }: { compat: boolean }) {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const regex = config.separatorsAreRegex && !compat;
  const effective =
    config.separators ??
    (config.language ? LANGUAGE_PRESETS[config.language] : undefined) ??
    defaultFor(config.strategy, 'separators');
  const shown = formatSeparators(effective, regex);
  const [draft, setDraft] = useState(shown);
  // Keep what the person typed while it still means the configured list (e.g. \s after leaving the box, or
  // extra blank lines); replace it when the list changed from elsewhere (Reset, language, a link).
  useEffect(() => {
    setDraft((current) => (sameList(parseSeparators(current, regex), effective) ? current : shown));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` stands for `effective` and `regex`
  }, [shown]);
  return (
    <div className="field">
      <div className="field-row">
        <label htmlFor="ctl-separators">Separators</label>
        {config.separators ? (
          <button type="button" className="link" onClick={() => setConfig({ separators: null })}>
            Reset
          </button>
        ) : (
          <span className="muted small">{config.language ? `${config.language} preset` : 'default'}</span>
        )}
      </div>
      <textarea
        id="ctl-separators"
        rows={Math.min(6, Math.max(3, effective.length))}
        spellCheck={false}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          setConfig({ separators: parseSeparators(e.target.value, regex) });
        }}
      />
      <p className="hint">
        {regex
          ? 'One pattern per line, coarsest first (JavaScript syntax, e.g. [.!?]\\s+); "" splits characters.'
          : 'One per line, coarsest first. Escapes: \\n \\t \\s (space); "" splits characters.'}
      </p>
      {compat ? (
        <p className="hint">Regular-expression separators need LangChain compatibility off.</p>
      ) : (
        <div className="field-check">
          <label>
            <input
              type="checkbox"
              checked={config.separatorsAreRegex}
              onChange={(e) => {
                const next = e.target.checked;
                // The text in the box stays as it is and is read the new way (typed lines, not the stored list,
                // so `[.!?]\s+` typed before ticking is the pattern, not "[.!?] +").
                setConfig(
                  config.separators
                    ? { separatorsAreRegex: next, separators: parseSeparators(draft, next) }
                    : { separatorsAreRegex: next },
                );
              }}
            />
            <span>Separators are regular expressions</span>
          </label>
        </div>
      )}
    </div>
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

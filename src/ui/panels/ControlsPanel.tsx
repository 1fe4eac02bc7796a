import { Fragment, useEffect, useState } from 'react';
import { COMPAT_MODES } from '../../core/options';
import { LANGUAGE_PRESETS } from '../../core/languages';
import { STRATEGY_NAMES } from '../../core/strategies/index';
import { UNIT_NAMES } from '../../core/units/index';
import type { CompatMode, KeepSeparator, StrategyName, UnitName } from '../../core/types';
import { formatSeparators, parseSeparators } from '../../state/separators';
import { defaultFor, strategyDefinition } from '../../state/strategyInfo';
import { selectConfig, selectError, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { unitDescriptor } from '../../core/units';
import { unitLabel } from './format';
import { CheckField, Field, fieldId, GroupFields, RangeField, SelectField, specOf, TextDraft, useShown } from './OptionFields';
import { showsSemanticControls, useSemanticControls } from './semanticControlsLoader';
import { LangchainMarkdownOptions, RetrievalControls, StructureControls } from './StructureControls';

const KEEP_TITLES: Record<KeepSeparator, string> = {
  start: 'At the start of the next chunk',
  end: 'At the end of the previous chunk',
  none: 'Drop it',
};

/** The reference library each compat mode reproduces, as the page names it. */
const COMPAT_TITLES: Partial<Record<CompatMode, string>> = { langchain: 'LangChain', llamaindex: 'LlamaIndex', chonkie: 'Chonkie' };

/** Names of a code grammar as shown (the description lists the names; unknown ones are shown as they are). */
const GRAMMAR_TITLES: Record<string, string> = {
  python: 'Python',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  tsx: 'TSX',
  go: 'Go',
  java: 'Java',
  rust: 'Rust',
  c: 'C',
  cpp: 'C++',
};

/**
 * The configuration controls. Which appear is the strategy's description (its `controls`, src/core/strategies);
 * each control's label, kind, range, unit and tooltip is its option's row in the option table. Each group's
 * options are drawn from their rows (GroupFields) but for the few with a widget of their own (HAND_DRAWN in
 * ./optionLayout.ts), which this panel and the semantic, structure and retrieval groups lay out by hand.
 */
export function ControlsPanel() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const error = useStore(selectError);
  const setConfig = useStore((s) => s.setConfig);
  const chooseStrategy = useStore((s) => s.chooseStrategy);
  const unitApplies = useShown('unit');
  const unit = unitApplies ? config.unit : (strategy.defaults.unit ?? config.unit);
  const semanticShown = showsSemanticControls(strategy);
  const SemanticControls = useSemanticControls(semanticShown);

  return (
    <section className="panel controls" aria-labelledby="controls-title">
      <h2 id="controls-title" className="section-title">Splitter</h2>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}

      <SelectField
        name="strategy"
        value={config.strategy}
        values={STRATEGY_NAMES}
        title={(id) => strategyDefinition(String(id)).label}
        onChange={(id) => chooseStrategy(id as StrategyName)}
      >
        <p className="hint">{strategy.description}</p>
      </SelectField>

      <SelectField
        name="unit"
        value={unit}
        values={UNIT_NAMES}
        title={(u) => unitDescriptor(String(u))?.title ?? String(u)}
        disabled={!unitApplies}
        onChange={(u) => setConfig({ unit: u as UnitName })}
      />

      {semanticShown && SemanticControls && <SemanticControls />}

      <SizeFields unit={unit} />

      <LanguageField />
      <StructureControls />
      {useShown('separators') && <SeparatorsField />}

      <LocaleField />

      {useShown('keepSeparator') && (
        <SelectField
          name="keepSeparator"
          value={config.keepSeparator ?? defaultFor(config.strategy, 'keepSeparator')}
          values={specOf('keepSeparator').choices ?? []}
          title={(v) => KEEP_TITLES[v as KeepSeparator] ?? String(v)}
          onChange={(v) => setConfig({ keepSeparator: v as KeepSeparator })}
        />
      )}

      <GroupFields group="splitting" />
      <CompatField />
      <RetrievalControls />
    </section>
  );
}

/** The size and overlap sliders; overlap stays smaller than the size. */
function SizeFields({ unit }: { unit: UnitName }) {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const size = specOf('size').control;
  const overlap = specOf('overlap').control;
  const finiteSize = Number.isFinite(config.size) ? config.size : 1;
  const sizeMax = Math.max(size.max ?? 4000, finiteSize);
  // Overlap must stay smaller than the size: the slider ends there (or at the table's maximum).
  const overlapMax = Math.max(1, Math.min(overlap.max ?? Infinity, finiteSize - 1), Number.isFinite(config.overlap) ? config.overlap : 0);
  return (
    <>
      {useShown('size') && <RangeField name="size" unit={unitLabel(unit)} max={sizeMax} value={config.size} onChange={(n) => setConfig({ size: n })} />}
      {useShown('overlap') && (
        <RangeField name="overlap" unit={unitLabel(unit)} max={overlapMax} value={config.overlap} onChange={(n) => setConfig({ overlap: n })} />
      )}
    </>
  );
}

/** The sentence rules' language (a BCP 47 tag). */
function LocaleField() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  if (!useShown('locale')) return null;
  return (
    <Field name="locale">
      <TextDraft
        id={fieldId('locale')}
        value={config.locale ?? ''}
        placeholder={defaultFor(config.strategy, 'locale') ?? specOf('locale').control.placeholder}
        onCommit={(value) => setConfig({ locale: value.trim() || null })}
      />
      <p className="hint">Sentence rules of this language (BCP 47 tag, e.g. de, ja, zh-Hans).</p>
    </Field>
  );
}

/**
 * `language` is what the strategy's description says: its own choice (the code strategy's grammar: the names it
 * lists, or detection from the file name) or, without one, a recursive separator preset.
 */
function LanguageField() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const shown = useShown('language');
  if (!shown) return null;
  const own = strategy.language;
  if (own) {
    const noun = own.noun.charAt(0).toUpperCase() + own.noun.slice(1);
    const id = `ctl-${own.noun.replace(/\s+/g, '-')}`;
    return (
      <SelectField
        name="language"
        id={id}
        label={noun}
        value={config.language === null ? '' : (own.resolve(config.language) ?? config.language)}
        values={['', ...own.names]}
        title={(v) => (v === '' ? 'Auto (from the file name)' : (GRAMMAR_TITLES[v] ?? String(v)))}
        onChange={(v) => setConfig({ language: v || null })}
      />
    );
  }
  return (
    <SelectField
      name="language"
      value={config.language ?? ''}
      values={['', ...Object.keys(LANGUAGE_PRESETS).sort()]}
      title={(v) => (v === '' ? 'None (plain text)' : String(v))}
      onChange={(v) => setConfig({ language: v || null, separators: null })}
    />
  );
}

/** One checkbox per compat mode the strategy implements (none: the first mode, disabled, says so). */
function CompatField() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const available = useShown('compat') ? COMPAT_MODES.filter((m): m is Exclude<CompatMode, 'none'> => m !== 'none' && strategy.compat.includes(m)) : [];
  const modes = available.length > 0 ? available : [COMPAT_MODES.find((m): m is Exclude<CompatMode, 'none'> => m !== 'none')!];
  const hint =
    available.length === 0
      ? `Not available for the ${strategy.label.toLowerCase()} strategy.`
      : (strategy.compatNote ?? 'Reproduce @langchain/textsplitters 1.x exactly, quirks included.');
  return (
    <div className="field field-check">
      {modes.map((mode, i) => (
        <Fragment key={mode}>
          <CheckField
            name="compat"
            label={`${COMPAT_TITLES[mode] ?? mode} compatibility`}
            checked={config.compat === mode && available.includes(mode)}
            disabled={!available.includes(mode)}
            onChange={(checked) => setConfig({ compat: checked ? mode : 'none' })}
          />
          {/* The strategy's options of a mode sit under its checkbox (MarkdownHeaderTextSplitter's flags). */}
          {i === 0 && <LangchainMarkdownOptions />}
        </Fragment>
      ))}
      <p className="hint">{hint}</p>
    </div>
  );
}

/**
 * One separator per line, with escapes (\n, \t, \s for a space, "" for the empty separator); with "Separators are
 * regular expressions" ticked, each line is a pattern's source as typed.
 */
function SeparatorsField() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  // The regex switch is a sub-option of the separators, in use only without a compat mode.
  const regexShown = useShown('separatorsAreRegex');
  const regex = config.separatorsAreRegex && regexShown;
  const effective =
    config.separators ??
    (config.language && Object.hasOwn(LANGUAGE_PRESETS, config.language) ? LANGUAGE_PRESETS[config.language] : undefined) ??
    defaultFor(config.strategy, 'separators');
  const shown = formatSeparators(effective, regex);
  const [draft, setDraft] = useState(shown);
  // Keep what the person typed while it still means the configured list (e.g. \s after leaving the box, or
  // extra blank lines); replace it when the list changed from elsewhere (Reset, language, a link).
  useEffect(() => {
    setDraft((current) => (sameList(parseSeparators(current, regex), effective) ? current : shown));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` stands for `effective` and `regex`
  }, [shown]);
  const spec = specOf('separators');
  return (
    <div className="field">
      <div className="field-row">
        <label htmlFor={fieldId('separators')} title={spec.help}>
          {spec.control.label}
        </label>
        {config.separators ? (
          <button type="button" className="link" onClick={() => setConfig({ separators: null })}>
            Reset
          </button>
        ) : (
          <span className="muted small">{config.language ? `${config.language} preset` : 'default'}</span>
        )}
      </div>
      <textarea
        id={fieldId('separators')}
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
      {regexShown ? (
        <div className="field-check">
          <CheckField
            name="separatorsAreRegex"
            checked={config.separatorsAreRegex}
            onChange={(next) => {
              // The text in the box stays as it is and is read the new way (typed lines, not the stored list,
              // so `[.!?]\s+` typed before ticking is the pattern, not "[.!?] +").
              setConfig(config.separators ? { separatorsAreRegex: next, separators: parseSeparators(draft, next) } : { separatorsAreRegex: next });
            }}
          />
        </div>
      ) : (
        <p className="hint">Regular-expression separators need LangChain compatibility off.</p>
      )}
    </div>
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

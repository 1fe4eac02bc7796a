import { useRef } from 'react';
import type { RetrievalMode } from '../../core/types';
import { selectConfig, selectDocName, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { CheckField, Field, fieldId, GroupFields, NumberField, SelectField, specOf, TextDraft, unitText, useShown } from './OptionFields';
import './StructureControls.css';

/**
 * Controls of the structure-aware options (the table's `structure` group), contextual headers and retrieval units.
 * Each appears only when the chosen strategy's description lists it in its `controls` (sub-options while their
 * parent's value uses them); values the engine refuses are passed on as typed, so core's validation writes the
 * one-line alert and the last good chunks stay.
 */

/** File path, heading depth, then the group's options drawn from their rows (tables as text, min fragment, raw
 * HTML): what decides where a structured document is cut. */
export function StructureControls() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const docName = useStore(selectDocName);
  const setConfig = useStore((s) => s.setConfig);
  const showPath = useShown('path');
  const showDepth = useShown('headingDepth');
  const depth = specOf('headingDepth').control;
  const depths = Array.from({ length: (depth.max ?? 6) - (depth.min ?? 1) + 1 }, (_, i) => (depth.min ?? 1) + i);

  return (
    <>
      {showPath && (
        <Field name="path">
          <TextDraft
            id={fieldId('path')}
            value={config.path ?? ''}
            placeholder={docName ?? 'e.g. src/app/main.py'}
            onCommit={(value) => setConfig({ path: value.trim() === '' ? null : value.trim() })}
          />
          <p className="hint">
            {strategy.language ? 'Chooses the grammar when Auto, and prefixes each chunk.' : 'Fills {file} in header templates.'} Empty: the document&apos;s
            name.
          </p>
        </Field>
      )}
      {showDepth && (
        <SelectField
          name="headingDepth"
          value={config.headingDepth}
          values={depths}
          title={(d) => `Split at ${'#'.repeat(Number(d))} (h1–h${d})`}
          onChange={(d) => setConfig({ headingDepth: Number(d) })}
        />
      )}
      <GroupFields group="structure" />
    </>
  );
}

/** A compat mode's own flags (MarkdownHeaderTextSplitter's), under its checkbox while it is ticked. */
export function LangchainMarkdownOptions() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const strip = useShown('stripHeaders');
  const each = useShown('returnEachLine');
  if (!strip && !each) return null;
  return (
    <div className="sub-options">
      {strip && <CheckField name="stripHeaders" checked={config.stripHeaders} onChange={(stripHeaders) => setConfig({ stripHeaders })} />}
      {each && <CheckField name="returnEachLine" checked={config.returnEachLine} onChange={(returnEachLine) => setConfig({ returnEachLine })} />}
    </div>
  );
}

const RETRIEVAL_TITLES: Record<RetrievalMode, string> = {
  chunks: 'Chunks',
  'parent-child': 'Parent–child (small-to-big)',
  window: 'Sentence windows',
  hierarchical: 'Hierarchical levels',
};

/** The header select's three states for `headers`: null, true (the default template), a template. */
type HeaderChoice = 'off' | 'path' | 'custom';
const HEADER_TITLES: Record<HeaderChoice, string> = { off: 'Off', path: 'Title and heading path', custom: 'Custom template' };

/** Contextual header and retrieval units: what a pipeline embeds and retrieves, on top of the cuts. */
export function RetrievalControls() {
  return (
    <>
      <HeaderControls />
      <RetrievalUnitControls />
      <GroupFields group="headers" />
      <GroupFields group="retrieval" />
    </>
  );
}

/** The contextual header: off, the title and heading path, or a custom template. */
function HeaderControls() {
  const config = useStore(selectConfig);
  const setConfig = useStore((s) => s.setConfig);
  const showHeaders = useShown('headers');
  // A template typed and then switched off is remembered here (page state, not configuration) for "Custom" again.
  const lastTemplate = useRef('');
  const headers = config.headers;
  const choice: HeaderChoice = headers === null ? 'off' : headers === true ? 'path' : 'custom';
  if (typeof headers === 'string') lastTemplate.current = headers;
  if (!showHeaders) return null;
  return (
    <SelectField
      name="headers"
      value={choice}
      values={Object.keys(HEADER_TITLES)}
      title={(v) => HEADER_TITLES[v as HeaderChoice]}
      onChange={(v) => setConfig({ headers: v === 'off' ? null : v === 'path' ? true : lastTemplate.current })}
    >
      {choice === 'custom' && (
        <TextDraft
          id="ctl-header-template"
          label="Header template"
          className="text-input sub-input"
          value={typeof headers === 'string' ? headers : ''}
          placeholder="{title} > {path}\n\n"
          onCommit={(template) => setConfig({ headers: template })}
        />
      )}
      <p className="hint">
        {choice === 'off'
          ? 'Prefix each chunk’s content with its context before embedding.'
          : 'Placeholders {title} {path} {file}; \\n for a line break. Sizes include the header.'}
      </p>
    </SelectField>
  );
}

/** Retrieval units: the mode, then its parent size, window or levels. */
function RetrievalUnitControls() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const showRetrieval = useShown('retrieval');
  const showParent = useShown('parentSize');
  const showWindow = useShown('window');
  const showLevels = useShown('levels');
  const unitApplies = useShown('unit');
  if (!showRetrieval) return null;
  return (
    <SelectField
      name="retrieval"
      value={config.retrieval}
      values={specOf('retrieval').choices ?? []}
      title={(m) => RETRIEVAL_TITLES[m as RetrievalMode] ?? String(m)}
      onChange={(m) => setConfig({ retrieval: m as RetrievalMode })}
    >
      {showParent && (
        <NumberField
          sub
          name="parentSize"
          value={config.parentSize}
          unit={unitText(specOf('parentSize').control, config, strategy.defaults.unit, unitApplies)}
          placeholder={strategy.hasSections ? 'sections' : undefined}
          hint={`Children are the chunks cut inside each parent${strategy.hasSections ? '; empty: one parent per section' : ''}.`}
          onChange={(parentSize) => setConfig({ parentSize })}
        />
      )}
      {showWindow && (
        <NumberField
          sub
          name="window"
          value={config.window}
          hint="One unit per sentence; its window stops at section boundaries."
          onChange={(n) => n !== null && setConfig({ window: n })}
        />
      )}
      {showLevels && (
        <div className="sub-field">
          <label htmlFor={fieldId('levels')} title={specOf('levels').help}>
            {specOf('levels').control.label}
          </label>
          <TextDraft
            id={fieldId('levels')}
            value={config.levels}
            placeholder={(specOf('levels').default as number[]).join(', ')}
            onCommit={(levels) => setConfig({ levels })}
          />
          <p className="hint">
            Sizes in {unitText({ kind: 'text', label: '', unit: 'unit' }, config, strategy.defaults.unit, unitApplies)}, largest first, each level cut
            inside the one above.
          </p>
        </div>
      )}
    </SelectField>
  );
}

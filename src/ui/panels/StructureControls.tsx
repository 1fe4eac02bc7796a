import { useEffect, useState } from 'react';
import type { RetrievalMode } from '../../core/types';
import { CODE_LANGUAGES, type HeaderMode } from '../../state/configSlice';
import { selectConfig, selectDocName, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { unitLabel } from './format';
import './StructureControls.css';

/**
 * Controls of the structure-aware strategies (markdown, html, code), contextual headers and retrieval units.
 * Each appears only when the chosen strategy lists it in its registry `controls`; values the engine refuses are
 * passed on as typed, so core's validation writes the one-line alert and the last good chunks stay.
 */

const LANGUAGE_TITLES: Record<string, string> = {
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

/** Heading depth, tables as text, code language and file path: what decides where a structured document is cut. */
export function StructureControls() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const docName = useStore(selectDocName);
  const setConfig = useStore((s) => s.setConfig);
  const controls = new Set<string>(strategy.controls);
  const isCode = config.strategy === 'code';
  const showPath = controls.has('path') || isCode;
  if (!controls.has('headingDepth') && !controls.has('rowsAsText') && !showPath) return null;

  return (
    <>
      {isCode && (
        <div className="field">
          <label htmlFor="ctl-code-language">Code language</label>
          <select
            id="ctl-code-language"
            value={config.codeLanguage ?? ''}
            onChange={(e) => setConfig({ codeLanguage: e.target.value || null })}
          >
            <option value="">Auto (from the file name)</option>
            {CODE_LANGUAGES.map((lang) => (
              <option key={lang} value={lang}>
                {LANGUAGE_TITLES[lang] ?? lang}
              </option>
            ))}
          </select>
        </div>
      )}
      {showPath && (
        <div className="field">
          <label htmlFor="ctl-path">File path</label>
          <TextDraft
            id="ctl-path"
            value={config.path ?? ''}
            placeholder={docName ?? 'e.g. src/app/main.py'}
            onCommit={(value) => setConfig({ path: value.trim() === '' ? null : value.trim() })}
          />
          <p className="hint">{isCode ? 'Chooses the grammar when Auto, and prefixes each chunk.' : 'Fills {file} in header templates.'} Empty: the document&apos;s name.</p>
        </div>
      )}
      {controls.has('headingDepth') && (
        <div className="field">
          <label htmlFor="ctl-heading-depth">Heading depth</label>
          <select id="ctl-heading-depth" value={config.headingDepth} onChange={(e) => setConfig({ headingDepth: Number(e.target.value) })}>
            {[1, 2, 3, 4, 5, 6].map((depth) => (
              <option key={depth} value={depth}>
                {`Split at ${'#'.repeat(depth)} (h1–h${depth})`}
              </option>
            ))}
          </select>
        </div>
      )}
      {controls.has('rowsAsText') && (
        <div className="field field-check">
          <label>
            <input type="checkbox" checked={config.rowsAsText} onChange={(e) => setConfig({ rowsAsText: e.target.checked })} />
            <span>Tables as column: value text</span>
          </label>
          <p className="hint">Each table row becomes “column: value” lines in the chunk’s content.</p>
        </div>
      )}
    </>
  );
}

/** MarkdownHeaderTextSplitter's own flags, under the "LangChain compatibility" checkbox while it is ticked. */
export function LangchainMarkdownOptions() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const controls = new Set<string>(strategy.controls);
  if (!config.compat || !strategy.compat.includes('langchain')) return null;
  if (!controls.has('stripHeaders') && !controls.has('returnEachLine')) return null;
  return (
    <div className="sub-options">
      {controls.has('stripHeaders') && (
        <label>
          <input type="checkbox" checked={config.stripHeaders} onChange={(e) => setConfig({ stripHeaders: e.target.checked })} />
          <span>Strip headers</span>
        </label>
      )}
      {controls.has('returnEachLine') && (
        <label>
          <input type="checkbox" checked={config.returnEachLine} onChange={(e) => setConfig({ returnEachLine: e.target.checked })} />
          <span>One chunk per line</span>
        </label>
      )}
    </div>
  );
}

const RETRIEVAL_TITLES: Record<RetrievalMode, string> = {
  chunks: 'Chunks',
  'parent-child': 'Parent–child (small-to-big)',
  window: 'Sentence windows',
  hierarchical: 'Hierarchical levels',
};

/** Contextual header and retrieval units: what a pipeline embeds and retrieves, on top of the cuts. */
export function RetrievalControls() {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const controls = new Set<string>(strategy.controls);
  const unit = controls.has('unit') ? config.unit : (strategy.defaults.unit ?? config.unit);

  return (
    <>
      {controls.has('headers') && (
        <div className="field">
          <label htmlFor="ctl-header">Contextual header</label>
          <select id="ctl-header" value={config.headerMode} onChange={(e) => setConfig({ headerMode: e.target.value as HeaderMode })}>
            <option value="off">Off</option>
            <option value="path">Title and heading path</option>
            <option value="custom">Custom template</option>
          </select>
          {config.headerMode === 'custom' && (
            <TextDraft
              id="ctl-header-template"
              label="Header template"
              className="text-input sub-input"
              value={config.headerTemplate}
              placeholder="{title} > {path}\n\n"
              onCommit={(headerTemplate) => setConfig({ headerTemplate })}
            />
          )}
          <p className="hint">
            {config.headerMode === 'off'
              ? 'Prefix each chunk’s content with its context before embedding.'
              : 'Placeholders {title} {path} {file}; \\n for a line break. Sizes include the header.'}
          </p>
        </div>
      )}
      {controls.has('retrieval') && (
        <div className="field">
          <label htmlFor="ctl-retrieval">Retrieval units</label>
          <select id="ctl-retrieval" value={config.retrieval} onChange={(e) => setConfig({ retrieval: e.target.value as RetrievalMode })}>
            {(Object.keys(RETRIEVAL_TITLES) as RetrievalMode[]).map((mode) => (
              <option key={mode} value={mode}>
                {RETRIEVAL_TITLES[mode]}
              </option>
            ))}
          </select>
          {config.retrieval === 'parent-child' && (
            <div className="sub-field">
              <label htmlFor="ctl-parent-size">Parent size</label>
              <span className="number-box">
                <NumberDraft
                  id="ctl-parent-size"
                  value={config.parentSize}
                  placeholder={strategy.hasSections ? 'sections' : 'default'}
                  onCommit={(parentSize) => setConfig({ parentSize })}
                />
                <span className="unit">{unitLabel(unit)}</span>
              </span>
              <p className="hint">Children are the chunks cut inside each parent{strategy.hasSections ? '; empty: one parent per section' : ''}.</p>
            </div>
          )}
          {config.retrieval === 'window' && (
            <div className="sub-field">
              <label htmlFor="ctl-window">Window (sentences each side)</label>
              <NumberDraft id="ctl-window" value={config.window} onCommit={(n) => n !== null && setConfig({ window: n })} />
              <p className="hint">One unit per sentence; its window stops at section boundaries.</p>
            </div>
          )}
          {config.retrieval === 'hierarchical' && (
            <div className="sub-field">
              <label htmlFor="ctl-levels">Levels</label>
              <TextDraft id="ctl-levels" value={config.levels} placeholder="2048, 512, 128" onCommit={(levels) => setConfig({ levels })} />
              <p className="hint">Sizes in {unitLabel(unit)}, largest first, each level cut inside the one above.</p>
            </div>
          )}
        </div>
      )}
    </>
  );
}

/** A text box that keeps what the person types and passes it on at once (the engine validates it). */
function TextDraft(props: { id: string; value: string; placeholder?: string; label?: string; className?: string; onCommit: (value: string) => void }) {
  const { id, value, placeholder, label, className, onCommit } = props;
  const [draft, setDraft] = useState(value);
  // A change from elsewhere (a link, Reset) replaces the draft; the person's own typing does not come back here.
  useEffect(() => setDraft((current) => (current === value ? current : value)), [value]);
  return (
    <input
      id={id}
      type="text"
      className={className ?? 'text-input'}
      aria-label={label}
      spellCheck={false}
      autoComplete="off"
      placeholder={placeholder}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        onCommit(e.target.value);
      }}
    />
  );
}

/** A number box; empty means null (the engine's default). What is not yet a number stays in the box, unsent. */
function NumberDraft(props: { id: string; value: number | null; placeholder?: string; onCommit: (value: number | null) => void }) {
  const { id, value, placeholder, onCommit } = props;
  const [draft, setDraft] = useState(value === null ? '' : String(value));
  useEffect(() => setDraft((current) => (Number(current) === value || (current.trim() === '' && value === null) ? current : value === null ? '' : String(value))), [value]);
  return (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      step={1}
      placeholder={placeholder}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        const text = e.target.value.trim();
        if (text === '') onCommit(null);
        else if (Number.isFinite(Number(text))) onCommit(Number(text));
      }}
    />
  );
}

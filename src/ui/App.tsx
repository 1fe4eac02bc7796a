import { DISPLAY_NAME_LIMIT, PATH_LIMIT, shortenFileName } from '../state/fileName';
import { selectDocLength, selectDocName, selectStrategy } from '../state/selectors';
import { useStore } from '../state/store';
import { ChunkEditor } from './editor/ChunkEditor';
import { Header } from './Header';
import { UpdateBanner } from '../pwa/PwaStatus';
import { DocumentConflictBanner } from './DocumentConflictBanner';
import { DocumentTabs } from './DocumentTabs';
import { EmbedderConsentBanner } from './EmbedderConsentBanner';
import { PreviousDocumentBanner } from './PreviousDocumentBanner';
import { LlmSection } from './llm/LlmSection';
import { ChunkList } from './panels/ChunkList';
import { ControlsPanel } from './panels/ControlsPanel';
import { DocumentPanel } from './panels/DocumentPanel';
import { StatsPanel } from './panels/StatsPanel';
import { formatNumber } from './panels/format';
import { lazy, Suspense } from 'react';
import { AfterFirstPaint } from './afterFirstPaint';
// The lab's styles stay in the page's stylesheet, in the cascade order they always had (styles.css's .panel after them).
import './lab/lab.css';

// Loaded on first use, not on the first screen's path (issue 28): the lab, and the similarity curve of the strategies that embed.
const LabSection = lazy(() => import('./lab/LabPanel').then((m) => ({ default: m.LabSection })));
const SemanticPanel = lazy(() => import('./panels/SemanticPanel').then((m) => ({ default: m.SemanticPanel })));

export function App() {
  const projector = useStore((s) => s.config.projector);
  return (
    <div className={projector ? 'app is-projector' : 'app'}>
      <UpdateBanner />
      <Header />
      <DocumentConflictBanner />
      <PreviousDocumentBanner />
      <EmbedderConsentBanner />
      <main className="layout">
        <aside className="sidebar" aria-label="Document and splitter settings">
          <DocumentPanel />
          <ControlsPanel />
        </aside>
        <section className="editor-pane" aria-label="Editor">
          <DocumentTabs />
          <EditorBar />
          <ChunkEditor />
          <SemanticSection />
          <AfterFirstPaint placeholder={<LabBarPlaceholder />}>
            <LabSection />
          </AfterFirstPaint>
          <LlmSection />
        </section>
        <aside className="results" aria-label="Results">
          <StatsPanel />
          <ChunkList />
        </aside>
      </main>
    </div>
  );
}

function SemanticSection() {
  // The similarity curve belongs to a strategy that embeds sentences (its description says so).
  const semantic = useStore((s) => selectStrategy(s).needsEmbeddings === true);
  return semantic ? (
    <Suspense fallback={null}>
      <SemanticPanel />
    </Suspense>
  ) : null;
}

/** The lab's closed bar, as LabSection draws it, until the lab's code is in (a click opens it once it is). */
function LabBarPlaceholder() {
  const toggleLab = useStore((s) => s.toggleLab);
  return (
    <section className="panel lab" aria-label="Evaluation lab">
      <div className="lab-bar">
        <button type="button" className="lab-toggle" aria-expanded={false} onClick={toggleLab}>
          <span aria-hidden="true">▸</span> Evaluation lab
        </button>
      </div>
    </section>
  );
}

function EditorBar() {
  const name = useStore(selectDocName);
  const length = useStore(selectDocLength);
  // Structure marks get a legend entry only when the painted chunks have them.
  const structure = useStore((s) => s.result?.structure);
  const hasBreadcrumbs = structure ? structure.paths.some((p) => p.length > 0) : false;
  const hasInjected = structure?.prefixIndex ? structure.prefixIndex.some((i) => i >= 0) : false;
  const hasParents = Boolean(structure?.parents);
  return (
    <div className="editor-bar">
      <span className="doc-name" title={name ? shortenFileName(name, PATH_LIMIT) : 'Pasted text'}>
        {name ? shortenFileName(name, DISPLAY_NAME_LIMIT) : 'Pasted text'}
      </span>
      <span className="muted small">{formatNumber(length)} chars</span>
      <span className={hasBreadcrumbs || hasInjected || hasParents ? 'legend has-structure' : 'legend'} aria-hidden="true">
        <span className="legend-basic">
          <span className="swatch swatch-even" /> chunk
          <span className="swatch swatch-odd" /> next chunk
        </span>
        <span className="swatch swatch-overlap" /> overlap
        {hasBreadcrumbs && (
          <>
            <span className="swatch swatch-breadcrumb" /> breadcrumb
          </>
        )}
        {hasParents && (
          <>
            <span className="swatch swatch-parent" /> parent
          </>
        )}
        {/* Room is short: the structure entries replace this one when they are shown. */}
        {!hasBreadcrumbs && !hasInjected && !hasParents && (
          <span className="legend-gap">
            <span className="swatch swatch-gap" /> outside every chunk
          </span>
        )}
      </span>
      {/* Outside the aria-hidden legend: a control must stay reachable. */}
      {hasInjected && <InjectedToggle />}
    </div>
  );
}

/** Injected text (contextual headers, repeated table headers) in full or collapsed to a "⤷ header" mark. */
function InjectedToggle() {
  const projector = useStore((s) => s.config.projector);
  const injectedShown = useStore((s) => s.injectedShown);
  const setInjectedShown = useStore((s) => s.setInjectedShown);
  const shown = injectedShown ?? !projector;
  return (
    <button
      type="button"
      className="link legend-toggle"
      aria-pressed={shown}
      aria-label="Show injected text"
      title={shown ? 'Collapse injected text to a ⤷ mark' : 'Show injected text in full'}
      onClick={() => setInjectedShown(!shown)}
    >
      <span className="swatch swatch-injected" aria-hidden="true" /> injected text{shown ? '' : ' (collapsed)'}
    </button>
  );
}

import { useEffect, useState } from 'react';
import { useAfterFirstPaint } from './afterFirstPaint';
import { OfflineStatus, usePwa } from '../pwa/PwaStatus';
import { downloadFile } from '../state/controller';
import { SHARE_FRAGMENT_LIMIT } from '../state/shareFragment';
import { currentShareFile, currentShareLink, loadShareLinkCodec } from '../state/shareLinkSync';
import { lazyPartFailed } from '../state/lazyPart';
import { selectChunkCount, selectError, selectProgress, selectResult, selectRunning } from '../state/selectors';
import { useStore } from '../state/store';
import { ExportMenu } from './export/ExportMenu';
import './header.css';
import { formatNumber } from './panels/format';

/** App name, tagline, a live status line and the export actions. */
export function Header() {
  const running = useStore(selectRunning);
  const progress = useStore(selectProgress);
  const result = useStore(selectResult);
  const count = useStore(selectChunkCount);
  const error = useStore(selectError);
  const loadProgress = useStore((s) => s.loadProgress);

  const embedProgress = useStore((s) => s.embedProgress);
  const { online } = usePwa();
  let status: string;
  if (loadProgress !== null) status = `Loading document… ${Math.round(loadProgress * 100)}%`;
  else if (embedProgress?.stage === 'loading') status = 'Loading the embedding model…';
  else if (embedProgress?.stage === 'downloading') status = `Downloading the embedding model… ${Math.round(embedProgress.fraction * 100)}%`;
  else if (embedProgress?.stage === 'embedding') status = `Embedding sentences… ${Math.round(embedProgress.fraction * 100)}%`;
  else if (running && progress !== null) status = `Chunking… ${Math.round(progress * 100)}%`;
  else if (running) status = 'Chunking…';
  // Offline, a failure is the network's (a model that is not cached), not the settings'.
  else if (error && !online) status = result ? 'Offline — showing the last good result' : 'Offline — this needs the network';
  else if (error && result) status = 'Settings invalid — showing the last good result';
  else if (error) status = 'Settings invalid';
  else if (result) status = `${formatNumber(count)} ${count === 1 ? 'chunk' : 'chunks'} in ${result.elapsedMs < 1 ? '<1' : Math.round(result.elapsedMs)} ms`;
  else status = 'Starting…';

  return (
    <header className="app-header">
      <div className="brand">
        <svg className="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <rect x="2" y="4" width="9" height="7" rx="2" fill="#56B4E9" />
          <rect x="8" y="8" width="9" height="7" rx="2" fill="#E69F00" opacity="0.9" />
          <rect x="13" y="13" width="9" height="7" rx="2" fill="#0072B2" />
        </svg>
        <h1 className="app-name">Chunkscope</h1>
        <span className="tagline">See where your chunks begin, end and overlap.</span>
      </div>
      <div className="status" role="status" aria-live="polite">
        <span className={`status-dot${running || loadProgress !== null || embedProgress !== null ? ' is-busy' : error ? ' is-warn' : ''}`} aria-hidden="true" />
        <span className="status-text" data-testid="status" title={error && !online ? error : undefined}>
          {status}
        </span>
        <span className="status-sep" aria-hidden="true">·</span>
        <span className="muted status-note" title="Chunking runs in a Web Worker in this page; nothing leaves your browser">
          Nothing leaves your browser
        </span>
      </div>
      <div className="actions">
        <ProjectorToggle />
        <OfflineStatus />
        <CopyLinkButton />
        <ExportMenu />
      </div>
    </header>
  );
}

/** Projector mode (the option table's `projector`, so a link can open in it): larger type, fewer marks at once. */
function ProjectorToggle() {
  const projector = useStore((s) => s.config.projector);
  const setConfig = useStore((s) => s.setConfig);
  return (
    <button
      type="button"
      className={`btn btn-quiet projector-toggle${projector ? ' is-on' : ''}`}
      aria-pressed={projector}
      title="Projector mode: larger type; breadcrumbs where the section changes; injected text collapsed; the similarity curve in bins"
      onClick={() => setConfig({ projector: !projector })}
    >
      Projector
    </button>
  );
}

/**
 * Copies a link that restores the configuration (query) and the document (fragment, compressed, never sent to a
 * server). A document too large for a link gets a message and "Download share file" instead.
 */
// Formatted once: toLocaleString on every render (each result re-renders the header) costs about a millisecond.
const COPY_LINK_TITLE = `Copy a link that restores these settings and this document (compressed into the link, up to ${SHARE_FRAGMENT_LIMIT.toLocaleString('en-US')} characters; never sent to a server)`;

function CopyLinkButton() {
  const [copied, setCopied] = useState(false);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  // The codec is fetched in idle time after the first paint, so a click finds it (and the clipboard its gesture).
  const after = useAfterFirstPaint();
  useEffect(() => {
    if (after) loadShareLinkCodec().catch(() => {});
  }, [after]);
  const copy = async () => {
    const link = await currentShareLink(useStore).catch(() => null);
    if (!link) {
      useStore.getState().setNotice(lazyPartFailed('share-link code'));
      return;
    }
    if (!link.ok) {
      setTooLarge(link.message);
      return;
    }
    setTooLarge(null);
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
      setTimeout(() => setCopied(false), 1200);
    } catch {
      /* clipboard refused: show the link so it can be copied by hand */
      window.prompt('Copy this link:', link.url);
    }
  };
  const download = async () => {
    const file = await currentShareFile(useStore).catch(() => null);
    if (!file) {
      useStore.getState().setNotice(lazyPartFailed('share-link code'));
      return;
    }
    downloadFile(file.name, file.text, 'application/json');
    setTooLarge(null);
  };
  return (
    <span className="share-link">
      <button
        type="button"
        className="btn btn-quiet"
        aria-label="Copy link"
        title={COPY_LINK_TITLE}
        onClick={copy}
      >
        {copied ? 'Link copied' : 'Copy link'}
      </button>
      {tooLarge && (
        <span className="share-too-large" role="alert" data-testid="share-too-large">
          {tooLarge}{' '}
          <button type="button" className="btn" onClick={download}>
            Download share file
          </button>{' '}
          <button type="button" className="btn btn-quiet" aria-label="Close" onClick={() => setTooLarge(null)}>
            ×
          </button>
        </span>
      )}
    </span>
  );
}

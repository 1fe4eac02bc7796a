import { useRef } from 'react';
import { shortenFileName } from '../state/fileName';
import { useStore } from '../state/store';

/** Characters of a name a tab shows (the full name is its tooltip). */
const TAB_NAME_LIMIT = 28;

/**
 * The open documents as a strip of tabs above the editor, shown only when more than one is open (the one-document
 * page looks as it always did; DocumentTabs.tsx loads this file then). Arrow keys move between tabs, Home/End to the ends, Enter or Space shows a document,
 * Delete closes it.
 */
export function DocumentTabStrip() {
  const docs = useStore((s) => s.openDocuments);
  const active = useStore((s) => s.activeDocument);
  const switchDocument = useStore((s) => s.switchDocument);
  const closeDocument = useStore((s) => s.closeDocument);
  const strip = useRef<HTMLDivElement>(null);
  if (docs.length < 2) return null;
  const focusTab = (i: number) => strip.current?.querySelectorAll<HTMLElement>('[role="tab"]')[i]?.focus();
  const show = (i: number) => switchDocument(i);
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const last = docs.length - 1;
    const to = e.key === 'ArrowRight' ? (i === last ? 0 : i + 1) : e.key === 'ArrowLeft' ? (i === 0 ? last : i - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (to !== null) {
      e.preventDefault();
      focusTab(to);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      show(i);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      closeDocument(i);
      requestAnimationFrame(() => focusTab(Math.min(i, docs.length - 2)));
    }
  };
  return (
    <div className="doc-tabs" role="tablist" aria-label="Open documents" ref={strip} data-testid="document-tabs">
      {docs.map((d, i) => (
        <div key={d.name} className={`doc-tab${i === active ? ' is-active' : ''}`}>
          <button
            type="button"
            role="tab"
            aria-selected={i === active}
            tabIndex={i === active ? 0 : -1}
            title={d.name}
            onClick={() => show(i)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {shortenFileName(d.name, TAB_NAME_LIMIT)}
          </button>
          <button type="button" className="doc-tab-close" aria-label={`Close ${d.name}`} title={`Close ${d.name}`} tabIndex={-1} onClick={() => closeDocument(i)}>
            ×
          </button>
        </div>
      ))}
      <span className="doc-tabs-count muted small">{docs.length} documents · one configuration</span>
    </div>
  );
}


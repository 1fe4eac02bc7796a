import { labShareAfterKey, labShareAtPointer, MAX_LAB_SHARE, MIN_LAB_SHARE } from '../../state/labLayout';
import type { LabTab } from '../../state/labSlice';
import { useStore } from '../../state/store';
import { CompareTab } from './CompareTab';
import { GoldenTab } from './GoldenTab';
import { LlmCompareTab } from './LlmCompareTab';
import { ProbeTab } from './ProbeTab';
import { SweepTab } from './SweepTab';
import './lab.css';

/**
 * The evaluation lab under the editor: the query probe (what a question retrieves, live), the golden set (questions
 * with answer spans marked in the editor; run it, read why questions fail), the sweep (a grid of sizes × overlaps
 * scored in the worker) and the comparison with a pinned configuration. Retrieval and scoring run in the chunk worker
 * (src/state/labJobs.ts); this file only lays out and dispatches. All document text is rendered as React text.
 */

const TABS: { id: LabTab; label: string }[] = [
  { id: 'probe', label: 'Query probe' },
  { id: 'golden', label: 'Golden set' },
  { id: 'sweep', label: 'Sweep' },
  { id: 'compare', label: 'Compare' },
  { id: 'llm', label: 'With LLM' },
];


export function LabSection() {
  const open = useStore((s) => s.labOpen);
  const tab = useStore((s) => s.labTab);
  const showLabTab = useStore((s) => s.showLabTab);
  const toggleLab = useStore((s) => s.toggleLab);
  const pinned = useStore((s) => s.pinned !== null);
  const onTabKey = (e: React.KeyboardEvent, i: number) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    e.preventDefault();
    const next = TABS[(i + d + TABS.length) % TABS.length]!;
    showLabTab(next.id);
    document.getElementById(`lab-tab-${next.id}`)?.focus();
  };
  const share = useStore((s) => s.labShare);
  return (
    <section className={`panel lab${open ? ' is-open' : ''}`} aria-label="Evaluation lab" style={open ? ({ '--lab-share': share } as React.CSSProperties) : undefined}>
      {open && <LabSplitter />}
      <div className="lab-bar">
        <button type="button" className="lab-toggle" aria-expanded={open} aria-controls="lab-body" onClick={toggleLab}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> Evaluation lab
        </button>
        {open && (
          <div role="tablist" aria-label="Lab views" className="lab-tabs">
            {TABS.map((t, i) => (
              <button
                key={t.id}
                id={`lab-tab-${t.id}`}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                aria-controls="lab-body"
                tabIndex={tab === t.id ? 0 : -1}
                className={tab === t.id ? 'is-active' : ''}
                onClick={() => showLabTab(t.id)}
                onKeyDown={(e) => onTabKey(e, i)}
              >
                {t.label}
                {t.id === 'compare' && pinned ? ' · A pinned' : ''}
              </button>
            ))}
          </div>
        )}
      </div>
      {open && (
        <div id="lab-body" role="tabpanel" aria-labelledby={`lab-tab-${tab}`} className="lab-body">
          {tab === 'probe' && <ProbeTab />}
          {tab === 'golden' && <GoldenTab />}
          {tab === 'sweep' && <SweepTab />}
          {tab === 'compare' && <CompareTab />}
          {tab === 'llm' && <LlmCompareTab />}
        </div>
      )}
    </section>
  );
}

/**
 * The separator between the editor and the open lab: drag it, or focus it and press ↑/↓ (PageUp/PageDown, Home/End).
 * The lab's share of the pane is kept in the store and remembered in the browser (labLayout.ts).
 */
function LabSplitter() {
  const share = useStore((s) => s.labShare);
  const setLabShare = useStore((s) => s.setLabShare);
  const paneOf = (el: Element) => el.closest('.editor-pane')?.getBoundingClientRect() ?? null;
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    const handle = e.currentTarget;
    const pane = paneOf(handle);
    if (!pane || e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => setLabShare(labShareAtPointer(ev.clientY, pane.top, pane.height));
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  return (
    <div
      className="lab-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the lab (↑ ↓)"
      aria-valuemin={Math.round(MIN_LAB_SHARE * 100)}
      aria-valuemax={Math.round(MAX_LAB_SHARE * 100)}
      aria-valuenow={Math.round(share * 100)}
      aria-valuetext={`Lab ${Math.round(share * 100)}% of the editor pane`}
      tabIndex={0}
      title="Drag, or focus and press ↑ ↓, to resize the lab"
      data-testid="lab-splitter"
      onPointerDown={onPointerDown}
      onKeyDown={(e) => {
        const next = labShareAfterKey(share, e.key);
        if (next === null) return;
        e.preventDefault();
        setLabShare(next);
      }}
    />
  );
}

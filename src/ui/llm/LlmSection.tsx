import { lazy, Suspense, useEffect } from 'react';
import { useStore } from '../../state/store';
import { useAfterFirstPaint } from '../afterFirstPaint';
import './llm.css';

// The LLM layer (features, providers, the engine's resplit) loads with the panel, not with the page.
const LlmBody = lazy(() => import('./LlmBody'));

/**
 * The LLM panel under the editor: collapsed it is one bar; open, settings on the left and the estimate, Run /
 * Cancel, progress and the run drawn over its source on the right. The settings are kept and a result is dropped
 * with its document from the start (state/llmSync.ts).
 */
export function LlmSection() {
  const open = useStore((s) => s.llmOpen);
  const toggle = useStore((s) => s.toggleLlm);
  // Nothing to keep or drop before the first paint (no settings changed, no result): the sync starts after it.
  const afterPaint = useAfterFirstPaint();
  useEffect(() => {
    if (!afterPaint) return;
    let stop: (() => void) | null = null;
    let gone = false;
    void import('../../state/llmSync').then(
      (m) => (gone ? undefined : (stop = m.startLlmSync(useStore))),
      () => {},
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, [afterPaint]);
  return (
    <section className={`panel llm${open ? ' is-open' : ''}`} aria-label="LLM features">
      <div className="llm-bar">
        <button type="button" className="llm-toggle" aria-expanded={open} aria-controls="llm-body" onClick={toggle}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> LLM features
        </button>
        {!open && <span className="muted small">contextual retrieval, propositions, boundaries, summaries — nothing is sent until you press Run</span>}
      </div>
      {open && (
        <Suspense fallback={<p className="muted small">Loading the LLM panel…</p>}>
          <LlmBody />
        </Suspense>
      )}
    </section>
  );
}

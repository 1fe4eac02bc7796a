import { useEffect } from 'react';
import { useStore } from '../../state/store';
import { LlmResults } from './LlmResults';
import { LlmRunPanel } from './LlmRunPanel';
import { LlmSettingsForm } from './LlmSettingsForm';
import { pageLlm } from './pageLlm';
import './llm.css';

/**
 * The LLM panel under the editor: settings on the left; estimate, Run / Cancel, progress and the run drawn over its
 * source on the right. Collapsed it is one bar; its controller starts with the page (settings kept, results dropped
 * with their document, the estimate kept fresh while open).
 */
export function LlmSection() {
  const open = useStore((s) => s.llmOpen);
  const toggle = useStore((s) => s.toggleLlm);
  useEffect(() => pageLlm().start(), []);
  return (
    <section className={`panel llm${open ? ' is-open' : ''}`} aria-label="LLM features">
      <div className="llm-bar">
        <button type="button" className="llm-toggle" aria-expanded={open} aria-controls="llm-body" onClick={toggle}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> LLM features
        </button>
        {!open && <span className="muted small">contextual retrieval, propositions, boundaries, summaries — nothing is sent until you press Run</span>}
      </div>
      {open && (
        <div id="llm-body" className="llm-body">
          <LlmSettingsForm />
          <div className="llm-main">
            <LlmRunPanel />
            <LlmResults />
          </div>
        </div>
      )}
    </section>
  );
}

import { useEffect } from 'react';
import { LlmResults } from './LlmResults';
import { LlmRunPanel } from './LlmRunPanel';
import { LlmSettingsForm } from './LlmSettingsForm';
import { pageLlm } from './pageLlm';

/** Stops nothing on unmount: a run goes on while the panel is collapsed. */
let started = false;

/** The open panel (loaded on first open, with the LLM layer): settings, estimate, Run / Cancel, progress, results. */
export default function LlmBody() {
  useEffect(() => {
    if (started) return;
    started = true;
    pageLlm().start();
  }, []);
  return (
    <div id="llm-body" className="llm-body">
      <LlmSettingsForm />
      <div className="llm-main">
        <LlmRunPanel />
        <LlmResults />
      </div>
    </div>
  );
}

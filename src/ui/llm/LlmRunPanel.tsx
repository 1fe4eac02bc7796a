import { useEffect, useState } from 'react';
import { toChunkOptions } from '../../state/chunkOptions';
import { documentFacts, downloadFile } from '../../state/controller';
import { llmLibraryCode, llmRunFile } from '../../state/llmExport';
import { endpointHost, isLoopback } from '../../state/llmSettings';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';
import { pageLlm } from './pageLlm';

/** Hosts the person agreed to send the document to, in this tab (asked again after a reload). */
const confirmedHosts = new Set<string>();

export function formatMoney(x: number | null): string {
  if (x === null) return '–';
  if (x === 0) return '$0';
  return x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
}

function formatSeconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Estimate, Run / Cancel and progress. Nothing is sent before Run; an endpoint that is not on loopback is named and
 * confirmed before the first request; a run's answers are cached, so Cancel then Run resumes.
 */
export function LlmRunPanel() {
  const settings = useStore((s) => s.llmSettings);
  const run = useStore((s) => s.llmRun);
  const [asking, setAsking] = useState(false);
  const endpoint = settings.provider !== 'prompt-api';
  const host = endpointHost(settings.baseUrl);
  const remote = endpoint && !isLoopback(settings.baseUrl);
  const running = run.phase === 'running';
  const start = () => {
    if (remote && !confirmedHosts.has(host)) return setAsking(true);
    void pageLlm().run();
  };
  const confirm = () => {
    confirmedHosts.add(host);
    setAsking(false);
    void pageLlm().run();
  };
  useEffect(() => setAsking(false), [host]);
  return (
    <div className="llm-run">
      {remote && (
        <p className="llm-remote" role="note">
          This endpoint is not on this machine: Run sends the document’s text to <strong>{host}</strong>.
        </p>
      )}
      <EstimateLine />
      <div className="llm-actions">
        {running ? (
          <button type="button" className="btn" onClick={() => pageLlm().cancel()}>
            Cancel
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={start} disabled={asking}>
            Run
          </button>
        )}
        <ExportButtons />
      </div>
      {asking && (
        <div className="llm-confirm" role="alertdialog" aria-label="Send the document to another host?">
          <p>
            The document’s text will be sent to <strong>{host}</strong>, which is not on this machine. Send it?
          </p>
          <button type="button" className="btn btn-primary" onClick={confirm} autoFocus>
            Send to {host}
          </button>{' '}
          <button type="button" className="btn" onClick={() => setAsking(false)}>
            Don’t send
          </button>
        </div>
      )}
      <Progress />
    </div>
  );
}

function EstimateLine() {
  const estimate = useStore((s) => s.llmEstimate);
  if (!estimate) return <p className="llm-estimate muted">Estimating…</p>;
  if ('error' in estimate) return <p className="alert llm-estimate">{estimate.error}</p>;
  const e = estimate.estimate;
  return (
    <p className="llm-estimate" data-testid="llm-estimate">
      Estimate: <strong>{formatNumber(e.requests)}</strong> requests ({formatNumber(e.cached)} cached), ~{formatNumber(e.inputTokens)} tokens in, ~
      {formatNumber(e.outputTokens)} out (cl100k), <strong>{formatMoney(e.cost)}</strong>
    </p>
  );
}

/** Progress bar, tokens so far, elapsed time and ETA, while running; the stop reason after. */
function Progress() {
  const run = useStore((s) => s.llmRun);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (run.phase !== 'running') return;
    const timer = setInterval(() => setNow(performance.now()), 500);
    return () => clearInterval(timer);
  }, [run.phase]);
  if (run.phase === 'running') {
    const elapsed = now - run.startedAt;
    const eta = run.done > 0 && run.total > run.done ? (elapsed / run.done) * (run.total - run.done) : null;
    return (
      <div className="llm-progress" role="status">
        <progress max={Math.max(1, run.total)} value={run.done} aria-label="LLM run progress" />
        <span>
          {formatNumber(run.done)} / {run.total ? formatNumber(run.total) : '…'} requests · {formatNumber(run.tokensIn + run.tokensOut)} tokens so far · {formatSeconds(elapsed)}
          {eta !== null && ` · about ${formatSeconds(eta)} left`}
          {run.download !== null && run.download < 1 && ` · downloading the model ${Math.round(run.download * 100)}%`}
        </span>
      </div>
    );
  }
  if (run.message) return <p className={run.phase === 'failed' ? 'alert' : 'llm-note'} role="status">{run.message}</p>;
  return null;
}

/** Export the run (JSON: settings without the key, report, chunks) and copy the library call that reproduces it. */
function ExportButtons() {
  const result = useStore((s) => (s.llmResult && s.llmResult.documentSerial === s.documentSerial ? s.llmResult : null));
  const [copied, setCopied] = useState(false);
  const current = () => {
    const s = useStore.getState();
    return { settings: s.llmSettings, options: toChunkOptions(s.config, documentFacts(s)) };
  };
  const exportRun = () => {
    if (!result) return;
    const { settings, options } = current();
    downloadFile('llm-run.json', llmRunFile(result, settings, options), 'application/json');
  };
  const copyCode = async () => {
    const { settings, options } = current();
    try {
      await navigator.clipboard.writeText(llmLibraryCode(settings, options));
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <>
      <button type="button" className="btn" disabled={!result} onClick={exportRun} title="The run's chunks and report with its settings (never the API key)">
        Export run (JSON)
      </button>
      <button type="button" className="btn" onClick={copyCode} title="A Node program calling the library with these settings (the key read from OPENAI_API_KEY)">
        {copied ? 'Copied' : 'Copy LLM call as code'}
      </button>
    </>
  );
}

import { useEffect, useState } from 'react';
import { endpointHost, isLoopback } from '../../state/llmSettings';
import { IdbLlmCache } from '../../state/llmIdbCache';
import {
  acceptCandidate,
  cancelGeneration,
  clearReviewed,
  editCandidate,
  estimateGeneration,
  generateUnavailable,
  MAX_GENERATE_COUNT,
  rejectCandidate,
  runGeneration,
  setGenerateCount,
  useGenerate,
  type Candidate,
  type GenerateEstimate,
} from '../../state/labGenerate';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';
import './labVerdict.css';

/**
 * "Generate questions…" in the golden set: the LLM panel's endpoint proposes a question and the exact excerpt that
 * answers it for sampled chunks; each candidate is reviewed here (edited, accepted into the golden set marked
 * generated, or rejected). LLM output is shown as text only. A host that is not this machine is named and
 * confirmed before anything is sent, as in the LLM panel.
 */

let cache: IdbLlmCache | null = null;
const confirmedHosts = new Set<string>();

export function GeneratedQuestions() {
  const settings = useStore((s) => s.llmSettings);
  const unavailable = generateUnavailable({ llmSettings: settings });
  const candidates = useGenerate((g) => g.candidates);
  const phase = useGenerate((g) => g.phase);
  const [open, setOpen] = useState(false);
  if (unavailable) return <p className="hint lab-generate-hint">{unavailable}</p>;
  if (!open && candidates.length === 0 && phase !== 'running') {
    return (
      <div className="lab-io small">
        <button type="button" className="link" onClick={() => setOpen(true)}>
          Generate questions…
        </button>
        <span className="muted">with {settings.model} (LLM panel); you review each one</span>
      </div>
    );
  }
  return <GeneratePanel onClose={() => setOpen(false)} />;
}

function GeneratePanel({ onClose }: { onClose: () => void }) {
  const settings = useStore((s) => s.llmSettings);
  const text = useStore((s) => s.text);
  const config = useStore((s) => s.config);
  const g = useGenerate();
  const [estimate, setEstimate] = useState<GenerateEstimate | string | null>(null);
  const [asking, setAsking] = useState(false);
  const host = endpointHost(settings.baseUrl);
  const remote = !isLoopback(settings.baseUrl);
  const running = g.phase === 'running';
  useEffect(() => {
    let live = true;
    setEstimate(null);
    const timer = setTimeout(() => {
      estimateGeneration(useStore.getState(), g.count).then(
        (e) => live && setEstimate(e),
        (err: unknown) => live && setEstimate((err instanceof Error ? err.message : String(err)).split('\n')[0]!),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [g.count, text, config, settings]);
  const go = () => {
    setAsking(false);
    cache ??= new IdbLlmCache();
    void runGeneration(useStore, { cache, fetch: (url, init) => globalThis.fetch(url, init as RequestInit) });
  };
  const start = () => (remote && !confirmedHosts.has(host) ? setAsking(true) : go());
  const pending = g.candidates.filter((c) => c.status === 'pending');
  const reviewed = g.candidates.length - pending.length;
  return (
    <section className="lab-generate" aria-label="Generated questions">
      <p className="lab-generate-note" role="note">
        Generated questions are easier than real ones: they reuse the passage’s own words (Chroma’s study of generated evaluation sets notes this), so their figures are an upper bound. Review each one and keep real questions in the set.
      </p>
      {remote && (
        <p className="llm-remote small" role="note">
          This endpoint is not on this machine: Generate sends the sampled chunks to <strong>{host}</strong>.
        </p>
      )}
      <div className="lab-row">
        <label className="small" htmlFor="lab-generate-count">
          Questions
        </label>
        <input id="lab-generate-count" type="number" min={1} max={MAX_GENERATE_COUNT} value={g.count} disabled={running} onChange={(e) => e.target.value !== '' && setGenerateCount(Number(e.target.value))} className="lab-generate-count" />
        {running ? (
          <button type="button" onClick={cancelGeneration}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={start} disabled={asking}>
            Generate
          </button>
        )}
        <span className="lab-spacer" />
        <button type="button" className="link" onClick={onClose} disabled={running || g.candidates.length > 0} title={g.candidates.length > 0 ? 'Review the candidates first' : undefined}>
          Close
        </button>
      </div>
      <EstimateLine estimate={estimate} />
      {asking && (
        <div className="llm-confirm" role="alertdialog" aria-label="Send the document to another host?">
          <p>
            Sampled chunks of the document will be sent to <strong>{host}</strong>, which is not on this machine. Send them?
          </p>
          <button
            type="button"
            className="primary"
            autoFocus
            onClick={() => {
              confirmedHosts.add(host);
              go();
            }}
          >
            Send to {host}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            Don’t send
          </button>
        </div>
      )}
      {running && (
        <p className="small" data-testid="generate-progress">
          <progress max={Math.max(1, g.planned)} value={Math.min(g.asked, g.planned)} aria-label="Generating questions" /> Asking {Math.min(g.asked, g.planned)} of at most {g.planned}…
        </p>
      )}
      {g.summary && (
        <p className="small" data-testid="generate-summary">
          {g.summary.kept} candidate{g.summary.kept === 1 ? '' : 's'} from {g.summary.sampled} sampled chunk{g.summary.sampled === 1 ? '' : 's'}
          {g.summary.dropped > 0 ? `; ${g.summary.dropped} excerpt${g.summary.dropped === 1 ? '' : 's'} did not match the text and were dropped` : ''}
          {g.summary.failed > 0 ? `; ${g.summary.failed} request${g.summary.failed === 1 ? '' : 's'} failed` : ''}.
        </p>
      )}
      {g.message && (
        <p className={g.phase === 'failed' ? 'lab-error' : 'hint'} role="status">
          {g.message}
        </p>
      )}
      {g.candidates.length > 0 && (
        <>
          <ol className="lab-candidates" data-testid="generate-candidates">
            {g.candidates.map((c, i) => (
              <CandidateRow key={c.id} candidate={c} number={i + 1} />
            ))}
          </ol>
          {reviewed > 0 && (
            <button type="button" className="link small" onClick={clearReviewed}>
              Clear {reviewed} reviewed
            </button>
          )}
        </>
      )}
    </section>
  );
}

function EstimateLine({ estimate }: { estimate: GenerateEstimate | string | null }) {
  if (estimate === null) return <p className="small muted">Estimating…</p>;
  if (typeof estimate === 'string') return <p className="lab-error">{estimate}</p>;
  return (
    <p className="small" data-testid="generate-estimate">
      Estimate: at most <strong>{formatNumber(estimate.requests)}</strong> request{estimate.requests === 1 ? '' : 's'} (one per sampled chunk; cached answers are not sent again), ~{formatNumber(estimate.inputTokens)} tokens in, ~
      {formatNumber(estimate.outputTokens)} out (cl100k){estimate.cost !== null ? `, ~$${estimate.cost.toFixed(4)}` : ''}
    </p>
  );
}

/** Characters of context shown on each side of a candidate's excerpt. */
const CONTEXT = 60;

/** One candidate: its question (editable), its excerpt in context, how it aligned; Accept / Reject. Focus shows it in the editor. */
function CandidateRow({ candidate: c, number }: { candidate: Candidate; number: number }) {
  const text = useStore((s) => s.text);
  const importQuestions = useStore((s) => s.importQuestions);
  const { start, end } = c.reference;
  const present = text.slice(start, end) === c.reference.content;
  const before = text.slice(Math.max(0, start - CONTEXT), start).replace(/\s+/g, ' ');
  const after = text.slice(end, end + CONTEXT).replace(/\s+/g, ' ');
  const exact = c.alignment.match !== 'tokens';
  const reveal = () => {
    const s = useStore.getState();
    const starts = s.result?.starts;
    const ends = s.result?.ends;
    if (!starts || !ends) return;
    for (let i = 0; i < starts.length; i++) if (starts[i]! <= start && start < ends[i]!) return s.select(i, 'list');
  };
  return (
    <li className={`lab-candidate is-${c.status}`} onFocus={reveal} data-status={c.status}>
      <div className="lab-candidate-head">
        <span className="lab-qnum">{number}.</span>
        {c.status === 'pending' ? (
          <input type="text" aria-label={`Candidate question ${number}`} value={c.question} onChange={(e) => editCandidate(c.id, e.target.value)} />
        ) : (
          <span className="lab-candidate-question">{c.question}</span>
        )}
        <span className={`lab-align ${exact ? 'exact' : 'near'}`} title={exact ? 'The excerpt is in the text word for word (or after whitespace and case folding)' : `The excerpt matches ${(c.alignment.score * 100).toFixed(0)}% of its words in order`}>
          {exact ? 'exact' : `near ${(c.alignment.score * 100).toFixed(0)}%`}
        </span>
        {c.status === 'pending' ? (
          <>
            <button type="button" className="primary" onClick={() => acceptCandidate(c.id, importQuestions)} disabled={c.question.trim() === '' || !present} aria-label={`Accept candidate ${number}`}>
              Accept
            </button>
            <button type="button" onClick={() => rejectCandidate(c.id)} aria-label={`Reject candidate ${number}`}>
              Reject
            </button>
          </>
        ) : (
          <span className={`lab-candidate-status ${c.status}`}>{c.status === 'accepted' ? 'accepted · in the golden set' : 'rejected'}</span>
        )}
      </div>
      <p className="lab-candidate-excerpt small">
        {present ? (
          <>
            <span className="muted">{start > CONTEXT ? '…' : ''}{before}</span>
            <mark>{c.reference.content}</mark>
            <span className="muted">{after}{end + CONTEXT < text.length ? '…' : ''}</span>
          </>
        ) : (
          <span className="lab-error">The text changed: this excerpt is no longer at its place.</span>
        )}
      </p>
    </li>
  );
}

import { useMemo, useState } from 'react';
import type { FeatureFailure } from '../../core/llm';
import type { Chunk, Range } from '../../core/types';
import type { LlmPageResult } from '../../state/llmSlice';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';
import { formatMoney } from './LlmRunPanel';

/** Items drawn at most per list (a long document has thousands; the export has them all). */
const MAX_ITEMS = 300;

/**
 * The last run drawn over its source: contextual (the generated context as injected text before the chunk's own
 * text), propositions (under their passage; hovering or focusing one marks its support in the passage; unsupported
 * ones flagged), boundaries (the model's chunks), summaries (each with the span it summarises). Every failure is
 * shown on its chunk or passage with its one-line reason and counted above. The model's text is untrusted: React
 * text nodes only.
 */
export function LlmResults() {
  const result = useStore((s) => s.llmResult);
  const serial = useStore((s) => s.documentSerial);
  const estimate = useStore((s) => s.llmEstimate);
  if (!result || result.documentSerial !== serial) return <p className="muted llm-empty">No run yet for this document. Press Run to send the requests the estimate lists.</p>;
  // While the estimate is being recomputed the result is not called stale (it may be the one the settings name).
  const stale = estimate !== null && estimate.configKey !== result.configKey;
  return (
    <div className="llm-results" aria-label="LLM results">
      <Summary result={result} stale={stale} />
      {result.feature in IN_EDITOR && <InEditorToggle feature={result.feature} />}
      {result.feature === 'contextual' && <Contextual result={result} />}
      {result.feature === 'propositions' && <Propositions result={result} />}
      {result.feature === 'boundaries' && <Boundaries result={result} />}
      {result.feature === 'summaries' && <Summaries result={result} />}
    </div>
  );
}

/** What "Show in the editor" draws there, per feature (summaries: nothing). */
const IN_EDITOR: Record<string, string> = {
  contextual: 'each generated context as injected text at its chunk’s start (not in the editor’s text)',
  propositions: 'the support of the proposition you hover or focus here, and a flag on passages with unsupported ones',
  boundaries: 'the model’s chunks as the editor’s chunks (the chunk list keeps the base strategy’s)',
};

function InEditorToggle({ feature }: { feature: string }) {
  const shown = useStore((s) => s.llmInEditor);
  const setShown = useStore((s) => s.setLlmInEditor);
  return (
    <label className="llm-check llm-in-editor">
      <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} />
      <span>
        Show in the editor <span className="muted">— {IN_EDITOR[feature]}</span>
      </span>
    </label>
  );
}

const KIND_WORDS: Record<string, string> = {
  network: 'network',
  unreachable: 'unreachable (network or CORS)',
  'http-401': '401 key refused',
  'http-4xx': 'client error',
  'http-5xx': 'server error',
  'http-429': 'rate limited (429)',
  timeout: 'timeout',
  'invalid-json': 'invalid JSON',
  empty: 'empty answer',
  truncated: 'truncated answer',
  unsupported: 'provider unavailable',
  'unsupported-proposition': 'unsupported proposition',
  'repaired-ids': 'repaired ids',
};

function Summary({ result, stale }: { result: LlmPageResult; stale: boolean }) {
  const r = result.report;
  const kinds = Object.entries(r.failuresByKind);
  const network = (r.failuresByKind.network ?? 0) + (r.failuresByKind.unreachable ?? 0) > 0;
  return (
    <div className="llm-summary">
      <p data-testid="llm-report">
        {r.feature} · {r.model} · {formatNumber(r.requests)} requests: {formatNumber(r.succeeded)} answered ({formatNumber(r.cached)} from the cache, {formatNumber(r.sent)} sent)
        {r.failed > 0 && <strong className="llm-bad">, {formatNumber(r.failed)} failed</strong>} · {formatNumber(r.usage.input + r.usage.output)} tokens · {formatMoney(result.cost)}
        {stale && <span className="llm-stale"> · made with other settings: Run to update</span>}
      </p>
      {kinds.length > 0 && (
        <ul className="llm-failure-counts" aria-label="Failures by kind">
          {kinds.map(([kind, count]) => (
            <li key={kind}>
              <span className="llm-bad">{KIND_WORDS[kind] ?? kind}</span> × {formatNumber(count)}
            </li>
          ))}
        </ul>
      )}
      {network && <CorsHint />}
    </div>
  );
}

/** What the common local servers need before a page may call them (docs/llm.md's table). */
export function CorsHint() {
  return (
    <div className="llm-hint" role="note">
      The endpoint did not answer this page. If it runs, it must allow this page’s origin ({location.origin}):
      <ul>
        <li>
          Ollama: start it with <code>OLLAMA_ORIGINS={location.origin}</code> set (e.g. <code>OLLAMA_ORIGINS=* ollama serve</code>).
        </li>
        <li>
          LM Studio: turn on the CORS switch in the Developer tab, or <code>lms server start --cors</code>.
        </li>
        <li>
          llama.cpp: <code>llama-server</code> — recent builds restrict origins with <code>--cors-origins</code>.
        </li>
        <li>
          vLLM: <code>--allowed-origins</code>.
        </li>
      </ul>
      Chrome also asks before a page reaches a server on this device or the local network: if it asked, Allow.
    </div>
  );
}

function excerpt(text: string, max = 280): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function More({ shown, total }: { shown: number; total: number }) {
  return total > shown ? <p className="muted small">{formatNumber(total - shown)} more not drawn here (Export run has them all).</p> : null;
}

function Contextual({ result }: { result: LlmPageResult }) {
  const chunks = result.chunks.slice(0, MAX_ITEMS);
  return (
    <>
      <ol className="llm-list" aria-label="Chunks with generated context">
        {chunks.map((c) => (
          <li key={c.id} className={`llm-item${c.index % 2 ? ' is-odd' : ''}${c.metadata.llmError ? ' has-failure' : ''}`}>
            <span className="llm-index">#{c.index + 1}</span>
            {typeof c.metadata.context === 'string' ? (
              <span className="llm-injected" title="Generated by the model: injected into the chunk's content, not part of the source">
                {c.metadata.context}
              </span>
            ) : null}
            {c.metadata.llmError ? <FailureLine reason={String(c.metadata.llmError)} /> : null}
            <span className="llm-source">{excerpt(c.text)}</span>
          </li>
        ))}
      </ol>
      <More shown={chunks.length} total={result.chunks.length} />
    </>
  );
}

function FailureLine({ reason }: { reason: string }) {
  return (
    <span className="llm-failure" role="note">
      Failed: {reason}
    </span>
  );
}

interface Passage {
  span: Range;
  propositions: Chunk[];
  failures: FeatureFailure[];
}

/** Propositions and failures grouped by passage, in source order. */
function passagesOf(result: LlmPageResult): Passage[] {
  const byKey = new Map<string, Passage>();
  const at = (span: Range) => {
    const key = `${span.start}:${span.end}`;
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = { span, propositions: [], failures: [] }));
    return p;
  };
  for (const c of result.chunks) at((c.metadata.derivedFrom as Range | undefined) ?? { start: c.start, end: c.end }).propositions.push(c);
  for (const f of result.report.failures) if (f.span && f.kind !== 'unsupported-proposition') at(f.span).failures.push(f);
  return [...byKey.values()].sort((a, b) => a.span.start - b.span.start);
}

function Propositions({ result }: { result: LlmPageResult }) {
  const passages = useMemo(() => passagesOf(result), [result]);
  const shown = passages.slice(0, MAX_ITEMS);
  return (
    <>
      <ol className="llm-list" aria-label="Passages and their propositions">
        {shown.map((p, i) => (
          <PassageView key={`${p.span.start}:${p.span.end}`} passage={p} source={result.source ?? ''} odd={i % 2 === 1} />
        ))}
      </ol>
      <More shown={shown.length} total={passages.length} />
    </>
  );
}

function PassageView({ passage, source, odd }: { passage: Passage; source: string; odd: boolean }) {
  const [hovered, setHoveredHere] = useState<Chunk | null>(null);
  // The editor marks the same support (useLlmMarks), or outlines the passage of an unsupported proposition.
  const setHovered = (c: Chunk | null) => {
    setHoveredHere(c);
    useStore.getState().setLlmHover(c ? { support: (c.metadata.support as Range[] | undefined) ?? [], passage: passage.span } : null);
  };
  const support = (hovered?.metadata.support as Range[] | undefined) ?? [];
  return (
    <li className={`llm-item llm-passage${odd ? ' is-odd' : ''}${passage.failures.length ? ' has-failure' : ''}`}>
      {/* Focusable: a long passage scrolls, and the keyboard must reach it. */}
      <p className="llm-source llm-passage-text" tabIndex={0} title={`Passage, characters ${passage.span.start}–${passage.span.end}`}>
        <MarkedSpan source={source} span={passage.span} marks={support} />
      </p>
      {passage.failures.map((f, i) => (
        <FailureLine key={i} reason={`${KIND_WORDS[f.kind] ?? f.kind}: ${f.reason}`} />
      ))}
      {passage.propositions.length > 0 && (
        <ul className="llm-propositions" aria-label="Propositions">
          {passage.propositions.map((c) => {
            const status = String(c.metadata.supportStatus);
            return (
              <li
                key={c.id}
                tabIndex={0}
                className={`llm-proposition is-${status}`}
                data-support-status={status}
                onMouseEnter={() => setHovered(c)}
                onMouseLeave={() => setHovered(null)}
                onFocus={() => setHovered(c)}
                onBlur={() => setHovered(null)}
              >
                <span className={`llm-badge is-${status}`}>{status === 'unsupported' ? 'unsupported: not in the source' : status}</span> {c.content}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

/** The passage's text with the support spans marked (<mark> around text nodes: never HTML from the text). */
function MarkedSpan({ source, span, marks }: { source: string; span: Range; marks: Range[] }) {
  const parts: { text: string; marked: boolean }[] = [];
  let at = span.start;
  for (const m of [...marks].sort((a, b) => a.start - b.start)) {
    const s = Math.max(m.start, at);
    const e = Math.min(m.end, span.end);
    if (e <= s) continue;
    if (s > at) parts.push({ text: source.slice(at, s), marked: false });
    parts.push({ text: source.slice(s, e), marked: true });
    at = e;
  }
  if (at < span.end) parts.push({ text: source.slice(at, span.end), marked: false });
  return (
    <>
      {parts.map((p, i) => (p.marked ? <mark key={i} className="llm-support">{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  );
}

function Boundaries({ result }: { result: LlmPageResult }) {
  const chunks = result.chunks.slice(0, MAX_ITEMS);
  const repaired = result.report.counts.repairedIds ?? 0;
  const failures = result.report.failures.filter((f) => f.kind !== 'repaired-ids');
  return (
    <>
      {repaired > 0 && <p className="llm-note">{formatNumber(repaired)} ids from the model were out of range, repeated or not increasing: dropped.</p>}
      {failures.map((f, i) => (
        <FailureLine key={i} reason={`${f.span ? `characters ${f.span.start}–${f.span.end}: ` : ''}${KIND_WORDS[f.kind] ?? f.kind}: ${f.reason}`} />
      ))}
      <ol className="llm-list" aria-label="Chunks drawn by the model">
        {chunks.map((c) => (
          <li key={c.id} className={`llm-item llm-chunk${c.index % 2 ? ' is-odd' : ''}`}>
            <span className="llm-index">#{c.index + 1}</span>
            <span className="muted small">
              {' '}
              {formatNumber(c.size)} {String(result.chunks[0]?.metadata.unit ?? '')}
              {c.metadata.resplit ? ' · re-split (over the size)' : ''}
            </span>
            <span className="llm-source">{excerpt(c.text, 400)}</span>
          </li>
        ))}
      </ol>
      <More shown={chunks.length} total={result.chunks.length} />
    </>
  );
}

function Summaries({ result }: { result: LlmPageResult }) {
  const summaries = result.chunks.filter((c) => c.metadata.kind === 'summary');
  const failures = result.report.failures;
  const base = result.chunks.length - summaries.length;
  return (
    <>
      <p className="muted small">{formatNumber(base)} base chunks are indexed beside these summaries.</p>
      <ol className="llm-list" aria-label="Summaries">
        {summaries.map((c, i) => (
          <li key={c.id} className={`llm-item${i % 2 ? ' is-odd' : ''}`}>
            <span className="llm-index">
              {c.start === 0 && c.end === (result.source?.length ?? -1) ? 'Document' : 'Section'} · characters {formatNumber(c.start)}–{formatNumber(c.end)}
            </span>
            <span className="llm-injected" title="Generated by the model: a summary, not source text">
              {c.content}
            </span>
            <span className="llm-source">{excerpt(c.text, 200)}</span>
          </li>
        ))}
      </ol>
      {failures.map((f, i) => (
        <FailureLine key={i} reason={`${f.span ? `characters ${f.span.start}–${f.span.end}: ` : ''}${KIND_WORDS[f.kind] ?? f.kind}: ${f.reason}`} />
      ))}
    </>
  );
}

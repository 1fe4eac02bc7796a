import { useEffect, useMemo, useState } from 'react';
import type { PaintableResult } from '../../state/resultsSlice';
import { formatBytes } from '../../state/embedders';
import { cancelEmbedding, lateSimilarities } from '../../state/controller';
import { selectEmbedderTokens, selectResult, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { SimilarityCurve } from '../charts/SimilarityCurve';
import { formatNumber } from './format';

/**
 * Under the editor when the strategy is semantic: which backend embeds, embedding or download progress (with
 * Cancel), the similarity curve with its draggable threshold, and the late-chunking comparison.
 */
export function SemanticPanel() {
  const result = useStore(selectResult);
  const semantic = result?.semantic ?? null;
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const hoveredGap = useStore((s) => s.hoveredGap);
  const setHoveredGap = useStore((s) => s.setHoveredGap);
  const requestRevealGap = useStore((s) => s.requestRevealGap);
  const [tab, setTab] = useState<'curve' | 'late'>('curve');

  // A re-split sends copies of the same analysis (the same `analysis` serial): keep the first copy's arrays, so the
  // curve redraws only when the analysis changes and a threshold move just moves marks (no O(n) compare per key).
  const analysisKey = semantic?.analysis ?? null;
  const curve = useMemo(() => (semantic ? curveData(semantic) : null), [analysisKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const distances = curve?.distances ?? null;
  const gapOffsets = curve?.gapOffsets ?? EMPTY_OFFSETS;
  const embedderTokens = useStore(selectEmbedderTokens);
  const truncatedCount = embedderTokens ? embedderTokens.truncatedAt.reduce((n, v) => n + (v >= 0 ? 1 : 0), 0) : 0;
  const threshold = semantic && semantic.comparedWith === 'distance' ? semantic.threshold : NaN;

  // A short window (1280×720, a projector) keeps the editor's lines: the curve gives up some height.
  const curveHeight = useShortWindow() ? 120 : 170;
  return (
    <section className="semantic-panel" aria-label="Semantic chunking">
      <div className="semantic-bar">
        <div className="semantic-tabs" role="tablist" aria-label="Semantic views">
          <button type="button" role="tab" aria-selected={tab === 'curve'} className={tab === 'curve' ? 'is-active' : ''} onClick={() => setTab('curve')}>
            Similarity curve
          </button>
          <button type="button" role="tab" aria-selected={tab === 'late'} className={tab === 'late' ? 'is-active' : ''} onClick={() => setTab('late')}>
            Late chunking
          </button>
        </div>
        <EmbedStatus />
        {semantic && (
          <span className="muted small semantic-facts">
            {formatNumber(semantic.sentenceStarts.length)} sentences · {formatNumber(semantic.breakpoints.length)} breakpoints ·
            {' '}{semantic.embedder.label.split(' (')[0]}
            {semantic.embedder.maxTokens !== Infinity && Number.isFinite(semantic.embedder.maxTokens) ? ` · reads ${semantic.embedder.maxTokens} tokens` : ''}
            {truncatedCount > 0 && <span className="badge badge-warn"> {truncatedCount} truncated</span>}
          </span>
        )}
      </div>
      {semantic && semantic.notes.length > 0 && <p className="semantic-note">{semantic.notes.join(' · ')}</p>}
      {tab === 'curve' ? (
        semantic && distances ? (
          distances.length === 0 ? (
            semantic.notes.length === 0 && <p className="empty">No sentence gaps: nothing to compare.</p>
          ) : (
            <SimilarityCurve
              distances={distances}
              gapOffsets={gapOffsets}
              docLength={result!.text.length}
              threshold={threshold}
              noThresholdText={
                semantic.comparedWith === 'gradient' ? 'gradient mode cuts on the gradient: drag to set a distance instead' : 'no threshold'
              }
              breakpoints={semantic.breakpoints}
              hoveredGap={hoveredGap}
              onThreshold={(value) => setConfig({ breakpoint: 'absolute', amount: Number(value.toFixed(4)), chunks: null })}
              onHover={setHoveredGap}
              onReveal={requestRevealGap}
              height={curveHeight}
            />
          )
        ) : (
          <p className="empty">{strategy.needsEmbeddings ? 'Embedding the sentences…' : ''}</p>
        )
      ) : (
        <LatePanel />
      )}
    </section>
  );
}

const EMPTY_OFFSETS = new Int32Array(0);

/** The curve's data of one analysis: the distances, and each gap's document offset (the next sentence's start). */
function curveData(semantic: NonNullable<PaintableResult['semantic']>): { distances: Float64Array; gapOffsets: Int32Array } {
  const { distances, sentenceStarts: starts, sentenceEnds: ends } = semantic;
  const gapOffsets = new Int32Array(distances.length);
  for (let i = 0; i < distances.length; i++) gapOffsets[i] = starts[i + 1] ?? ends[i]!;
  return { distances, gapOffsets };
}

/** Backend, and progress with a Cancel button while a model loads, downloads or embeds. */
function EmbedStatus() {
  const backend = useStore((s) => s.embedBackend);
  const progress = useStore((s) => s.embedProgress);
  const label = !backend
    ? 'starting'
    : backend.backend === 'webgpu'
      ? 'WebGPU'
      : backend.backend === 'wasm'
        ? `WASM · ${backend.threads} thread${backend.threads === 1 ? '' : 's'}`
        : backend.backend === 'direct'
          ? 'Table lookup'
          : 'Node';
  const title = !backend
    ? 'The embedding model has not loaded yet'
    : backend.backend === 'direct'
      ? 'The built-in model runs as a table lookup in JavaScript: no neural runtime, same vectors as its ONNX graph'
      : backend.backend === 'wasm'
        ? backend.isolated
          ? `Cross-origin isolated: threads available; ${backend.threads} used (one core is left to the page)`
          : 'Not cross-origin isolated (COOP/COEP headers missing): WASM runs on one thread'
        : 'Running on the GPU through WebGPU';
  return (
    <span className="embed-status">
      <span className="badge" data-testid="embed-backend" title={backend?.note ? `${backend.note}. ${title}` : title}>
        {label}
      </span>
      {progress && (
        <span className="embed-progress" data-testid="embed-progress">
          <span className="small">
            {progress.stage === 'downloading'
              ? `Downloading ${progress.file ?? 'model'} ${formatBytes(progress.loaded ?? 0)}${progress.total ? ` of ${formatBytes(progress.total)}` : ''}`
              : progress.stage === 'loading'
                ? 'Loading model…'
                : `Embedding ${Math.round(progress.fraction * 100)}%`}
          </span>
          <progress max={1} value={progress.stage === 'loading' ? undefined : progress.fraction} />
          <button type="button" className="btn btn-small" onClick={cancelEmbedding}>
            Cancel embedding
          </button>
        </span>
      )}
    </span>
  );
}

/** A query against every chunk: cosine similarity with the chunk's own embedding vs its late-chunked embedding. */
function LatePanel() {
  const result = useStore(selectResult);
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<{ jobId: number; naive: Float64Array; late: Float64Array; note: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setError(null);
    setBusy(true);
    try {
      const jobId = useStore.getState().result?.jobId ?? 0;
      const r = await lateSimilarities(query);
      setAnswer({ jobId, ...r });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const current = answer && result && answer.jobId === result.jobId ? answer : null;
  const rows = current ? Array.from(current.naive, (naive, i) => ({ i, naive, late: current.late[i]! })) : [];
  rows.sort((a, b) => (b.late || -2) - (a.late || -2));
  return (
    <div className="late-panel">
      <form
        className="late-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input
          type="search"
          className="text-input"
          aria-label="Query"
          placeholder="A question a user might ask…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="btn btn-small" disabled={busy || !query.trim()}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </form>
      {error && <p className="semantic-note">{error}</p>}
      {!current && !error && (
        <p className="muted small late-hint">
          Ask a question and compare, for every chunk, its similarity to the question when the chunk is embedded on its
          own (naive) and when its vector is pooled from the whole document's token vectors (late chunking). Late
          chunking needs a long-context model such as jina-embeddings-v2-small-en; with the built-in static model both
          columns are equal.
        </p>
      )}
      {current?.note && <p className="muted small">{current.note}</p>}
      {current && (
        <div className="late-table" role="table" aria-label="Naive vs late chunking">
          <div role="row" className="late-row late-head">
            <span role="columnheader">Chunk</span>
            <span role="columnheader">Naive</span>
            <span role="columnheader">Late</span>
            <span role="columnheader">Text</span>
          </div>
          {rows.slice(0, 200).map((r) => (
            <div role="row" key={r.i} className="late-row" onClick={() => useStore.getState().select(r.i, 'list')}>
              <span role="cell">{r.i}</span>
              <span role="cell">{Number.isFinite(r.naive) ? r.naive.toFixed(3) : '–'}</span>
              <span role="cell" className={r.late > r.naive + 0.02 ? 'late-up' : r.late < r.naive - 0.02 ? 'late-down' : ''}>
                {Number.isFinite(r.late) ? r.late.toFixed(3) : '–'}
              </span>
              <span role="cell" className="late-text">
                {result!.text.slice(result!.starts[r.i]!, Math.min(result!.ends[r.i]!, result!.starts[r.i]! + 140))}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Whether the window is at most 800 px high (the curve is drawn lower then); follows resizes. */
function useShortWindow(): boolean {
  const query = '(max-height: 800px)';
  const [short, setShort] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setShort(list.matches);
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, []);
  return short;
}

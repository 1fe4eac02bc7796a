import { useDeferredValue } from 'react';
import { orphanSummary } from '../../state/labBudget';
import { selectConfig, selectContextBudget, selectDocumentSerial, selectError, selectResult, selectStats, showsPreviousDocument, unitCounts } from '../../state/selectors';
import { useStore } from '../../state/store';
import { lazy, Suspense } from 'react';
import { AfterFirstPaint } from '../afterFirstPaint';
const SizeHistogram = lazy(() => import('../charts/SizeHistogram').then((m) => ({ default: m.SizeHistogram }))); // d3: after the first paint
// The per-language lines (state/languageStats.ts): they show once the worker's token counts arrive, after the first
// chunks are painted; loaded after the first paint.
// The corpus budget needs the token counts, which come after the first paint: its code loads with them.
const CorpusBudget = lazy(() => import('./CorpusBudget').then((m) => ({ default: m.CorpusBudget })));
const LanguageLines = lazy(() => import('./LanguageLines').then((m) => ({ default: m.LanguageLines })));
import { compactNumber, formatNumber, unitLabel } from './format';

/** Count, min/median/mean/max, the size histogram and the context budget. */
export function StatsPanel() {
  // Count first (it is the painted count); the rest follows at lower priority.
  const count = useStore((s) => s.result?.starts.length ?? 0);
  const result = useDeferredValue(useStore(selectResult));
  const stats = useDeferredValue(useStore(selectStats));
  const unit = unitLabel(result?.unit ?? 'chars');
  const units = unitCounts(result);
  const documentSerial = useStore(selectDocumentSerial);
  // From the deferred result: dimmed exactly while the figures drawn are another document's.
  const previous = showsPreviousDocument(result, documentSerial);
  const failed = useStore(selectError) !== null;

  return (
    <section className={previous ? 'panel stats shows-previous' : 'panel stats'} aria-labelledby="stats-title" aria-busy={previous}>
      <div className="panel-head">
        <h2 id="stats-title">Stats</h2>
        {previous ? (
          <span className="muted small" data-testid="stats-previous">
            {/* A new document whose job failed (the header says why) keeps the last good chunks on screen. */}
            {failed ? 'The previous document’s chunks' : 'Chunking the new document…'}
          </span>
        ) : (
          stats && stats.overLimit > 0 && <span className="badge badge-warn">{stats.overLimit} over limit</span>
        )}
      </div>
      <dl className="stat-grid">
        <div className="stat stat-count">
          <dt>Chunks</dt>
          <dd data-testid="chunk-count">{count}</dd>
        </div>
        <Stat label="Min" value={stats?.min} />
        <Stat label="Median" value={stats?.median} />
        <Stat label="Mean" value={stats?.mean} digits={1} />
        <Stat label="Max" value={stats?.max} />
      </dl>
      <p className="muted small stat-unit">
        {units ? (
          <>
            <span className="unit-counts" data-testid="parent-count">
              {formatNumber(units.parents)} parents · {formatNumber(units.leaves)} children
            </span>
            {' '}— counts and sizes are of the children (what is embedded), in {unit}.
          </>
        ) : (
          <>Sizes in {unit}.</>
        )}
      </p>
      {result && (
        <AfterFirstPaint placeholder={<svg className="histogram" width={340} height={132} viewBox="0 0 340 132" aria-hidden="true" />}>
          <SizeHistogram sizes={result.sizes} limit={result.limit} unit={unit} />
        </AfterFirstPaint>
      )}
      <OrphanLine />
      <AfterFirstPaint placeholder={null}>
        <LanguageLines />
      </AfterFirstPaint>

      <ContextBudget count={count} />
    </section>
  );
}

/** The context budget: chunks in context × their mean tokens against the context window, then the corpus's. */
function ContextBudget({ count }: { count: number }) {
  const hasTokens = useStore((s) => s.tokens !== null);
  const config = useStore(selectConfig);
  const budget = useStore(selectContextBudget);
  const setConfig = useStore((s) => s.setConfig);
  const pct = budget.fraction === null ? null : budget.fraction * 100;
  return (
    <div className="budget">
      <div className="budget-inputs">
        <label>
          <span>Chunks in context</span>
          <input
            type="number"
            min={1}
            step={1}
            value={config.chunksInContext}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isFinite(n) && n >= 1) setConfig({ chunksInContext: Math.floor(n) });
            }}
          />
        </label>
        <label>
          <span>Context window</span>
          <input
            type="number"
            min={1}
            step={256}
            value={config.contextWindow}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isFinite(n) && n >= 1) setConfig({ contextWindow: Math.floor(n) });
            }}
          />
        </label>
      </div>
      <p className="budget-line" data-testid="context-budget">
        {count === 0 ? (
          <span className="muted">No chunks, nothing to count.</span>
        ) : budget.usedTokens === null ? (
          <span className="muted">Counting tokens…</span>
        ) : (
          <>
            {budget.chunksInContext} × {formatNumber(budget.meanTokens ?? 0, 0)} tokens ={' '}
            <strong>{formatNumber(budget.usedTokens, 0)}</strong> of {formatNumber(budget.contextWindow)}
            <span className={pct !== null && pct > 100 ? 'over' : 'muted'}> ({formatNumber(pct ?? 0, 0)}%)</span>
          </>
        )}
      </p>
      <div className="budget-bar" aria-hidden="true">
        <div
          className={`budget-fill${pct !== null && pct > 100 ? ' is-over' : ''}`}
          style={{ width: `${Math.min(100, pct ?? 0)}%` }}
        />
      </div>
      {hasTokens && (
        <Suspense fallback={null}>
          <CorpusBudget />
        </Suspense>
      )}
    </div>
  );
}

function Stat({ label, value, digits = 0 }: { label: string; value: number | undefined; digits?: number }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      {/* Decimals only while they fit; from 10,000 on "15.2k" (the exact value in the tooltip): the five boxes share a
          narrow column and a number is never cut. */}
      <dd title={value === undefined ? undefined : formatNumber(value, digits)}>
        {value === undefined || !Number.isFinite(value) ? '–' : Math.abs(value) >= 10_000 ? compactNumber(value) : formatNumber(value, Math.abs(value) < 1000 ? digits : 0)}
      </dd>
    </div>
  );
}

/** Orphan chunks (core's orphanChunks): starting or ending mid-sentence, or only a heading. */
function OrphanLine() {
  const result = useDeferredValue(useStore(selectResult));
  const tokens = useDeferredValue(useStore((s) => s.tokens));
  const o = orphanSummary(result, tokens);
  if (!o || o.flags.length === 0) return null;
  return (
    <p className="muted small orphan-line" data-testid="orphan-count" title="Chunks that start or end in the middle of a sentence, or hold only a heading: they embed a fragment">
      {o.count === 0 ? (
        'No orphan chunks: every chunk starts and ends on a sentence boundary.'
      ) : (
        <>
          <strong className="orphan-count">{formatNumber(o.count)}</strong> orphan chunk{o.count === 1 ? '' : 's'}: {formatNumber(o.startsMid)} start mid-sentence, {formatNumber(o.endsMid)} end mid-sentence
          {o.headingOnly ? `, ${formatNumber(o.headingOnly)} only a heading` : ''}.
        </>
      )}
    </p>
  );
}


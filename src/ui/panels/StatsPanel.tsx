import { useDeferredValue } from 'react';
import { selectConfig, selectContextBudget, selectResult, selectStats, unitCounts } from '../../state/selectors';
import { useStore } from '../../state/store';
import { SizeHistogram } from '../charts/SizeHistogram';
import { formatNumber, unitLabel } from './format';

/** Count, min/median/mean/max, the size histogram and the context budget. */
export function StatsPanel() {
  // Count first (it is the painted count); the rest follows at lower priority.
  const count = useStore((s) => s.result?.starts.length ?? 0);
  const result = useDeferredValue(useStore(selectResult));
  const stats = useDeferredValue(useStore(selectStats));
  const config = useStore(selectConfig);
  const budget = useStore(selectContextBudget);
  const setConfig = useStore((s) => s.setConfig);
  const unit = unitLabel(result?.unit ?? 'chars');
  const pct = budget.fraction === null ? null : budget.fraction * 100;
  const units = unitCounts(result);

  return (
    <section className="panel stats" aria-labelledby="stats-title">
      <div className="panel-head">
        <h2 id="stats-title">Stats</h2>
        {stats && stats.overLimit > 0 && <span className="badge badge-warn">{stats.overLimit} over limit</span>}
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
      {result && <SizeHistogram sizes={result.sizes} limit={result.limit} unit={unit} />}

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
          {budget.usedTokens === null ? (
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
      </div>
    </section>
  );
}

function Stat({ label, value, digits = 0 }: { label: string; value: number | undefined; digits?: number }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      {/* Decimals only while they fit: a mean of 1,234.5 would be cut to "1,2…" in the narrow box. */}
      <dd title={value === undefined ? undefined : String(value)}>
        {value === undefined || !Number.isFinite(value) ? '–' : formatNumber(value, Math.abs(value) < 1000 ? digits : 0)}
      </dd>
    </div>
  );
}

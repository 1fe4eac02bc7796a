import { useDeferredValue, useState } from 'react';
import { corpusBudget, formatBytes, measuredFrom } from '../../state/corpusBudget';
import { selectConfig, selectResult, tokensFor } from '../../state/selectors';
import { useStore } from '../../state/store';
import { formatNumber } from './format';

/** The budget arithmetic for a whole corpus, from this document's measured chunks per token and overlap. */
export function CorpusBudget() {
  const result = useDeferredValue(useStore(selectResult));
  const tokens = useStore((s) => s.tokens);
  const config = useStore(selectConfig);
  const [documents, setDocuments] = useState(1000);
  const [meanTokens, setMeanTokens] = useState<number | null>(null);
  const [dims, setDims] = useState(1536);
  const counts = tokensFor(result, tokens);
  const measured = result && counts ? measuredFrom(result, counts.counts) : null;
  if (!measured) return null;
  const mean = meanTokens ?? Math.max(1, Math.round(measured.documentTokens));
  const b = corpusBudget(measured, { documents, meanTokens: mean, dims, bytesPerDim: 4, k: config.chunksInContext, contextWindow: config.contextWindow });
  const num = (value: number, set: (n: number) => void, label: string) => (
    <input
      type="number"
      min={1}
      aria-label={label}
      value={value}
      onChange={(e) => {
        const n = Number(e.target.value);
        if (Number.isFinite(n) && n >= 1) set(Math.floor(n));
      }}
    />
  );
  return (
    <details className="corpus-budget">
      <summary>Corpus budget</summary>
      <div className="corpus-inputs">
        <label>
          <span>Documents</span>
          {num(documents, setDocuments, 'Documents in the corpus')}
        </label>
        <label>
          <span>Mean tokens</span>
          {num(mean, setMeanTokens, 'Mean tokens per document')}
        </label>
        <label>
          <span>Vector width</span>
          {num(dims, setDims, 'Embedding dimensions')}
        </label>
      </div>
      <dl className="corpus-figures" data-testid="corpus-budget">
        <dt>Measured here</dt>
        <dd>
          {(b.chunksPerToken * 1000).toFixed(2)} chunks per 1k tokens · overlap ×{b.overlapFactor.toFixed(2)}
        </dd>
        <dt>Chunks in the index</dt>
        <dd>
          {formatNumber(b.corpusTokens)} tokens → <strong>{formatNumber(Math.round(b.chunks))}</strong> chunks
        </dd>
        <dt>Embedding tokens</dt>
        <dd>{formatNumber(Math.round(b.embeddingTokens))}</dd>
        <dt>Index size</dt>
        <dd>
          {formatBytes(b.indexBytes)} <span className="muted">(float32 × {dims})</span>
        </dd>
        <dt>Context at k = {config.chunksInContext}</dt>
        <dd>
          {formatNumber(Math.round(b.contextTokens))} of {formatNumber(config.contextWindow)} tokens ({formatNumber(b.contextFraction * 100, 0)}%), {b.corpusCoverage < 0.001 ? '<0.1' : formatNumber(b.corpusCoverage * 100, 1)}% of the corpus
        </dd>
      </dl>
    </details>
  );
}

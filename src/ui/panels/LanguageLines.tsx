import { useDeferredValue, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectLanguageRows } from '../../state/languageStats';
import { tokensFor } from '../../state/selectors';
import { useStore } from '../../state/store';
import { formatNumber, unitLabel } from './format';
import { unitDescriptor } from '../../core/units';

/** Languages listed in the stats (the largest shares of the document). */
const MAX_LANGUAGE_ROWS = 12;

/**
 * Per detected language: characters per token, tokens per word, and what the size setting holds in words there (a
 * 512-token budget holds far fewer Japanese or German words than English ones).
 */
export function LanguageLines() {
  // The rows are computed in the deferred render, not by the store's listener: there they ran in the task that
  // received the token counts (26k chunks of a 10 MiB paste: 15-35 ms of that task).
  const inputs = useDeferredValue(useStore(useShallow((s) => ({ result: s.result, tokens: s.tokens, size: s.config.size }))));
  const stats = useMemo(() => selectLanguageRows({ result: inputs.result, tokens: inputs.tokens, config: { size: inputs.size } }), [inputs]);
  const rows = stats?.rows ?? null;
  const unit = useStore((s) => s.result?.unit ?? 'chars');
  const size = useStore((s) => s.config.size);
  const encoding = useStore((s) => tokensFor(s.result, s.tokens)?.encoding ?? null);
  if (!stats || (rows!.length === 0 && stats.mixed === 0)) return null;
  if (!rows) return null;
  const shown = rows.slice(0, MAX_LANGUAGE_ROWS);
  return (
    <details className="language-lines" data-testid="language-stats" open={rows.length > 1}>
      <summary>
        Per language ({rows.length === 1 ? rows[0]!.name : rows.length === 0 ? 'every chunk mixes languages' : `${rows.length} detected`}) · {encoding}
      </summary>
      <table className="language-table">
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col" title="Characters per token">chars/tok</th>
            <th scope="col" title="Tokens per word (Intl.Segmenter's words)">tok/word</th>
            {unitDescriptor(unit)?.sampleCount !== undefined && <th scope="col" title={`What the size setting (${size} ${unitLabel(unit)}) holds in words`}>{formatNumber(size)} {unitLabel(unit)} ≈</th>}
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.code} title={`${formatNumber(r.chunks)} chunks, ${formatNumber(r.words)} words, ${formatNumber(r.tokens)} tokens`}>
              <th scope="row">{r.name}</th>
              <td>{formatNumber(r.charsPerToken, 1)}</td>
              <td>{formatNumber(r.tokensPerWord, 2)}</td>
              {r.sizeInWords !== null && <td>{formatNumber(Math.round(r.sizeInWords))} words</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && <p className="muted small">…and {rows.length - shown.length} more languages.</p>}
      {stats!.other > 0 && (
        <p className="muted small">
          {formatNumber(stats!.other)} chunk{stats!.other === 1 ? '' : 's'} in languages under 2% of the document’s tokens not listed.
        </p>
      )}
      {stats!.mixed > 0 && (
        <p className="muted small">
          {formatNumber(stats!.mixed)} chunk{stats!.mixed === 1 ? '' : 's'} mixing languages left out (no language holds 80% of {stats!.mixed === 1 ? 'it' : 'them'}).
        </p>
      )}
    </details>
  );
}


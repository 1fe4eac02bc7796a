import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useDeferredValue, useEffect, useRef, useState } from 'react';
import { selectEmbedderTokens, selectResult, selectSelectedIndex, selectTokens, tokensFor } from '../../state/selectors';
import type { PaintableResult } from '../../state/resultsSlice';
import { useStore } from '../../state/store';
import { chunkPreview } from './chunkPreview';
import { formatNumber, unitLabel } from './format';

const fmt = (n: number) => formatNumber(n);
/** Rows have one fixed height (text clamped), so scrolling 10,000 chunks never measures the DOM. */
const ROW_HEIGHT = 104;

/** The chunk list: virtualized (only visible rows exist), a listbox driven from the keyboard. */
export function ChunkList() {
  // The list follows the editor at lower priority: the paint of boundaries never waits for it.
  const result = useDeferredValue(useStore(selectResult));
  const tokens = useDeferredValue(useStore(selectTokens));
  const embedderTokens = useDeferredValue(useStore(selectEmbedderTokens));
  const selectedIndex = useStore(selectSelectedIndex);
  const selectionSource = useStore((s) => s.selectionSource);
  const select = useStore((s) => s.select);
  const scroller = useRef<HTMLDivElement>(null);
  const count = result?.starts.length ?? 0;
  const tokenCounts = tokensFor(result, tokens);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });

  // A chunk picked in the editor scrolls into view here.
  useEffect(() => {
    if (selectedIndex !== null && selectedIndex < count && selectionSource === 'editor') {
      virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    }
  }, [selectedIndex, selectionSource, count, virtualizer]);

  const move = (index: number) => {
    if (count === 0) return;
    const next = Math.max(0, Math.min(count - 1, index));
    select(next, 'list');
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const current = selectedIndex ?? -1;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT));
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      ArrowUp: () => move(current <= 0 ? 0 : current - 1),
      Home: () => move(0),
      End: () => move(count - 1),
      PageDown: () => move(current + page),
      PageUp: () => move(current - page),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  return (
    <section className="panel list-panel" aria-labelledby="list-title">
      <div className="panel-head">
        <h2 id="list-title">Chunks</h2>
        <span className="muted small">{count ? `${fmt(count)} · ↑↓ to move` : ''}</span>
        <CopyChunkButton result={result} index={selectedIndex} />
      </div>
      <div
        ref={scroller}
        className="chunk-list"
        role="listbox"
        aria-label="Chunks"
        tabIndex={0}
        aria-activedescendant={selectedIndex !== null && selectedIndex < count ? `chunk-option-${selectedIndex}` : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {result &&
            virtualizer.getVirtualItems().map((item) => (
              <ChunkRow
                key={item.key}
                result={result}
                index={item.index}
                tokens={tokenCounts ? tokenCounts.counts[item.index] : undefined}
                embedderTokens={embedderTokens?.counts[item.index]}
                truncated={embedderTokens ? embedderTokens.truncatedAt[item.index]! >= 0 : false}
                selected={item.index === selectedIndex}
                start={item.start}
                onSelect={() => select(item.index, 'list')}
              />
            ))}
        </div>
        {count === 0 && <p className="empty">No chunks yet. Paste text into the editor or pick a sample.</p>}
      </div>
    </section>
  );
}

interface RowProps {
  result: PaintableResult;
  index: number;
  tokens: number | undefined;
  /** Semantic: the chunk's length in the embedding model's tokens, and whether the model reads only part of it. */
  embedderTokens?: number;
  truncated?: boolean;
  selected: boolean;
  start: number;
  onSelect: () => void;
}

const ChunkRow = memo(function ChunkRow({ result, index, tokens, embedderTokens, truncated, selected, start, onSelect }: RowProps) {
  const s = result.starts[index]!;
  const e = result.ends[index]!;
  const prev = index > 0 ? result.overlaps[index - 1]! : 0;
  const next = index < result.starts.length - 1 ? result.overlaps[index]! : 0;
  const segments = chunkPreview(result.text.slice(s, e), prev, next);
  const over = result.oversize[index] === 1;
  return (
    <div
      data-index={index}
      data-start={s}
      data-end={e}
      id={`chunk-option-${index}`}
      role="option"
      aria-selected={selected}
      aria-label={`Chunk ${index}: ${fmt(result.sizes[index]!)} ${unitLabel(result.unit)}, offsets ${fmt(s)} to ${fmt(e)}${over ? ', over the limit' : ''}`}
      className={`chunk-row${selected ? ' is-selected' : ''}${index % 2 ? ' is-odd' : ' is-even'}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={onSelect}
    >
      <div className="chunk-row-head">
        <span className="chunk-index">#{index}</span>
        <span className="chunk-size">
          {fmt(result.sizes[index]!)} {unitLabel(result.unit)}
          {tokens !== undefined && result.unit === 'chars' ? <span className="muted"> · {fmt(tokens)} tok</span> : null}
        </span>
        {embedderTokens !== undefined && (
          <span className="muted small" title="Length in the embedding model's own tokens">
            {fmt(embedderTokens)} emb
          </span>
        )}
        {truncated && (
          <span className="badge badge-warn" title="Longer than the embedding model reads: the shaded end is never embedded">
            truncated
          </span>
        )}
        {over && <span className="badge badge-warn">over limit</span>}
        {result.contentDiffers[index] === 1 && <span className="badge">content differs</span>}
        <span className="chunk-offsets">
          {fmt(s)}–{fmt(e)}
        </span>
      </div>
      <p className="chunk-text">
        {segments.map((seg, i) =>
          seg.overlap ? (
            <mark key={i} className={`overlap-mark overlap-${seg.overlap}`} title={seg.overlap === 'prev' ? `Shared with chunk ${index - 1}` : `Shared with chunk ${index + 1}`}>
              {showBreaks(seg.text)}
            </mark>
          ) : (
            <span key={i}>{showBreaks(seg.text)}</span>
          ),
        )}
      </p>
    </div>
  );
});

/** Line breaks as a visible mark, so a row shows more of its chunk in a few lines. */
function showBreaks(text: string): string {
  return text.replace(/\r?\n/g, '↵ ');
}

function CopyChunkButton({ result, index }: { result: PaintableResult | null; index: number | null }) {
  const [copied, setCopied] = useState(false);
  const target = result && result.starts.length ? Math.min(index ?? 0, result.starts.length - 1) : null;
  const copy = async () => {
    if (!result || target === null) return;
    const text = result.text.slice(result.starts[target]!, result.ends[target]!);
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API refused (permissions): fall back to a hidden textarea.
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1200);
  };
  return (
    <button type="button" className="btn btn-small" aria-label="Copy chunk" onClick={copy} disabled={target === null} title={target !== null ? `Copy chunk #${target}` : undefined}>
      {copied ? 'Copied' : 'Copy chunk'}
    </button>
  );
}

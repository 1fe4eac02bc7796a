import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import {
  breadcrumbText,
  chunkExtras,
  pagesLabel,
  selectEmbedderTokens,
  selectResult,
  selectSelectedIndex,
  selectDocumentSerial,
  showsPreviousDocument,
  selectTokens,
  tokensFor,
  unitCounts,
} from '../../state/selectors';
import { BASE_DEFAULTS } from '../../core/options';
import { getStrategy } from '../../core/strategies/index';
import type { PaintableResult } from '../../state/resultsSlice';
import { orphanLabel, orphanSummary } from '../../state/labBudget';
import { useStore, type AppState } from '../../state/store';
import { chunkPreview } from './chunkPreview';
import { useRowWindow } from './rowWindow';
import { formatNumber, unitLabel } from './format';
import { unitDescriptor } from '../../core/units';

const fmt = (n: number) => formatNumber(n);
/** Rows have fixed heights (text clamped), so scrolling 10,000 chunks never measures the DOM. */
const ROW_HEIGHT = 104;
/** Structure results: a breadcrumb line under the row head. */
const BREADCRUMB_HEIGHT = 18;
/** A row with "Show content" open: the embedded content below the source text. */
const CONTENT_HEIGHT = 132;
/** Retrieval units: the header row of an enclosing unit (parent). */
const PARENT_ROW_HEIGHT = 34;
/** Indentation per retrieval level. */
const INDENT = 14;

/**
 * The rows of the list: leaves (value i >= 0, chunk index) and, with retrieval units, the header of each
 * enclosing unit (value -(k + 1), parent index k) just before its first leaf, in pre-order. `leafRow` maps a
 * chunk index to its row. Without retrieval units rows and chunks coincide.
 */
interface RowModel {
  count: number;
  rows: Int32Array | null;
  leafRow: Int32Array | null;
  /** Leaves under each parent (direct and deeper). */
  childCounts: Int32Array | null;
}

function rowModel(result: PaintableResult | null): RowModel {
  const n = result?.starts.length ?? 0;
  const s = result?.structure;
  if (!s?.parents || !s.leafParent) return { count: n, rows: null, leafRow: null, childCounts: null };
  const parents = s.parents;
  const shown = new Uint8Array(parents.starts.length);
  const childCounts = new Int32Array(parents.starts.length);
  const rows: number[] = [];
  const leafRow = new Int32Array(n);
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    chain.length = 0;
    for (let p = s.leafParent[i]!; p >= 0; p = parents.parent[p]!) {
      childCounts[p]!++;
      if (!shown[p]) chain.push(p);
    }
    for (let c = chain.length - 1; c >= 0; c--) {
      shown[chain[c]!] = 1;
      rows.push(-(chain[c]! + 1));
    }
    leafRow[i] = rows.length;
    rows.push(i);
  }
  return { count: rows.length, rows: Int32Array.from(rows), leafRow, childCounts };
}

/** The chunk list: virtualized (only visible rows exist), a listbox driven from the keyboard. */
export function ChunkList() {
  // The list follows the editor at lower priority: the paint of boundaries never waits for it.
  const result = useDeferredValue(useStore(selectResult));
  const tokens = useDeferredValue(useStore(selectTokens));
  const embedderTokens = useDeferredValue(useStore(selectEmbedderTokens));
  const selectedIndex = useStore(selectSelectedIndex);
  const documentSerial = useStore(selectDocumentSerial);
  // From the deferred result: dimmed exactly while the figures drawn are another document's.
  const previous = showsPreviousDocument(result, documentSerial);
  const selectionSource = useStore((s) => s.selectionSource);
  const select = useStore((s) => s.select);
  const scroller = useRef<HTMLDivElement>(null);
  const count = result?.starts.length ?? 0;
  const tokenCounts = tokensFor(result, tokens);
  const model = useMemo(() => rowModel(result), [result]);
  const structured = hasBreadcrumbLine(result);
  const { expanded, toggle } = useExpandedRows(result?.text);
  const rowOf = (index: number) => (model.leafRow ? model.leafRow[index]! : index);
  const virtualizer = useChunkVirtualizer(scroller, model, result, structured, expanded);

  // A chunk picked in the editor scrolls into view here.
  useEffect(() => {
    if (selectedIndex !== null && selectedIndex < count && selectionSource === 'editor') {
      virtualizer.scrollToIndex(rowOf(selectedIndex));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedIndex, selectionSource, count, virtualizer, model]);

  const move = (index: number) => {
    if (count === 0) return;
    const next = Math.max(0, Math.min(count - 1, index));
    select(next, 'list');
    virtualizer.scrollToIndex(rowOf(next));
  };
  const onKeyDown = (e: React.KeyboardEvent) => listKeyDown(e, { result, count, selectedIndex, structured, scroller, move, toggle });

  return (
    // The previous document's chunks stay until the new one's come (no empty flash), dimmed and out of reach: a row
    // would select a range of a text the editor no longer holds.
    <section className={previous ? 'panel list-panel shows-previous' : 'panel list-panel'} aria-labelledby="list-title" aria-busy={previous} inert={previous}>
      <ListHead result={result} count={count} selectedIndex={selectedIndex} />
      <div
        ref={scroller}
        className="chunk-list"
        role="listbox"
        aria-label="Chunks"
        tabIndex={0}
        aria-activedescendant={selectedIndex !== null && selectedIndex < count ? `chunk-option-${selectedIndex}` : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.totalSize, position: 'relative' }}>
          {result && (
            <VirtualRows
              result={result}
              model={model}
              virtualizer={virtualizer}
              tokenCounts={tokenCounts}
              embedderTokens={embedderTokens}
              selectedIndex={selectedIndex}
              expanded={expanded}
              select={select}
              toggle={toggle}
            />
          )}
        </div>
        {count === 0 && <p className="empty">No chunks yet. Paste text into the editor or pick a sample.</p>}
      </div>
    </section>
  );
}

/**
 * Rows whose embedded content is shown, by the chunk's start offset: a chunk that keeps its start across a new
 * result (a slider move) stays open; a new document (`text`) closes them all.
 */
function useExpandedRows(text: string | undefined): { expanded: ReadonlySet<number>; toggle: (start: number) => void } {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(() => setExpanded(new Set()), [text]);
  const toggle = (start: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(start)) next.add(start);
      return next;
    });
  return { expanded, toggle };
}

/** Only the visible rows exist (./rowWindow.ts); heights come from the row kind, never from measuring the DOM. */
function useChunkVirtualizer(
  scroller: React.RefObject<HTMLDivElement | null>,
  model: RowModel,
  result: PaintableResult | null,
  structured: boolean,
  expanded: ReadonlySet<number>,
) {
  const sizeOf = useCallback(
    (row: number) => {
      const value = model.rows ? model.rows[row]! : row;
      if (value < 0) return PARENT_ROW_HEIGHT;
      return ROW_HEIGHT + (structured ? BREADCRUMB_HEIGHT : 0) + (expanded.has(result!.starts[value]!) ? CONTENT_HEIGHT : 0);
    },
    [model, result, structured, expanded],
  );
  return useRowWindow(scroller, model.count, sizeOf, 6);
}

interface ListKeysContext {
  result: PaintableResult | null;
  count: number;
  selectedIndex: number | null;
  structured: boolean;
  scroller: React.RefObject<HTMLDivElement | null>;
  move: (index: number) => void;
  toggle: (start: number) => void;
}

/** The listbox's keys: arrows, Home, End, pages of rows, and Enter for "Show content". */
function listKeyDown(e: React.KeyboardEvent, { result, count, selectedIndex, structured, scroller, move, toggle }: ListKeysContext): void {
  const current = selectedIndex ?? -1;
  const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / (ROW_HEIGHT + (structured ? BREADCRUMB_HEIGHT : 0))));
  const keys: Record<string, () => void> = {
    ArrowDown: () => move(current + 1),
    ArrowUp: () => move(current <= 0 ? 0 : current - 1),
    Home: () => move(0),
    End: () => move(count - 1),
    PageDown: () => move(current + page),
    PageUp: () => move(current - page),
    // "Show content" of the selected chunk: the row's toggle is a mouse target only (an option holds no control).
    Enter: () => {
      if (result?.structure && current >= 0 && current < count && chunkExtras(result, current).contentDiffers) toggle(result.starts[current]!);
    },
  };
  const action = keys[e.key];
  if (action) {
    e.preventDefault();
    action();
  }
}

interface VirtualRowsProps {
  result: PaintableResult;
  model: RowModel;
  virtualizer: ReturnType<typeof useChunkVirtualizer>;
  tokenCounts: ReturnType<typeof tokensFor>;
  embedderTokens: ReturnType<typeof selectEmbedderTokens>;
  selectedIndex: number | null;
  expanded: ReadonlySet<number>;
  select: AppState['select'];
  toggle: (start: number) => void;
}

/** The rows in view: a parent's header row or a chunk's row (re-rendered with the list, as before; rows are memo). */
function VirtualRows({ result, model, virtualizer, tokenCounts, embedderTokens, selectedIndex, expanded, select, toggle }: VirtualRowsProps) {
  return virtualizer.rows.map((item) => {
    const value = model.rows ? model.rows[item.index]! : item.index;
    if (value < 0) {
      const k = -value - 1;
      return (
        <ParentRow
          key={item.key}
          result={result}
          parent={k}
          leaves={model.childCounts![k]!}
          start={item.start}
          onSelect={() => select(firstLeafAfter(model.rows!, item.index), 'list')}
        />
      );
    }
    return (
      <ChunkRow
        key={item.key}
        result={result}
        index={value}
        height={item.size}
        tokens={tokenCounts ? tokenCounts.counts[value] : undefined}
        embedderTokens={embedderTokens?.counts[value]}
        truncated={embedderTokens ? embedderTokens.truncatedAt[value]! >= 0 : false}
        selected={value === selectedIndex}
        expanded={expanded.has(result.starts[value]!)}
        start={item.start}
        onSelect={() => select(value, 'list')}
        onToggleContent={() => toggle(result.starts[value]!)}
      />
    );
  });
}

/** The panel's head: the counts (parents and children with retrieval units), the keys hint, "Copy chunk". */
function ListHead({ result, count, selectedIndex }: { result: PaintableResult | null; count: number; selectedIndex: number | null }) {
  const units = unitCounts(result);
  return (
    <div className="panel-head">
      <h2 id="list-title">Chunks</h2>
      <span className="muted small" data-testid="unit-counts">
        {units ? `${fmt(units.parents)} parents · ${fmt(units.leaves)} children` : count ? fmt(count) : ''}
        {/* The keys hint gives way on narrow screens (the list's own label names the keys too). */}
        {(units || count > 0) && <span className="list-keys">{units ? ' · ↑↓' : ' · ↑↓ to move'}</span>}
      </span>
      <CopyChunkButton result={result} index={selectedIndex} />
    </div>
  );
}

/** Rows get a second line (breadcrumb, "Show content") when the result has heading paths or injected content. */
function hasBreadcrumbLine(result: PaintableResult | null): boolean {
  const s = result?.structure;
  return s !== undefined && (s.paths.length > 0 || s.prefixIndex !== undefined || s.contentIndex !== undefined);
}

function firstLeafAfter(rows: Int32Array, row: number): number {
  for (let r = row + 1; r < rows.length; r++) if (rows[r]! >= 0) return rows[r]!;
  return 0;
}

interface RowProps {
  result: PaintableResult;
  index: number;
  height: number;
  tokens: number | undefined;
  /** Semantic: the chunk's length in the embedding model's tokens, and whether the model reads only part of it. */
  embedderTokens?: number;
  truncated?: boolean;
  selected: boolean;
  /** "Show content" is open: what a pipeline embeds is shown below the source text. */
  expanded: boolean;
  start: number;
  onSelect: () => void;
  onToggleContent: () => void;
}

const ChunkRow = memo(function ChunkRow({ result, index, height, tokens, embedderTokens, truncated, selected, expanded, start, onSelect, onToggleContent }: RowProps) {
  const s = result.starts[index]!;
  const e = result.ends[index]!;
  const prev = index > 0 ? result.overlaps[index - 1]! : 0;
  const next = index < result.starts.length - 1 ? result.overlaps[index]! : 0;
  const segments = chunkPreview(result.text.slice(s, e), prev, next);
  const over = result.oversize[index] === 1;
  const extras = result.structure ? chunkExtras(result, index) : null;
  const path = extras?.headingPath ?? null;
  const unit = unitLabel(result.unit);
  const prefixSize = extras?.prefixSize ?? 0;
  const indent = extras && result.structure?.parents ? (extras.level ?? 0) * INDENT : 0;
  return (
    <div
      data-index={index}
      data-start={s}
      data-end={e}
      id={`chunk-option-${index}`}
      role="option"
      aria-selected={selected}
      aria-label={rowLabel(index, result.sizes[index]!, unit, s, e, over, path, extras?.contentDiffers, expanded)}
      className={`chunk-row${selected ? ' is-selected' : ''}${index % 2 ? ' is-odd' : ' is-even'}`}
      style={{ transform: `translateY(${start}px)`, height, left: indent }}
      onClick={onSelect}
    >
      <div className="chunk-row-head">
        <span className="chunk-index">#{index}</span>
        <span className="chunk-size">
          {fmt(result.sizes[index]!)} {unit}
          {prefixSize > 0 ? <span className="muted" title="Part of the size taken by the injected prefix"> ({fmt(prefixSize)} header)</span> : null}
          {tokens !== undefined && unitDescriptor(result.unit)?.isLength ? <span className="muted chunk-tok"> · {fmt(tokens)} tok</span> : null}
        </span>
        {extras && extras.contentType !== 'text' && (
          <span className={`badge badge-${extras.contentType}`} title={extras.caption ?? undefined}>
            {extras.contentType}
          </span>
        )}
        {extras?.pages && <span className="chunk-pages muted small">{pagesLabel(extras.pages)}</span>}
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
        <OrphanBadge result={result} index={index} />
        {!extras && result.contentDiffers[index] === 1 && <span className="badge">content differs</span>}
        <span className="chunk-offsets">
          {fmt(s)}–{fmt(e)}
        </span>
      </div>
      {extras && hasBreadcrumbLine(result) && breadcrumbLine(result, path, extras.contentDiffers, expanded, onToggleContent)}
      {chunkText(segments, index)}
      {extras && expanded && <EmbeddedContent content={extras.content} prefix={extras.prefix} />}
    </div>
  );
});

/** What the row says to a screen reader: the chunk, its size and offsets, its section, and what Enter does. */
function rowLabel(index: number, size: number, unit: string, s: number, e: number, over: boolean, path: readonly string[] | null, contentDiffers: boolean | undefined, expanded: boolean): string {
  return `Chunk ${index}: ${fmt(size)} ${unit}, offsets ${fmt(s)} to ${fmt(e)}${over ? ', over the limit' : ''}${path?.length ? `, section ${path.join(', ')}` : ''}${contentDiffers ? `; Enter ${expanded ? 'hides' : 'shows'} the embedded content` : ''}`;
}

/**
 * A structured row's second line: the heading path (or what is outside sections) and the "Show content" toggle. A
 * render function, not a component: rows are the list's hot path, and it adds no fiber per row.
 */
function breadcrumbLine(result: PaintableResult, path: readonly string[] | null, contentDiffers: boolean | undefined, expanded: boolean, onToggleContent: () => void) {
  return (
    <div className="chunk-breadcrumb-line">
      <span className="cs-breadcrumb chunk-breadcrumb" title={path?.length ? breadcrumbText(path) : undefined}>
        {path?.length ? breadcrumbText(path) : <span className="muted">{path ? (getStrategy(result.options.strategy ?? BASE_DEFAULTS.strategy).outsideSectionsLabel ?? '(before the first heading)') : ''}</span>}
      </span>
      {contentDiffers && (
        // A mouse target, not a control: an option may hold no focusable control (axe nested-interactive), so
        // keyboard and screen-reader users toggle with Enter on the list (the option's label says so).
        <span
          aria-hidden="true"
          data-testid="content-toggle"
          className={`content-toggle${expanded ? ' is-open' : ''}`}
          title="What a pipeline embeds for this chunk: the injected text (marked) and the source"
          onClick={(event) => {
            event.stopPropagation();
            onToggleContent();
          }}
        >
          {expanded ? 'Hide content' : 'Show content'}
        </span>
      )}
    </div>
  );
}

/** The chunk's text, the parts shared with its neighbours marked (a render function, like breadcrumbLine). */
function chunkText(segments: ReturnType<typeof chunkPreview>, index: number) {
  return (
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
  );
}

/** The content a pipeline embeds, with the injected prefix marked (cs-injected); text only, never HTML. */
function EmbeddedContent({ content, prefix }: { content: string; prefix: string }) {
  const marked = prefix && content.startsWith(prefix) ? prefix : '';
  return (
    <div className="chunk-content" aria-label="Embedded content" onClick={(e) => e.stopPropagation()}>
      <div className="chunk-content-title">Embedded content{marked ? '' : prefix ? ' (rewritten)' : ''}</div>
      <pre>
        {marked && <span className="cs-injected">{marked}</span>}
        {content.slice(marked.length)}
      </pre>
    </div>
  );
}

/** The header row of an enclosing retrieval unit: its label, section, size and how many leaves it holds. */
const ParentRow = memo(function ParentRow({ result, parent, leaves, start, onSelect }: { result: PaintableResult; parent: number; leaves: number; start: number; onSelect: () => void }) {
  const parents = result.structure!.parents!;
  const p = parents.pathIndex[parent]!;
  const path = p >= 0 ? result.structure!.paths[p]! : null;
  const level = parents.levels[parent]!;
  return (
    <div
      role="none"
      className={`parent-row cs-parent parent-l${Math.min(level, 2)}${parent % 2 ? ' is-odd' : ' is-even'}`}
      data-parent={parent}
      style={{ transform: `translateY(${start}px)`, left: level * INDENT }}
      onClick={onSelect}
      title={path?.length ? breadcrumbText(path) : undefined}
    >
      <span className="parent-label">P{parent}</span>
      <span className="parent-path">{path?.length ? breadcrumbText(path) : `offsets ${fmt(parents.starts[parent]!)}–${fmt(parents.ends[parent]!)}`}</span>
      <span className="parent-facts">
        {fmt(parents.sizes[parent]!)} {unitLabel(result.unit)} · {fmt(leaves)} {leaves === 1 ? 'child' : 'children'}
      </span>
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

/** Orphan chunks (starting or ending mid-sentence, heading only) are flagged in their row. */
function OrphanBadge({ result, index }: { result: PaintableResult; index: number }) {
  const tokens = useStore((s) => s.tokens);
  const label = orphanLabel(orphanSummary(result, tokens)?.flags[index] ?? 0);
  if (!label) return null;
  return (
    <span className="badge badge-orphan" title={`Orphan chunk: ${label}`} data-testid="orphan-badge">
      orphan
    </span>
  );
}

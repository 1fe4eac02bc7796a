import { useCallback, useLayoutEffect, useMemo, useReducer, useRef, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** A row in view (or within `overscan` rows of it): its index, its top in the list, its height. */
export interface WindowRow {
  index: number;
  key: number;
  start: number;
  size: number;
}

export interface RowWindow {
  /** The list's full height (every row's height summed). */
  totalSize: number;
  /** The rows to render, in order. */
  rows: WindowRow[];
  /** Scroll the least that brings the row into view (none when it is in view). */
  scrollToIndex(index: number): void;
}

/** Row tops: offsets[i] is row i's top, offsets[count] the total height. */
export function rowOffsets(count: number, sizeOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + sizeOf(i);
  return offsets;
}

/** The first row whose bottom is below `y` (count when none). */
function rowAt(offsets: Float64Array, y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid + 1]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The rows that overlap [top, top + height), `overscan` more on each side. */
export function rowsInView(offsets: Float64Array, top: number, height: number, overscan: number): { first: number; last: number } {
  const count = offsets.length - 1;
  if (count === 0) return { first: 0, last: -1 };
  const first = Math.min(rowAt(offsets, top), count - 1);
  const last = Math.max(first, Math.min(rowAt(offsets, top + height - 1e-6), count - 1));
  return { first: Math.max(0, first - overscan), last: Math.min(count - 1, last + overscan) };
}

/**
 * Only the rows in view exist (the chunk list has tens of thousands): rows have heights known from their kind
 * (`sizeOf`, never measured in the DOM), so their tops are a prefix sum and the rows in view a binary search. The
 * scroller's scroll position and height are read before the first paint (layout effect) and on every scroll and
 * resize; a scroll that changes the rows in view renders them in the same frame (flushSync), so no blank band shows.
 * `sizeOf` must change (useCallback) exactly when a row's height does.
 */
export function useRowWindow(scroller: RefObject<HTMLElement | null>, count: number, sizeOf: (index: number) => number, overscan: number): RowWindow {
  const offsets = useMemo(() => rowOffsets(count, sizeOf), [count, sizeOf]);
  const viewport = useRef({ top: 0, height: 0 });
  const shown = useRef({ first: 0, last: -1 });
  const offsetsNow = useRef(offsets);
  offsetsNow.current = offsets;
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = (sync: boolean) => {
      viewport.current = { top: el.scrollTop, height: el.clientHeight };
      const next = rowsInView(offsetsNow.current, el.scrollTop, el.clientHeight, overscan);
      if (next.first === shown.current.first && next.last === shown.current.last) return;
      if (sync) flushSync(rerender);
      else rerender();
    };
    update(false);
    const onScroll = () => update(true);
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => update(false)) : null;
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
    };
  }, [scroller, overscan]);

  const { first, last } = rowsInView(offsets, viewport.current.top, viewport.current.height, overscan);
  shown.current = { first, last };
  const rows: WindowRow[] = [];
  for (let i = first; i <= last; i++) rows.push({ index: i, key: i, start: offsets[i]!, size: offsets[i + 1]! - offsets[i]! });

  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scroller.current;
      const all = offsetsNow.current;
      if (!el || index < 0 || index >= all.length - 1) return;
      const start = all[index]!;
      const end = all[index + 1]!;
      if (end > el.scrollTop + el.clientHeight) el.scrollTop = Math.min(start, end - el.clientHeight);
      else if (start < el.scrollTop) el.scrollTop = start;
    },
    [scroller],
  );
  return { totalSize: offsets[count]!, rows, scrollToIndex };
}

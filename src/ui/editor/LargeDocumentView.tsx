import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { PaintableResult } from '../../state/resultsSlice';
import { selectDocumentSerial, selectResult, selectSelectedIndex, VIEW_ONLY_DOCUMENT } from '../../state/selectors';
import { useStore } from '../../state/store';
import { pasteRefusal } from '../../import/sizeLimit';
import { formatNumber } from '../panels/format';
import { chunkAtOffset } from './editorModel';
import { LINE_SCAN_CHARS, lineOf, lineRange, lineRuns, scanLineStarts, scrollTopFor, viewWindow, type LineRun } from './largeView';

/** Line starts of `text`, scanned LINE_SCAN_CHARS per task (a 10 MiB paste must not scan in one long task). */
function useLineStarts(text: string): { starts: number[] | null; scanned: number } {
  const [state, setState] = useState<{ text: string; starts: number[] | null; scanned: number }>({ text, starts: null, scanned: 0 });
  useEffect(() => {
    const starts = [0];
    let at = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const step = () => {
      at = scanLineStarts(text, at, LINE_SCAN_CHARS, starts);
      if (at < text.length) {
        setState({ text, starts: null, scanned: at / text.length });
        timer = setTimeout(step, 0);
      } else {
        setState({ text, starts, scanned: 1 });
      }
    };
    timer = setTimeout(step, 0);
    return () => {
      if (timer) clearTimeout(timer);
    };
  }, [text]);
  return state.text === text ? state : { starts: null, scanned: 0 };
}

/** The caret offset under a click: each run's element carries the document offset of its first character. */
function offsetAtPoint(x: number, y: number): number | null {
  const range = document.caretRangeFromPoint?.(x, y);
  const node = range?.startContainer;
  const run = node?.parentElement?.closest<HTMLElement>('[data-from]');
  if (!range || !run || node!.nodeType !== Node.TEXT_NODE) return null;
  // A chunk's index label is not document text: it stands at the chunk's start.
  if (node!.parentElement!.classList.contains('cs-chunk-label')) return Number(run.dataset.from);
  return Number(run.dataset.from) + range.startOffset;
}

/**
 * A document over VIEW_ONLY_DOCUMENT characters, read-only: only the lines on screen are in the DOM, coloured by
 * chunk as the editor colours them (alternating bands, overlaps striped, the selected chunk outlined, its index at
 * its start). Clicking text selects its chunk; choosing a chunk in the list scrolls to it. "Edit in the editor"
 * loads it into Monaco. Text goes into the DOM as text nodes only.
 */
export function LargeDocumentView() {
  // Each document gets a view of its own: it opens at the top (resetting the scroll forced a layout in the paste's task).
  return <DocumentLines key={useStore(selectDocumentSerial)} />;
}

/** The view's hooks and handlers; the lines themselves are drawn by DrawnLine (a plain function: same elements). */
function DocumentLines() {
  const text = useStore((s) => s.text);
  const result = useStore(selectResult);
  const selectedIndex = useStore(selectSelectedIndex);
  const projector = useStore((s) => s.config.projector);
  const lineHeight = projector ? 27 : 21;
  const { starts: lineStarts, scanned } = useLineStarts(text);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewHeight = useViewHeight(scroller);
  // The result's offsets are this text's (a result of the previous document is not drawn on this one).
  const shown = useMemo(() => (result && result.text.length === text.length && result.text === text ? result : null), [result, text]);
  useFocusAfterPaste(scroller);
  useRevealChosenChunk(shown, lineStarts, lineHeight, viewHeight, scroller, setScrollTop);
  usePaintedMeasure(shown, lineStarts);

  const lineCount = lineStarts?.length ?? 0;
  const geometry = viewWindow(lineCount, lineHeight, scrollTop, viewHeight);
  const lines = useVisibleLines(text, lineStarts, shown, geometry.first, geometry.last);

  const onScroll = () => {
    const top = scroller.current!.scrollTop;
    requestAnimationFrame(() => setScrollTop(top));
  };
  const onClick = (event: React.MouseEvent) => {
    if (!shown || !window.getSelection()?.isCollapsed) return; // a drag selects text to copy
    const offset = offsetAtPoint(event.clientX, event.clientY);
    if (offset === null) return;
    const index = chunkAtOffset(shown.starts, shown.ends, offset);
    if (index !== null) useStore.getState().select(index, 'editor');
  };
  const drawn: DrawnText = {
    text,
    shown,
    lineHeight,
    gutter: `${String(Math.max(lineCount, 1)).length + 1}ch`,
    selected: shown && selectedIndex !== null && selectedIndex < shown.starts.length ? { start: shown.starts[selectedIndex]!, end: shown.ends[selectedIndex]! } : null,
  };

  return (
    <div className={`large-view${projector ? ' is-projector' : ''}`} data-testid="large-view">
      <ViewBar length={text.length} />
      <div
        ref={scroller}
        className="lv-scroller"
        tabIndex={0}
        role="document"
        aria-label="Document, read-only view"
        aria-busy={!lineStarts}
        onScroll={onScroll}
        onClick={onClick}
        onKeyDown={(event) => selectAllDrawn(event, scroller.current!)}
        onPaste={pasteAsNewDocument}
      >
        {!lineStarts && <div className="lv-preparing">Preparing the view… {Math.round(scanned * 100)}%</div>}
        <div className="lv-spacer" style={{ height: geometry.scrollHeight }}>
          <div className="lv-lines" style={{ transform: `translateY(${scrollTop - geometry.shift}px)`, lineHeight: `${lineHeight}px` }}>
            {lines.map((line) => drawnLine(line, drawn))}
          </div>
        </div>
      </div>
    </div>
  );
}

/** The lines in view with their chunk runs (every line in one run, outside chunks, while no result is shown). */
function useVisibleLines(text: string, lineStarts: number[] | null, shown: PaintableResult | null, first: number, last: number) {
  return useMemo(() => {
    if (!lineStarts) return [];
    const out = [];
    for (let line = first; line <= last; line++) {
      const { start, end, drawnEnd } = lineRange(text, lineStarts, line);
      const runs = shown ? lineRuns(shown.starts, shown.ends, start, drawnEnd) : [{ from: start, to: drawnEnd, chunk: -1, overlap: false }];
      out.push({ line, start, end, drawnEnd, runs });
    }
    return out;
  }, [text, lineStarts, shown, first, last]);
}

/** What this view is (and is not), with the way back to the editor. */
function ViewBar({ length }: { length: number }) {
  return (
    <div className="lv-bar">
      <span>
        Read-only view for documents over {formatNumber(VIEW_ONLY_DOCUMENT)} characters (this one has {formatNumber(length)}). Chunks,
        the list, stats and export work as usual; pasting replaces the document.
      </span>
      <button type="button" className="link" onClick={() => useStore.getState().editLargeDocument()}>
        Edit in the editor
      </button>
    </div>
  );
}

/** The view's height, followed as the page resizes. */
function useViewHeight(scroller: RefObject<HTMLDivElement | null>): number {
  const [viewHeight, setViewHeight] = useState(600);
  useLayoutEffect(() => {
    const el = scroller.current!;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight || 600));
    observer.observe(el);
    return () => observer.disconnect();
  }, [scroller]);
  return viewHeight;
}

/**
 * The paste came through the editor, now hidden: the keyboard goes on in the view (arrows scroll, a paste replaces).
 * After the next frame: focus() brings styles up to date, and in the paste's own task that was the new view's whole
 * style and layout.
 */
function useFocusAfterPaste(scroller: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const active = document.activeElement;
        if (!active || active === document.body || active.closest('.editor-monaco')) scroller.current?.focus({ preventScroll: true });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [scroller]);
}

/**
 * A chunk chosen in the list (or by the keyboard there) scrolls into view when its start is off screen; once per
 * choice, not again when a slider move brings new chunks.
 */
function useRevealChosenChunk(
  shown: PaintableResult | null,
  lineStarts: number[] | null,
  lineHeight: number,
  viewHeight: number,
  scroller: RefObject<HTMLDivElement | null>,
  setScrollTop: (top: number) => void,
): void {
  const selectedIndex = useStore(selectSelectedIndex);
  const selectionSource = useStore((s) => s.selectionSource);
  const revealed = useRef<number | null>(null);
  useEffect(() => {
    if (selectedIndex === null || selectionSource !== 'list') revealed.current = null;
    if (!shown || !lineStarts || selectedIndex === null || selectionSource !== 'list' || selectedIndex >= shown.starts.length) return;
    if (revealed.current === selectedIndex) return;
    revealed.current = selectedIndex;
    const line = lineOf(lineStarts, shown.starts[selectedIndex]!);
    const now = viewWindow(lineStarts.length, lineHeight, scroller.current!.scrollTop, viewHeight);
    if (line > now.first && line < now.last - 1) return;
    const top = scrollTopFor(line, lineStarts.length, lineHeight, viewHeight);
    scroller.current!.scrollTop = top;
    setScrollTop(top);
  }, [shown, lineStarts, selectedIndex, selectionSource, lineHeight, viewHeight, scroller, setScrollTop]);
}

/** The chunks are on screen: the same measure the editor records when it paints, and the store is told. */
function usePaintedMeasure(shown: PaintableResult | null, lineStarts: number[] | null): void {
  useEffect(() => {
    if (!shown || !lineStarts) return;
    performance.measure('chunkscope:paint', { start: shown.requestedAt, end: performance.now(), detail: { jobId: shown.jobId, chunks: shown.starts.length } });
    useStore.getState().setPainted(shown.jobId);
  }, [shown, lineStarts]);
}

/** The view has no caret: a paste is a new document (a paste over everything in the editor is one too). */
function pasteAsNewDocument(event: React.ClipboardEvent): void {
  const pasted = event.clipboardData.getData('text/plain');
  event.preventDefault();
  if (pasted === '') return;
  const refusal = pasteRefusal(pasted.length);
  if (refusal) {
    useStore.getState().setNotice(refusal);
    return;
  }
  // The new document in a task after the paste's, as in ChunkEditor: reading 10 MiB off the clipboard is this one's share.
  setTimeout(() => {
    const state = useStore.getState();
    state.setDocument(pasted, { name: null });
    state.followDocumentKind(null);
  }, 0);
}

/** Select-all selects the text drawn, not the whole page. */
function selectAllDrawn(event: React.KeyboardEvent, scroller: HTMLDivElement): void {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
    event.preventDefault();
    const block = scroller.querySelector('.lv-lines');
    if (block) window.getSelection()?.selectAllChildren(block);
  }
}

/** What every drawn line reads. */
interface DrawnText {
  text: string;
  shown: PaintableResult | null;
  lineHeight: number;
  gutter: string;
  selected: { start: number; end: number } | null;
}

/** One line: its number, its runs coloured by chunk (a chunk's index at its start), and what is left undrawn. */
function drawnLine({ line, end, drawnEnd, runs }: { line: number; end: number; drawnEnd: number; runs: LineRun[] }, d: DrawnText) {
  return (
    <div className="lv-line" key={line} style={{ height: d.lineHeight }}>
      <span className="lv-number" style={{ width: d.gutter }} aria-hidden="true">
        {line + 1}
      </span>
      <span className="lv-text">
        {runs.map((run) => drawnRun(run, d))}
        {drawnEnd < end && <span className="lv-more">… {formatNumber(end - drawnEnd)} more characters on this line</span>}
      </span>
    </div>
  );
}

function drawnRun(run: LineRun, { text, shown, selected }: DrawnText) {
  const isSelected = selected !== null && run.from >= selected.start && run.to <= selected.end;
  const opens = shown && run.chunk >= 0 && shown.starts[run.chunk] === run.from;
  const oversize = run.chunk >= 0 && shown!.oversize[run.chunk];
  let className = run.chunk < 0 ? 'cs-gap' : run.chunk % 2 === 0 ? 'cs-chunk-even' : 'cs-chunk-odd';
  if (oversize) className += ' cs-chunk-oversize';
  if (run.overlap) className += ' cs-overlap';
  if (isSelected) className += ' cs-chunk-selected';
  return (
    <span key={run.from} className={className} data-from={run.from}>
      {opens && (
        <span className={oversize ? 'cs-chunk-label cs-chunk-label-oversize' : 'cs-chunk-label'} aria-hidden="true">
          {run.chunk}
        </span>
      )}
      {text.slice(run.from, run.to)}
    </span>
  );
}

import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { PaintableResult } from '../../state/resultsSlice';
import { selectDocumentSerial, selectResult, selectSelectedIndex, VIEW_ONLY_DOCUMENT } from '../../state/selectors';
import { useStore } from '../../state/store';
import { pasteRefusal } from '../../import/sizeLimit';
import { formatNumber } from '../panels/format';
import { chunkAtOffset, documentAfterPaste, replacesWholeDocument } from './pasteModel';
import { earlyInput, earlyKey } from './earlyInput';
import { LINE_SCAN_CHARS, lineOf, lineRange, lineRuns, scanLineStarts, scrollTopFor, viewWindow, type LineRun } from './largeView';

/** Line starts of `text`, scanned LINE_SCAN_CHARS per task (a 10 MiB paste must not scan in one long task). */
function useLineStarts(text: string): { starts: number[] | null; scanned: number } {
  // A text scanned in one task is scanned at once: the first paint does not wait a task for it.
  const [state, setState] = useState<{ text: string; starts: number[] | null; scanned: number }>(() => initialLineStarts(text));
  useEffect(() => {
    if (text.length <= SYNC_SCAN_CHARS) {
      setState((now) => (now.text === text && now.starts ? now : initialLineStarts(text)));
      return;
    }
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

/** Texts up to this long get their line starts in the render that draws them (a few ms at most). */
const SYNC_SCAN_CHARS = 256 * 1024;

function initialLineStarts(text: string): { text: string; starts: number[] | null; scanned: number } {
  if (text.length > SYNC_SCAN_CHARS) return { text, starts: null, scanned: 0 };
  const starts = [0];
  scanLineStarts(text, 0, text.length, starts);
  return { text, starts, scanned: 1 };
}

/**
 * The first-paint view wraps its lines as Monaco does (up to this many characters it draws every line, of any
 * height; above it, the lines on screen at one height each, unwrapped, as the large view does).
 */
export const FIRST_VIEW_WRAP_CHARS = 100_000;

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
  return <DocumentLines key={useStore(selectDocumentSerial)} first={null} />;
}

/**
 * The first paint of any document, before Monaco has loaded: the same view, laid out as Monaco lays out the text
 * (its padding, gutter and wrapping), without the large view's bar. What the person does here (a click, a
 * selection, keys, scrolling) is kept in earlyInput for Monaco to take over; `onWake` asks for Monaco at once.
 */
export function FirstPaintView({ onWake }: { onWake: () => void }) {
  return <DocumentLines key={useStore(selectDocumentSerial)} first={{ onWake }} />;
}

/** The view's hooks and handlers; the lines themselves are drawn by DrawnLine (a plain function: same elements). */
function DocumentLines({ first }: { first: { onWake: () => void } | null }) {
  const text = useStore((s) => s.text);
  const result = useStore(selectResult);
  const selectedIndex = useStore(selectSelectedIndex);
  const projector = useStore((s) => s.config.projector);
  const lineHeight = projector ? 27 : 21;
  const { starts: lineStarts, scanned } = useLineStarts(text);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewHeight = useViewHeight(scroller);
  const wrapColumn = useWrapColumn(scroller, first !== null && text.length <= FIRST_VIEW_WRAP_CHARS, lineStarts?.length ?? 1);
  // The result's offsets are this text's (a result of the previous document is not drawn on this one).
  const shown = useMemo(() => (result && result.text.length === text.length && result.text === text ? result : null), [result, text]);
  useFocusAfterPaste(scroller, first !== null);
  useRevealChosenChunk(shown, lineStarts, lineHeight, viewHeight, scroller, setScrollTop);
  usePaintedMeasure(shown, lineStarts);

  const lineCount = lineStarts?.length ?? 0;
  const wrapped = first !== null && text.length <= FIRST_VIEW_WRAP_CHARS;
  const geometry = viewWindow(lineCount, lineHeight, scrollTop, viewHeight);
  const lines = useVisibleLines(text, lineStarts, shown, wrapped ? 0 : geometry.first, wrapped ? lineCount - 1 : geometry.last);

  const onScroll = () => {
    const top = scroller.current!.scrollTop;
    if (first) earlyInput.scroll = wrapped ? wrappedScroll(scroller.current!) : { line: geometry.first, within: top - geometry.first * geometry.pxPerLine };
    if (!wrapped) requestAnimationFrame(() => setScrollTop(top));
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
    // Monaco's gutter: at least four digits (lineNumbersMinChars), then its 10 px decorations lane (the CSS).
    wrapColumn: wrapped ? wrapColumn : null,
    gutter: first ? `${Math.max(4, String(Math.max(lineCount, 1)).length)}ch` : `${String(Math.max(lineCount, 1)).length + 1}ch`,
    selected: shown && selectedIndex !== null && selectedIndex < shown.starts.length ? { start: shown.starts[selectedIndex]!, end: shown.ends[selectedIndex]! } : null,
  };

  const handlers = first
    ? firstViewHandlers(first.onWake, scroller)
    : { onKeyDown: (event: React.KeyboardEvent) => selectAllDrawn(event, scroller.current!), onPaste: pasteAsNewDocument };
  const className = `large-view${first ? ' first-view' : ''}${wrapped ? ' is-wrapped' : ''}${projector ? ' is-projector' : ''}`;
  return (
    <div className={className} data-testid={first ? 'first-view' : 'large-view'}>
      {!first && <ViewBar length={text.length} />}
      <div
        ref={scroller}
        className="lv-scroller"
        tabIndex={0}
        role="document"
        aria-label={first ? 'Document text, loading the editor' : 'Document, read-only view'}
        aria-busy={!lineStarts}
        onScroll={onScroll}
        onClick={onClick}
        {...handlers}
      >
        {!lineStarts && <div className="lv-preparing">Preparing the view… {Math.round(scanned * 100)}%</div>}
        {wrapped ? (
          <div className="lv-lines" style={{ lineHeight: `${lineHeight}px` }}>
            {lines.map((line) => drawnLine(line, drawn))}
          </div>
        ) : (
          <div className="lv-spacer" style={{ height: geometry.scrollHeight }}>
            <div className="lv-lines" style={{ transform: `translateY(${scrollTop - geometry.shift}px)`, lineHeight: `${lineHeight}px` }}>
              {lines.map((line) => drawnLine(line, drawn))}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

/** The first line of a wrapped view at its scroll position, and how far past its top (its top counts the padding, as Monaco's does). */
function wrappedScroll(scroller: HTMLDivElement): { line: number; within: number } | null {
  const top = scroller.scrollTop;
  const lines = scroller.querySelector('.lv-lines')?.children;
  if (!lines) return null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as HTMLElement;
    if (line.offsetTop + line.offsetHeight > top) return { line: i, within: top - line.offsetTop };
  }
  return null;
}

/** The document offset of a DOM point in the view (a text node in a run, or a chunk's label: its start), or null. */
function offsetOfPoint(node: Node | null, offset: number): number | null {
  const run = node?.parentElement?.closest<HTMLElement>('[data-from]');
  if (!node || !run || node.nodeType !== Node.TEXT_NODE) return null;
  if (node.parentElement!.classList.contains('cs-chunk-label')) return Number(run.dataset.from);
  return Number(run.dataset.from) + offset;
}

/** The DOM selection in the view as document offsets (for Monaco to take over), or null where it is outside the text. */
function recordSelection(): void {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return;
  const anchor = offsetOfPoint(selection.anchorNode, selection.anchorOffset);
  const focus = offsetOfPoint(selection.focusNode, selection.focusOffset);
  if (anchor !== null && focus !== null) earlyInput.selection = { anchor, focus };
}

/**
 * The first view's keyboard, mouse and paste: any of them asks for Monaco; keys that edit are kept (and not done
 * here, where there is no caret to show them) until Monaco replays them; select-all selects the whole document; a
 * paste before any typed key is applied to the document at once, as Monaco would apply it.
 */
function firstViewHandlers(onWake: () => void, scroller: RefObject<HTMLDivElement | null>) {
  return {
    onFocus: () => {
      firstViewFocused = true;
      onWake();
    },
    onBlur: () => (firstViewFocused = false),
    onPointerDown: onWake,
    onPointerUp: () => setTimeout(recordSelection, 0),
    onKeyUp: (event: React.KeyboardEvent) => {
      if (event.shiftKey) recordSelection();
    },
    onKeyDown: (event: React.KeyboardEvent) => {
      onWake();
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
        selectAllDrawn(event, scroller.current!);
        earlyInput.selection = { anchor: 0, focus: useStore.getState().text.length };
        return;
      }
      const key = earlyKey(event.nativeEvent);
      if (!key) return;
      event.preventDefault();
      earlyInput.keys.push(key);
    },
    onPaste: (event: React.ClipboardEvent) => {
      onWake();
      if (earlyInput.keys.length > 0) {
        const pasted = event.clipboardData.getData('text/plain');
        event.preventDefault();
        if (pasted !== '') earlyInput.keys.push({ kind: 'type', text: pasted });
        return;
      }
      pasteIntoDocument(event);
    },
  };
}

/** A paste in the first view, over its selection (the caret, or everything after select-all): at once, into the store. */
function pasteIntoDocument(event: React.ClipboardEvent): void {
  const pasted = event.clipboardData.getData('text/plain');
  event.preventDefault();
  if (pasted === '') return;
  const refusal = pasteRefusal(pasted.length);
  if (refusal) {
    useStore.getState().setNotice(refusal);
    return;
  }
  const text = useStore.getState().text;
  const { anchor, focus } = earlyInput.selection ?? { anchor: 0, focus: 0 };
  const before = Math.min(anchor, focus, text.length);
  const after = Math.min(Math.max(anchor, focus), text.length);
  const whole = replacesWholeDocument(text, before, after);
  earlyInput.selection = { anchor: before + pasted.length, focus: before + pasted.length };
  setTimeout(() => {
    const state = useStore.getState();
    state.setDocument(documentAfterPaste(text, pasted, before, after), whole ? { name: null } : {});
    if (whole) state.followDocumentKind(null);
  }, 0);
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

/**
 * Monaco's wrapping column for a view this wide (its layout: the gutter of max(4, digits) digits and a 10 px lane
 * before the text, a 10 px scrollbar and 2 px after it), so the first view breaks lines where Monaco will.
 */
function useWrapColumn(scroller: RefObject<HTMLDivElement | null>, wrapped: boolean, lineCount: number): number {
  const [column, setColumn] = useState(80);
  useLayoutEffect(() => {
    if (!wrapped) return;
    const el = scroller.current!;
    const measure = () => {
      const lines = el.querySelector<HTMLElement>('.lv-lines');
      const style = lines ? getComputedStyle(lines) : null;
      const font = style ? `${style.fontSize} ${style.fontFamily}` : '13px monospace';
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return;
      context.font = font;
      const charWidth = context.measureText('0').width || 7.8;
      const contentLeft = Math.round(Math.max(4, String(lineCount).length) * charWidth) + 10;
      const outerWidth = el.parentElement!.clientWidth;
      setColumn(Math.max(1, Math.floor((outerWidth - contentLeft - 10 - 2) / charWidth)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el.parentElement!);
    return () => observer.disconnect();
  }, [scroller, wrapped, lineCount]);
  return column;
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
function useFocusAfterPaste(scroller: RefObject<HTMLDivElement | null>, firstView: boolean): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const active = document.activeElement;
        // The first view takes the focus only from the first view it replaces (focusing it loads the editor).
        if (firstView && !firstViewFocused) return;
        if (!active || active === document.body || active.closest('.editor-monaco')) scroller.current?.focus({ preventScroll: true });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [scroller, firstView]);
}

/** Whether the first view had the focus last (a paste there replaces it with a new one, which takes the focus on). */
let firstViewFocused = false;

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
  /** Characters per wrapped line (as Monaco computes them), or null: lines are not wrapped. */
  wrapColumn: number | null;
  shown: PaintableResult | null;
  lineHeight: number;
  gutter: string;
  selected: { start: number; end: number } | null;
}

/** One line: its number, its runs coloured by chunk (a chunk's index at its start), and what is left undrawn. */
function drawnLine({ line, end, drawnEnd, runs }: { line: number; end: number; drawnEnd: number; runs: LineRun[] }, d: DrawnText) {
  return (
    <div className="lv-line" key={line} style={d.wrapColumn === null ? { height: d.lineHeight } : { minHeight: d.lineHeight }}>
      <span className="lv-number" style={{ width: d.gutter }} aria-hidden="true">
        {line + 1}
      </span>
      <span className="lv-text" style={d.wrapColumn === null ? undefined : { width: `${d.wrapColumn}ch` }}>
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

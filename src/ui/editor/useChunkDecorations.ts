import { useEffect, type RefObject } from 'react';
import { selectEmbedderTokens } from '../../state/selectors';
import type { PaintableResult } from '../../state/resultsSlice';
import { selectLlmInEditor } from '../../state/llmEditor';
import { useStore } from '../../state/store';
import { buildDecorations, decorationViewFor, pairView, selectionView, summaryBandDecorations, truncatedDecorations, windowDecorations } from './decorations';
import type { EditorSession } from './editorSession';
import { chunkAtOffset, loadedEnd, needsRepaint, paintPlan, visibleLines } from './editorModel';
import { llmDecorations, llmPaintable } from './llmDecorations';
import { monaco } from './monaco';

/**
 * The chunks' marks in Monaco: the chunks themselves (every one, or a window of lines around the viewport, or the
 * summary band), what an embedding model never reads, the selected chunk, the sentence pair of a gap of the curve,
 * and a sentence window. A result's chunks and truncated ends are set in one batch (`paint`), then the lab's marks.
 */
export function useChunkDecorations(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, model } = s;
    // Created in this order, then the lab's (the order they always had: a mark's stacking is left as it was).
    const collections: Collections = {
      chunks: editor.createDecorationsCollection(),
      selection: editor.createDecorationsCollection(),
      truncated: editor.createDecorationsCollection(),
      pair: editor.createDecorationsCollection(),
      window: editor.createDecorationsCollection(),
    };
    const painted = chunkPaint(s, collections);
    const focus = focusMarks(s, collections);
    s.chunks = {
      paint: painted.paint,
      paintLoaded: painted.paintLoaded,
      paintTruncated: painted.paintTruncated,
      showSelection: focus.showSelection,
      showPair: focus.showPair,
      clearPair: () => collections.pair.clear(),
      clear: () => Object.values(collections).forEach((collection) => collection.clear()),
    };
    // Scrolling near the edge of a painted window paints the next one.
    const scrollSub = editor.onDidScrollChange(() => painted.repaintIfScrolledOut());
    const mouseSub = editor.onMouseMove((e) => {
      const { result } = useStore.getState();
      if (!result?.structure?.windowStarts) return;
      const position = e.target.position;
      const onText = position && e.target.type === monaco.editor.MouseTargetType.CONTENT_TEXT;
      focus.hover(onText ? chunkAtOffset(result.starts, result.ends, model.getOffsetAt(position)) : null);
    });
    const leaveSub = editor.onMouseLeave(() => focus.hover(null));
    return () => {
      for (const sub of [scrollSub, mouseSub, leaveSub]) sub.dispose();
    };
  }, [session]);
}

type Collection = monaco.editor.IEditorDecorationsCollection;
interface Collections {
  chunks: Collection;
  selection: Collection;
  /** Semantic: the parts an embedding model never reads. */
  truncated: Collection;
  /** Semantic: the sentence pair of a gap of the curve. */
  pair: Collection;
  /** Sentence windows: the window of the hovered (else the selected) sentence. */
  window: Collection;
}

/** The result's chunks (all, a window of lines around the viewport, or the summary band) and truncated ends. */
function chunkPaint(s: EditorSession, { chunks, truncated }: Collections) {
  const { editor, model } = s;
  /** The line window painted last (null: every chunk is painted). */
  let paintedLines: { first: number; last: number } | null = null;
  /** Sets the chunks' decorations; `loaded`: the model holds only the document's first `loaded` characters (a large
   * document still loading), so only chunks that end within them are drawn. Returns how many were drawn. */
  const paintChunks = (base: PaintableResult, loaded = Infinity): number => {
    const state = useStore.getState();
    // The LLM panel's run, when shown in the editor: the model's chunks replace the base ones (boundaries), or its
    // injected marks come after the chunks' own (contextual, propositions).
    const llm = selectLlmInEditor(state);
    const result = llm?.feature === 'boundaries' ? llmPaintable(base, llm.chunks) : base;
    const plan = paintPlan(model, result.starts, result.ends, () => visibleLines(editor.getVisibleRanges()));
    paintedLines = plan.lines;
    if (plan.summary) {
      if (loaded !== Infinity) return 0;
      chunks.set(summaryBandDecorations(model, plan.summary));
      return plan.summary.chunks;
    }
    const to = loadedEnd(result.ends, plan.from, plan.to, loaded);
    if (to === plan.from && loaded !== Infinity) return 0;
    const view = decorationViewFor(state.config.projector, state.injectedShown);
    const decorations = buildDecorations(model, result, plan.from, to, view);
    if (llm && to > plan.from) llmDecorations(model, llm, result.starts[plan.from]!, result.ends[to - 1]!, view, decorations);
    chunks.set(decorations);
    return to - plan.from;
  };
  /**
   * A large document's chunks on the lines already loaded, as soon as its result is here: the person sees them while
   * the rest loads (the pieces wait for the chunks, then take about 100 ms a MiB more). Timed as the paint it is;
   * the whole paint (and the store's `painted`, which starts the follow-up jobs) comes once the load is done.
   */
  const paintLoaded = (result: PaintableResult): boolean => {
    const loaded = model.getValueLength();
    const drawStart = performance.now();
    if (paintChunks(result, loaded) === 0) return false;
    measurePaint(result, drawStart);
    return true;
  };
  const paintTruncated = (result: PaintableResult) => {
    const tokens = selectEmbedderTokens(useStore.getState());
    truncated.set(tokens && s.inSync(result) ? truncatedDecorations(model, tokens.truncatedAt, result.ends) : []);
  };
  /** The chunks and truncated ends in one batch, then the lab's marks. */
  const paint = () => {
    const { result } = useStore.getState();
    if (!result) {
      chunks.clear();
      return;
    }
    if (s.loading || !s.inSync(result)) return; // typed since, or still loading
    const drawStart = performance.now();
    paintChunks(result);
    paintTruncated(result);
    measurePaint(result, drawStart);
    useStore.getState().setPainted(result.jobId);
    s.lab.paint(true);
  };
  const repaintIfScrolledOut = () => {
    if (!paintedLines) return;
    const { result } = useStore.getState();
    if (!result || !s.inSync(result)) return;
    const visible = editor.getVisibleRanges();
    if (!visible.length) return;
    const { first, last } = visibleLines(visible);
    if (needsRepaint(paintedLines, first!, last!, model.getLineCount())) paintChunks(result);
  };
  return { paint, paintLoaded, paintTruncated, repaintIfScrolledOut };
}

/**
 * The paint's measures, ending now: `chunkscope:paint` from the job's request (what the benches time), and
 * `chunkscope:draw` from `drawStart`, the main thread's share (decorations handed to Monaco) apart from the worker's
 * and the queue's.
 */
function measurePaint(result: PaintableResult, drawStart: number): void {
  const end = performance.now();
  performance.measure('chunkscope:draw', { start: drawStart, end, detail: { jobId: result.jobId } });
  performance.measure('chunkscope:paint', { start: result.requestedAt, end, detail: { jobId: result.jobId, chunks: result.starts.length } });
}

/** The selected chunk, the hovered sentence's window and the curve's sentence pair. */
function focusMarks(s: EditorSession, { selection, pair, window: windowDeco }: Collections) {
  const { editor, model } = s;
  let hoveredChunk: number | null = null;
  /** The window of the hovered sentence, else of the selected one (sentence-window results only). */
  const showWindow = () => {
    const { result, selectedIndex } = useStore.getState();
    windowDeco.set(result && s.inSync(result) ? windowDecorations(model, result, hoveredChunk ?? selectedIndex) : []);
  };
  const showSelection = (reveal: boolean) => {
    const { result, selectedIndex } = useStore.getState();
    const shown = result ? selectionView(model, result.starts, result.ends, selectedIndex) : null;
    if (shown) selection.set(shown.decorations);
    else selection.clear();
    showWindow();
    if (shown && reveal) {
      editor.revealRangeNearTopIfOutsideViewport(shown.reveal, monaco.editor.ScrollType.Smooth);
      editor.setPosition(shown.position);
    }
  };
  /** The two sentences on each side of a gap of the similarity curve. */
  const showPair = (gap: number | null, reveal: boolean) => {
    const { result } = useStore.getState();
    const shown = result?.semantic && s.inSync(result) ? pairView(model, result.semantic, gap) : null;
    if (!shown) {
      pair.clear();
      return;
    }
    pair.set(shown.decorations);
    if (reveal) {
      editor.revealRangeInCenterIfOutsideViewport(shown.reveal, monaco.editor.ScrollType.Smooth);
      editor.setPosition(shown.position);
    }
  };
  const hover = (chunk: number | null) => {
    if (chunk === hoveredChunk) return;
    hoveredChunk = chunk;
    showWindow();
  };
  return { showSelection, showPair, hover };
}

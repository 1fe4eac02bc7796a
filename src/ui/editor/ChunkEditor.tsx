import { useEffect, useRef, useState } from 'react';
import { breadcrumbText, chunkExtras, chunksAt, pagesLabel, selectEmbedderTokens, tokensFor } from '../../state/selectors';
import { useStore } from '../../state/store';
import { buildDecorations, chunkWindow } from './decorations';
import { languageForName, monaco } from './monaco';
import { readDroppedFile } from './files';
import { formatNumber } from '../panels/format';

/**
 * Above this size the editor neither soft-wraps nor highlights syntax: wrapping and tokenizing a 10 MiB document
 * cost seconds of main-thread work.
 */
const LARGE_DOCUMENT = 1_000_000;
/** Up to this many chunks every decoration is set at once; above it, a window of lines around the viewport. */
const PAINT_ALL_LIMIT = 500;
/** Lines painted above and below the viewport when painting a window. */
const WINDOW_MARGIN_LINES = 400;
/** A large document enters Monaco in pieces of about this many characters, one per task, so the page stays live. */
const LOAD_PIECE = 200_000;

/** End of the piece of `text` that starts at `from`: at a line break, so no \r\n or surrogate pair is cut. */
function pieceEnd(text: string, from: number): number {
  const limit = from + LOAD_PIECE;
  if (limit >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', limit);
  return nl > from ? nl + 1 : limit;
}

monaco.editor.defineTheme('chunkscope', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editorLineNumber.foreground': '#a3a9b6',
    'editorLineNumber.activeForeground': '#4b5263',
    'editor.lineHighlightBackground': '#00000000',
    'editor.lineHighlightBorder': '#00000000',
    'editor.selectionBackground': '#b3d4fc',
    'editorHoverWidget.background': '#ffffff',
    'editorHoverWidget.border': '#d9dde5',
  },
});

let hoverRegistered = false;
/** One hover provider for every language: chunk index, offsets, size in the unit and in tokens, overlaps. */
function registerChunkHover(): void {
  if (hoverRegistered) return;
  hoverRegistered = true;
  monaco.languages.registerHoverProvider('*', {
    provideHover(model, position) {
      const s = useStore.getState();
      const result = s.result;
      if (!result || model.getValueLength() !== result.text.length) return null;
      const offset = model.getOffsetAt(position);
      const found = chunksAt(result.starts, result.ends, offset);
      if (found.length === 0) return null;
      const tokens = tokensFor(result, s.tokens);
      const fmt = (n: number) => formatNumber(n);
      const contents = found.map((i) => {
        const start = result.starts[i]!;
        const end = result.ends[i]!;
        const unitName = result.unit === 'chars' ? 'chars' : result.unit === 'words' ? 'words' : `tokens (${result.unit})`;
        const size = [`${fmt(result.sizes[i]!)} ${unitName}`];
        if (result.unit !== 'chars') size.push(`${fmt(end - start)} chars`);
        if (tokens && tokens.encoding !== result.unit) size.push(`${fmt(tokens.counts[i]!)} tokens (${tokens.encoding})`);
        const overlap: string[] = [];
        if (i > 0) overlap.push(`${fmt(result.overlaps[i - 1]!)} chars with chunk ${i - 1}`);
        if (i < result.starts.length - 1) overlap.push(`${fmt(result.overlaps[i]!)} chars with chunk ${i + 1}`);
        const extras = result.structure ? chunkExtras(result, i) : null;
        if (extras && extras.prefixSize > 0) size[0] += ` (${fmt(extras.prefixSize)} injected)`;
        const lines = [
          `**Chunk ${i}** of ${fmt(result.starts.length)}${extras && extras.contentType !== 'text' ? ` · ${extras.contentType}` : ''}${result.oversize[i] ? ' — over the size limit' : ''}`,
        ];
        if (extras?.headingPath?.length) lines.push(`Section ${escapeMarkdown(breadcrumbText(extras.headingPath))}`);
        lines.push(`Offsets ${fmt(start)}–${fmt(end)}`, `Size ${size.join(' · ')}`, `Overlap ${overlap.length ? overlap.join(' · ') : 'none'}`);
        if (extras?.pages) lines.push(`Pages ${pagesLabel(extras.pages).slice(3)}`);
        const parents = result.structure?.parents;
        if (extras && parents && extras.parent >= 0) {
          const p = extras.parent;
          lines.push(`Parent P${p} (level ${parents.levels[p]}) · offsets ${fmt(parents.starts[p]!)}–${fmt(parents.ends[p]!)} · ${fmt(parents.sizes[p]!)} ${unitName}`);
        }
        if (extras?.window) lines.push(`Window ${fmt(extras.window.start)}–${fmt(extras.window.end)} (${fmt(extras.window.end - extras.window.start)} chars)`);
        const sem = result.semantic;
        const embedderTokens = selectEmbedderTokens(s);
        if (sem && embedderTokens) {
          const model = sem.embedder.label.split(' (')[0];
          const max = sem.embedder.maxTokens;
          const over = embedderTokens.truncatedAt[i]! >= 0;
          lines.push(
            `Embedder ${fmt(embedderTokens.counts[i]!)} tokens (${model})${Number.isFinite(max) ? ` of ${fmt(max)}` : ''}${over ? ' — **truncated**: the model never reads the shaded end' : ''}`,
          );
        }
        return { value: lines.join('  \n'), isTrusted: false, supportHtml: false };
      });
      const first = found[0]!;
      const a = model.getPositionAt(result.starts[first]!);
      const b = model.getPositionAt(result.ends[found[found.length - 1]!]!);
      return { range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), contents };
    },
  });
}

/** Heading titles are document text: shown literally in the (markdown) hover. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

/**
 * Monaco adds two hidden live regions with role="alert" to <body> for its screen-reader announcements. The page
 * keeps role="alert" for one thing only, the invalid-settings message, so Monaco's regions become assertive live
 * regions: announced the same way, without posing as a page alert.
 */
function demoteMonacoAlerts(): void {
  for (const el of document.querySelectorAll('.monaco-aria-container [role="alert"]')) {
    el.removeAttribute('role');
    el.setAttribute('aria-live', 'assertive');
  }
}

export function ChunkEditor() {
  const host = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    registerChunkHover();
    const hostElement = host.current!;
    const s0 = useStore.getState();
    const languageFor = (length: number, name: string | null) => (length > LARGE_DOCUMENT ? 'plaintext' : languageForName(name));
    const model = monaco.editor.createModel(s0.text.length > LARGE_DOCUMENT ? '' : s0.text, languageFor(s0.text.length, s0.docName));
    // Bracket-pair colouring is a model option (Monaco's model service resets it from its defaults when the
    // editor is created and when the language changes), and its parser walks the whole document on render.
    const noBracketColours = () =>
      model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
    const editor = monaco.editor.create(host.current!, {
      model,
      theme: 'chunkscope',
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: s0.text.length > LARGE_DOCUMENT ? 'off' : 'on',
      fontSize: 13,
      lineHeight: 21,
      fontFamily: "'JetBrains Mono', 'SFMono-Regular', ui-monospace, Menlo, Consolas, monospace",
      scrollBeyondLastLine: false,
      glyphMargin: false,
      folding: false,
      lineNumbersMinChars: 4,
      lineDecorationsWidth: 10,
      padding: { top: 12, bottom: 12 },
      renderLineHighlight: 'none',
      occurrencesHighlight: 'off',
      selectionHighlight: false,
      unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false },
      hover: { delay: 250, sticky: true },
      ariaLabel: 'Document text',
      // Tab moves focus out of the editor (keyboard users reach the list and controls); documents are pasted or
      // opened more than typed.
      tabFocusMode: true,
      scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
      overviewRulerBorder: false,
      overviewRulerLanes: 0,
      hideCursorInOverviewRuler: true,
      stickyScroll: { enabled: false },
      // Bracket-pair colouring parses the whole document on render (most of a second at 10 MiB); chunk tints are
      // the colour that matters here. Bracket matching uses the same parser.
      bracketPairColorization: { enabled: false },
      matchBrackets: 'never',
      guides: { bracketPairs: false, indentation: s0.text.length <= LARGE_DOCUMENT },
    });
    noBracketColours();
    demoteMonacoAlerts();
    const chunks = editor.createDecorationsCollection();
    const selection = editor.createDecorationsCollection();
    /** Semantic: the parts an embedding model never reads, and the sentence pair hovered in the curve. */
    const truncated = editor.createDecorationsCollection();
    const pair = editor.createDecorationsCollection();
    /** Sentence windows: the window of the hovered (else the selected) sentence. */
    const windowDeco = editor.createDecorationsCollection();
    let hoveredChunk: number | null = null;
    let applyingExternal = false;
    /** True while a large document is being loaded piece by piece. */
    let loading = false;
    let loadToken = 0;

    /** Wrapping and highlighting follow the document's size; set before the text arrives, not after. */
    const prepareFor = (length: number, name: string | null) => {
      const wrap = length > LARGE_DOCUMENT ? 'off' : 'on';
      if (editor.getOption(monaco.editor.EditorOption.wordWrap) !== wrap) {
        editor.updateOptions({ wordWrap: wrap, guides: { bracketPairs: false, indentation: wrap === 'on' } });
      }
      const language = languageFor(length, name);
      if (model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
      if (model.getOptions().bracketPairColorizationOptions.enabled) noBracketColours();
    };
    // A big paste: switch to the cheap view before Monaco inserts the text (capture runs before its handler).
    // Monaco's own paste of megabytes is an undoable edit that costs seconds; a big paste instead replaces the
    // selection by building the new text once and setting it as the document.
    const onPasteCapture = (event: ClipboardEvent) => {
      const pasted = event.clipboardData?.getData('text/plain') ?? '';
      if (pasted.length <= LARGE_DOCUMENT) return;
      event.preventDefault();
      event.stopPropagation();
      const selection = editor.getSelection();
      const before = selection ? model.getOffsetAt(selection.getStartPosition()) : 0;
      const after = selection ? model.getOffsetAt(selection.getEndPosition()) : model.getValueLength();
      const current = useStore.getState().text;
      const next = before === 0 && after >= current.length ? pasted : current.slice(0, before) + pasted + current.slice(after);
      useStore.getState().setDocument(next, { name: null });
    };
    hostElement.addEventListener('paste', onPasteCapture, true);

    /** The line window painted last (null: every chunk is painted). */
    let paintedLines: { first: number; last: number } | null = null;

    const paintChunks = (result: NonNullable<ReturnType<typeof useStore.getState>['result']>) => {
      const n = result.starts.length;
      if (n <= PAINT_ALL_LIMIT) {
        paintedLines = null;
        chunks.set(buildDecorations(model, result));
        return;
      }
      // Many chunks: decorate only those near the viewport, so the cost does not grow with the document.
      const visible = editor.getVisibleRanges();
      const lineCount = model.getLineCount();
      const firstVisible = visible[0]?.startLineNumber ?? 1;
      const lastVisible = visible[visible.length - 1]?.endLineNumber ?? Math.min(lineCount, 60);
      const first = Math.max(1, firstVisible - WINDOW_MARGIN_LINES);
      const last = Math.min(lineCount, lastVisible + WINDOW_MARGIN_LINES);
      const fromOffset = model.getOffsetAt({ lineNumber: first, column: 1 });
      const toOffset = model.getOffsetAt({ lineNumber: last, column: model.getLineMaxColumn(last) });
      const window = chunkWindow(result.starts, result.ends, fromOffset, toOffset + 1);
      paintedLines = { first, last };
      chunks.set(buildDecorations(model, result, window.from, window.to));
    };

    const paint = () => {
      const { result } = useStore.getState();
      if (!result) {
        chunks.clear();
        return;
      }
      if (loading || model.getValueLength() !== result.text.length) return; // typed since, or still loading
      const drawStart = performance.now();
      paintChunks(result);
      paintTruncated(result);
      const end = performance.now();
      // The main thread's share (decorations handed to Monaco), apart from the worker's and the queue's.
      performance.measure('chunkscope:draw', { start: drawStart, end, detail: { jobId: result.jobId } });
      performance.measure('chunkscope:paint', {
        start: result.requestedAt,
        end,
        detail: { jobId: result.jobId, chunks: result.starts.length },
      });
      useStore.getState().setPainted(result.jobId);
    };

    // Scrolling near the edge of a painted window paints the next one.
    const scrollSub = editor.onDidScrollChange(() => {
      if (!paintedLines) return;
      const { result } = useStore.getState();
      if (!result || model.getValueLength() !== result.text.length) return;
      const visible = editor.getVisibleRanges();
      if (!visible.length) return;
      const firstVisible = visible[0]!.startLineNumber;
      const lastVisible = visible[visible.length - 1]!.endLineNumber;
      const slack = WINDOW_MARGIN_LINES / 2;
      const nearTop = paintedLines.first > 1 && firstVisible - slack < paintedLines.first;
      const nearBottom = paintedLines.last < model.getLineCount() && lastVisible + slack > paintedLines.last;
      if (nearTop || nearBottom) paintChunks(result);
    });

    const rangeOf = (start: number, end: number) => {
      const a = model.getPositionAt(start);
      const b = model.getPositionAt(end);
      return new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
    };
    const paintTruncated = (result: NonNullable<ReturnType<typeof useStore.getState>['result']>) => {
      const tokens = selectEmbedderTokens(useStore.getState());
      if (!tokens || model.getValueLength() !== result.text.length) {
        truncated.clear();
        return;
      }
      const out: monaco.editor.IModelDeltaDecoration[] = [];
      for (let i = 0; i < tokens.truncatedAt.length; i++) {
        const at = tokens.truncatedAt[i]!;
        if (at >= 0 && at < result.ends[i]!) {
          out.push({ range: rangeOf(at, result.ends[i]!), options: { className: 'cs-truncated', stickiness: 1 } });
        }
      }
      truncated.set(out);
    };
    /** The two sentences on each side of a gap of the similarity curve. */
    const showPair = (gap: number | null, reveal: boolean) => {
      const { result } = useStore.getState();
      const sem = result?.semantic;
      if (!result || !sem || gap === null || gap + 1 >= sem.sentenceStarts.length || model.getValueLength() !== result.text.length) {
        pair.clear();
        return;
      }
      const first = rangeOf(sem.sentenceStarts[gap]!, sem.sentenceEnds[gap]!);
      const second = rangeOf(sem.sentenceStarts[gap + 1]!, sem.sentenceEnds[gap + 1]!);
      pair.set([
        { range: first, options: { className: 'cs-pair-before', stickiness: 1 } },
        { range: second, options: { className: 'cs-pair-after', stickiness: 1 } },
      ]);
      if (reveal) {
        editor.revealRangeInCenterIfOutsideViewport(first.plusRange(second), monaco.editor.ScrollType.Smooth);
        editor.setPosition(second.getStartPosition());
      }
    };

    /** The window of the hovered sentence, else of the selected one (sentence-window results only). */
    const showWindow = () => {
      const { result, selectedIndex } = useStore.getState();
      const windows = result?.structure?.windowStarts;
      const i = hoveredChunk ?? selectedIndex;
      if (!result || !windows || i === null || i >= result.starts.length || windows[i]! < 0 || model.getValueLength() !== result.text.length) {
        windowDeco.clear();
        return;
      }
      windowDeco.set([{ range: rangeOf(windows[i]!, result.structure!.windowEnds![i]!), options: { className: 'cs-window', stickiness: 1 } }]);
    };
    const mouseSub = editor.onMouseMove((e) => {
      const { result } = useStore.getState();
      if (!result?.structure?.windowStarts) return;
      const position = e.target.position;
      const found = position && e.target.type === monaco.editor.MouseTargetType.CONTENT_TEXT ? chunksAt(result.starts, result.ends, model.getOffsetAt(position)) : [];
      const next = found.length ? found[found.length - 1]! : null;
      if (next !== hoveredChunk) {
        hoveredChunk = next;
        showWindow();
      }
    });
    const leaveSub = editor.onMouseLeave(() => {
      if (hoveredChunk === null) return;
      hoveredChunk = null;
      showWindow();
    });

    const showSelection = (reveal: boolean) => {
      const { result, selectedIndex } = useStore.getState();
      if (!result || selectedIndex === null || selectedIndex >= result.starts.length) {
        selection.clear();
        showWindow();
        return;
      }
      const a = model.getPositionAt(result.starts[selectedIndex]!);
      const b = model.getPositionAt(result.ends[selectedIndex]!);
      const range = new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
      selection.set([{ range, options: { className: 'cs-chunk-selected', isWholeLine: false } }]);
      showWindow();
      if (reveal) {
        editor.revealRangeNearTopIfOutsideViewport(range, monaco.editor.ScrollType.Smooth);
        editor.setPosition(a);
      }
    };

    /** Called once Monaco holds the whole text. Monaco normalizes mixed line endings: then the store follows it. */
    const afterLoad = (text: string) => {
      if (model.getValueLength() !== text.length) {
        useStore.getState().setDocument(model.getValue(), { origin: 'editor' });
        useStore.getState().setNotice('Mixed line endings were normalized; chunks refer to the text as the editor shows it.');
        return;
      }
      paint();
      showSelection(false);
    };

    /**
     * Put a document into Monaco. Up to LARGE_DOCUMENT characters in one go; above that the first piece replaces
     * the text and the rest is appended one piece per task (Monaco's cost grows with the number of lines, and a
     * 10 MiB text in one call blocks the page for seconds). The editor is read-only meanwhile; a newer document
     * cancels the load.
     */
    const loadText = (text: string, name: string | null) => {
      const token = ++loadToken;
      prepareFor(text.length, name);
      chunks.clear();
      selection.clear();
      truncated.clear();
      pair.clear();
      windowDeco.clear();
      if (text.length <= LARGE_DOCUMENT) {
        if (loading) useStore.getState().setLoadProgress(null);
        loading = false;
        editor.updateOptions({ readOnly: false });
        applyingExternal = true;
        const t0 = performance.now();
        model.setValue(text);
        performance.measure('chunkscope:set-text', { start: t0, detail: { chars: text.length } });
        applyingExternal = false;
        afterLoad(text);
        return;
      }
      loading = true;
      useStore.getState().setLoadProgress(0);
      editor.updateOptions({ readOnly: true });
      const t0 = performance.now();
      let at = pieceEnd(text, 0);
      applyingExternal = true;
      model.setValue(text.slice(0, at));
      applyingExternal = false;
      const step = () => {
        if (token !== loadToken || model.isDisposed()) return;
        const next = pieceEnd(text, at);
        const end = model.getFullModelRange().getEndPosition();
        applyingExternal = true;
        model.applyEdits([{ range: monaco.Range.fromPositions(end, end), text: text.slice(at, next) }]);
        applyingExternal = false;
        at = next;
        if (at < text.length) {
          useStore.getState().setLoadProgress(at / text.length);
          setTimeout(step, 0);
          return;
        }
        useStore.getState().setLoadProgress(null);
        loading = false;
        editor.updateOptions({ readOnly: false });
        performance.measure('chunkscope:set-text', { start: t0, detail: { chars: text.length } });
        afterLoad(text);
      };
      setTimeout(step, 0);
    };

    const unsubscribe = useStore.subscribe((s, prev) => {
      if (s.docVersion !== prev.docVersion && s.docOrigin === 'external') loadText(s.text, s.docName);
      if (s.result !== prev.result) {
        paint();
        showSelection(false);
      }
      if (s.selectedIndex !== prev.selectedIndex) showSelection(s.selectionSource === 'list');
      if (s.hoveredGap !== prev.hoveredGap) showPair(s.hoveredGap, false);
      if (s.embedderTokens !== prev.embedderTokens && s.result && !loading) paintTruncated(s.result);
      if (s.revealGap !== prev.revealGap && s.revealGap) showPair(s.revealGap.gap, true);
      if (s.result !== prev.result && !s.result?.semantic) pair.clear();
    });

    const contentSub = model.onDidChangeContent(() => {
      if (applyingExternal) return;
      const text = model.getValue();
      prepareFor(text.length, useStore.getState().docName);
      useStore.getState().setDocument(text, { origin: 'editor' });
    });
    const cursorSub = editor.onDidChangeCursorPosition((e) => {
      if (e.source === 'api' || e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
      const { result, select, selectedIndex } = useStore.getState();
      if (!result) return;
      const found = chunksAt(result.starts, result.ends, model.getOffsetAt(e.position));
      const index = found.length ? found[found.length - 1]! : null;
      if (index !== selectedIndex) select(index, 'editor');
    });

    if (s0.text.length > LARGE_DOCUMENT) loadText(s0.text, s0.docName);
    else paint();
    return () => {
      loadToken++;
      unsubscribe();
      hostElement.removeEventListener('paste', onPasteCapture, true);
      contentSub.dispose();
      cursorSub.dispose();
      scrollSub.dispose();
      mouseSub.dispose();
      leaveSub.dispose();
      editor.dispose();
      model.dispose();
    };
  }, []);

  const onDrop = async (event: React.DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) await readDroppedFile(file);
  };

  return (
    <div
      className={`editor-host${dragging ? ' is-dragging' : ''}`}
      data-testid="editor"
      onDragOverCapture={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDropCapture={onDrop}
    >
      <div ref={host} className="editor-monaco" />
      {dragging && <div className="drop-hint">Drop a text, markdown, HTML or source file</div>}
    </div>
  );
}

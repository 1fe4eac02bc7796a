import { useEffect, useRef, useState } from 'react';
import { selectEmbedderTokens, selectViewOnly } from '../../state/selectors';
import type { PaintableResult } from '../../state/resultsSlice';
import { useStore } from '../../state/store';
import { buildDecorations, decorationViewFor, offsetRange, pairView, selectionView, summaryBandDecorations, truncatedDecorations, windowDecorations } from './decorations';
import './summaryBand.css';
import {
  chunkAtOffset,
  chunkHover,
  documentAfterPaste,
  documentView,
  editorOptions,
  editorSteps,
  FIRST_LOAD_PIECE,
  isLargePaste,
  LARGE_DOCUMENT,
  loadMayStart,
  loadWaitMs,
  MIN_APPEND_PIECE,
  needsRepaint,
  nextPieceSize,
  paintPlan,
  pieceEnd,
  replacesWholeDocument,
  visibleLines,
} from './editorModel';
import { monaco } from './monaco';
import { readDroppedFile } from './files';
import { labMarks, type LabMark } from '../../state/labMarks';
import { labDecorations } from './labDecorations';
import { warmUpTextModelWhenIdle } from './warmUpTextModel';
import { Notice } from '../Notice';
import { LargeDocumentView } from './LargeDocumentView';

/** The editor's type size: projector mode reads from the back of a room. */
function editorType(projector: boolean): { fontSize: number; lineHeight: number } {
  return projector ? { fontSize: 17, lineHeight: 27 } : { fontSize: 13, lineHeight: 21 };
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

/** How often the header's loading percentage moves while a large document enters Monaco. */
const LOAD_PROGRESS_MS = 150;

let hoverRegistered = false;
/** One hover provider for every language: chunk index, offsets, size in the unit and in tokens, overlaps (chunkHover). */
function registerChunkHover(): void {
  if (hoverRegistered) return;
  hoverRegistered = true;
  monaco.languages.registerHoverProvider('*', {
    provideHover(model, position) {
      const s = useStore.getState();
      const result = s.result;
      if (!result || model.getValueLength() !== result.text.length) return null;
      const hover = chunkHover(result, s.tokens, selectEmbedderTokens(s), model.getOffsetAt(position));
      if (!hover) return null;
      return {
        range: offsetRange(model, hover.start, hover.end),
        contents: hover.contents.map((value) => ({ value, isTrusted: false, supportHtml: false })),
      };
    },
  });
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

function sameMarks(a: readonly LabMark[], b: readonly LabMark[]): boolean {
  return a.length === b.length && a.every((m, i) => m.start === b[i]!.start && m.end === b[i]!.end && m.kind === b[i]!.kind && m.badge === b[i]!.badge);
}

export function ChunkEditor() {
  const host = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const viewOnly = useStore(selectViewOnly);

  useEffect(() => {
    registerChunkHover();
    const hostElement = host.current!;
    const s0 = useStore.getState();
    const model = monaco.editor.createModel(s0.text.length > LARGE_DOCUMENT ? '' : s0.text, documentView(s0.text.length, s0.docName).language);
    // Bracket-pair colouring is a model option (Monaco's model service resets it from its defaults when the
    // editor is created and when the language changes), and its parser walks the whole document on render.
    const noBracketColours = () =>
      model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
    const editor = monaco.editor.create(hostElement, { model, ...editorOptions(s0.text.length), ...editorType(s0.config.projector) });
    noBracketColours();
    demoteMonacoAlerts();
    const stopWarmUp = warmUpTextModelWhenIdle();
    const chunks = editor.createDecorationsCollection();
    const selection = editor.createDecorationsCollection();
    /** Semantic: the parts an embedding model never reads, and the sentence pair hovered in the curve. */
    const truncated = editor.createDecorationsCollection();
    const pair = editor.createDecorationsCollection();
    /** Sentence windows: the window of the hovered (else the selected) sentence. */
    const windowDeco = editor.createDecorationsCollection();
    /** The evaluation lab's marks: probe hits, answer spans and retrieved chunks, A/B boundaries. */
    const labDeco = editor.createDecorationsCollection();
    let labShown: LabMark[] = [];
    let measuredProbe: unknown = null;
    let revealedFor = '';
    let hoveredChunk: number | null = null;
    let applyingExternal = false;
    /** True while a large document is being loaded piece by piece. */
    let loading = false;
    let loadToken = 0;
    /** The line window painted last (null: every chunk is painted). */
    let paintedLines: { first: number; last: number } | null = null;
    /** The result's offsets refer to the text Monaco holds (nothing typed since, the load finished). */
    const inSync = (result: PaintableResult) => model.getValueLength() === result.text.length;

    /** Wrapping and highlighting follow the document's size; set before the text arrives, not after (each change of
     * wrapping makes Monaco measure the page and lay the text out again). */
    const prepareFor = (length: number, name: string | null) => {
      const view = documentView(length, name);
      const options: monaco.editor.IEditorOptions = {};
      if (editor.getOption(monaco.editor.EditorOption.wordWrap) !== view.wordWrap) {
        Object.assign(options, { wordWrap: view.wordWrap, guides: { bracketPairs: false, indentation: view.indentationGuides } });
      }
      if (Object.keys(options).length > 0) editor.updateOptions(options);
      if (model.getLanguageId() !== view.language) monaco.editor.setModelLanguage(model, view.language);
      if (model.getOptions().bracketPairColorizationOptions.enabled) noBracketColours();
    };
    // A big paste: switch to the cheap view before Monaco inserts the text (capture runs before its handler).
    // Monaco's own paste of megabytes is an undoable edit that costs seconds; a big paste instead replaces the
    // selection by building the new text once and setting it as the document.
    // A paste over the whole text (or into an empty editor) is a document of its own: no name (not the sample's),
    // plain-text colouring, the person's own strategy, the previous document's notices gone.
    let pasteIsNewDocument = false;
    const onPasteCapture = (event: ClipboardEvent) => {
      const pasted = event.clipboardData?.getData('text/plain') ?? '';
      const range = editor.getSelection();
      const before = range ? model.getOffsetAt(range.getStartPosition()) : 0;
      const after = range ? model.getOffsetAt(range.getEndPosition()) : model.getValueLength();
      const whole = replacesWholeDocument(model.getValue(), before, after);
      if (!isLargePaste(pasted)) {
        pasteIsNewDocument = whole;
        // Monaco applies the paste in this same event; the flag must not outlive it.
        setTimeout(() => (pasteIsNewDocument = false), 0);
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      // The new document in a task after the paste's: there, reading the clipboard, handing the text to the worker
      // and React's render (flushed before a discrete event's task ends) together made one long task now and then.
      const textPastedInto = useStore.getState().text; // the text `before` and `after` are offsets into
      setTimeout(() => {
        const state = useStore.getState();
        state.setDocument(documentAfterPaste(textPastedInto, pasted, before, after), whole ? { name: null } : {});
        if (whole) state.followDocumentKind(null);
      }, 0);
    };
    hostElement.addEventListener('paste', onPasteCapture, true);

    const paintChunks = (result: PaintableResult) => {
      const plan = paintPlan(model, result.starts, result.ends, () => visibleLines(editor.getVisibleRanges()));
      paintedLines = plan.lines;
      const { config, injectedShown } = useStore.getState();
      if (plan.summary) chunks.set(summaryBandDecorations(model, plan.summary));
      else chunks.set(buildDecorations(model, result, plan.from, plan.to, decorationViewFor(config.projector, injectedShown)));
    };
    const paintTruncated = (result: PaintableResult) => {
      const tokens = selectEmbedderTokens(useStore.getState());
      truncated.set(tokens && inSync(result) ? truncatedDecorations(model, tokens.truncatedAt, result.ends) : []);
    };
    const paint = () => {
      const { result } = useStore.getState();
      if (!result) {
        chunks.clear();
        return;
      }
      if (loading || !inSync(result)) return; // typed since, or still loading
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
      paintLab(true);
    };

    /** Lab marks, when they changed (or `force`: the chunks were repainted). The first mark of a newly shown set is
     * revealed (a clicked question, a probe's best hit). */
    const paintLab = (force = false) => {
      const s = useStore.getState();
      const marks = s.result && !loading && inSync(s.result) ? labMarks(s) : [];
      if (force || !sameMarks(marks, labShown)) drawLab(marks);
      // The probe's input-to-paint (a slider move or a keystroke to its ranking on screen), once per ranking; a
      // ranking equal to the one drawn is on screen as soon as it arrives.
      if (s.labTab === 'probe' && s.probe && s.probe !== measuredProbe && s.probe.jobId === s.result?.jobId && marks.length > 0) {
        measuredProbe = s.probe;
        performance.measure('chunkscope:probe-paint', { start: s.probe.requestedAt, end: performance.now(), detail: { jobId: s.probe.jobId, hits: s.probe.hits.length } });
      }
    };
    /** Marks are revealed once per question (a new probe query, a clicked golden question), not on slider moves. */
    const drawLab = (marks: LabMark[]) => {
      const s = useStore.getState();
      const focus = s.labTab === 'probe' ? `probe\u0000${s.probe?.query ?? ''}` : s.labTab === 'golden' ? `golden\u0000${s.activeQuestion ?? ''}` : '';
      const reveal = focus !== '' && focus !== revealedFor && marks.some((m) => m.kind === 'hit' || m.kind === 'answer');
      if (reveal) revealedFor = focus;
      labShown = marks;
      labDeco.set(labDecorations(model, marks));

      if (reveal) {
        const first = marks.find((m) => m.kind === 'answer') ?? marks[0]!;
        editor.revealRangeInCenterIfOutsideViewport(offsetRange(model, first.start, first.end), monaco.editor.ScrollType.Smooth);
      }
    };

    // Scrolling near the edge of a painted window paints the next one.
    const scrollSub = editor.onDidScrollChange(() => {
      if (!paintedLines) return;
      const { result } = useStore.getState();
      if (!result || !inSync(result)) return;
      const visible = editor.getVisibleRanges();
      if (!visible.length) return;
      const { first, last } = visibleLines(visible);
      if (needsRepaint(paintedLines, first!, last!, model.getLineCount())) paintChunks(result);
    });

    /** The two sentences on each side of a gap of the similarity curve. */
    const showPair = (gap: number | null, reveal: boolean) => {
      const { result } = useStore.getState();
      const shown = result?.semantic && inSync(result) ? pairView(model, result.semantic, gap) : null;
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

    /** The window of the hovered sentence, else of the selected one (sentence-window results only). */
    const showWindow = () => {
      const { result, selectedIndex } = useStore.getState();
      windowDeco.set(result && inSync(result) ? windowDecorations(model, result, hoveredChunk ?? selectedIndex) : []);
    };
    const mouseSub = editor.onMouseMove((e) => {
      const { result } = useStore.getState();
      if (!result?.structure?.windowStarts) return;
      const position = e.target.position;
      const onText = position && e.target.type === monaco.editor.MouseTargetType.CONTENT_TEXT;
      const next = onText ? chunkAtOffset(result.starts, result.ends, model.getOffsetAt(position)) : null;
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
      const shown = result ? selectionView(model, result.starts, result.ends, selectedIndex) : null;
      if (shown) selection.set(shown.decorations);
      else selection.clear();
      showWindow();
      if (shown && reveal) {
        editor.revealRangeNearTopIfOutsideViewport(shown.reveal, monaco.editor.ScrollType.Smooth);
        editor.setPosition(shown.position);
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
     * Put a document into Monaco. Up to LARGE_DOCUMENT characters in one go; above that a first piece replaces the
     * text and the rest is appended one piece per task (Monaco's cost grows with the number of lines, and a 10 MiB
     * text in one call blocks the page for seconds), each piece sized to take about LOAD_SLICE_MS (a fixed size was
     * a long task whenever the machine was busy). The editor is read-only meanwhile; a newer document cancels the load.
     */
    const clearMarks = () => {
      for (const collection of [chunks, selection, truncated, pair, windowDeco, labDeco]) collection.clear();
      labShown = [];
    };
    /** Calls `then` once `loadMayStart` (a store change or the wait's end); a newer load only ends the wait (its
     * step returns at once). */
    const waitForChunks = (text: string, since: number, then: () => void) => {
      const token = loadToken;
      const errorBefore = useStore.getState().error;
      const ready = () => loadMayStart(useStore.getState(), text, errorBefore, performance.now() - since);
      if (ready()) return then();
      const finish = () => {
        unsubscribeWait();
        clearTimeout(timer);
        then();
      };
      const unsubscribeWait = useStore.subscribe(() => {
        if (ready() || token !== loadToken) finish();
      });
      const timer = setTimeout(finish, Math.max(0, loadWaitMs(text.length) - (performance.now() - since)));
    };
    /** A document over VIEW_ONLY_DOCUMENT: the read-only view shows it, and nothing goes into Monaco unless the person
     * asks to edit. Monaco is hidden (it cannot take focus; its changes are ignored meanwhile, see contentSub) and
     * keeps its options: turning it read-only was a 55 ms task beside the worker. It lets go of the previous text, in
     * a task of its own, only when that was a large one (a small one costs nothing to keep). */
    const showViewOnly = () => {
      const token = ++loadToken;
      if (loading) useStore.getState().setLoadProgress(null);
      loading = false;
      if (model.getValueLength() <= LARGE_DOCUMENT) return;
      setTimeout(() => {
        if (token !== loadToken || model.isDisposed()) return;
        applyingExternal = true;
        model.setValue('');
        applyingExternal = false;
        clearMarks();
      }, 0);
    };
    const loadText = (text: string, name: string | null) => {
      const state = useStore.getState();
      if (selectViewOnly(state) && state.text === text) return showViewOnly();
      const token = ++loadToken;
      if (text.length <= LARGE_DOCUMENT) {
        clearMarks();
        prepareFor(text.length, name);
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
      // Monaco's work starts in a task of its own, after the one that changed the document (a paste also reads the
      // clipboard and starts handing the text to the worker): until then the previous text stays as it was drawn
      // (`loading` keeps results off it). Then one task empties the editor (marks and selection too), the next
      // changes its options; once the worker has chunked the text (or after loadWaitMs) the next sets
      // the first piece, and each later one appends a piece.
      loading = true;
      useStore.getState().setLoadProgress(0);
      const t0 = performance.now();
      let at = 0;
      let piece = FIRST_LOAD_PIECE;
      let progressAt = 0;
      let prepared: 'no' | 'emptied' | 'yes' = 'no';
      const step = () => {
        if (token !== loadToken || model.isDisposed()) return;
        // First, in a task of its own, the previous text and its marks and selection go (a selection over it, select
        // all then paste, would have had Monaco measure every selected line). Then, in the next task, the options
        // change (new options make Monaco measure the page and lay its text out again: for the previous text that was
        // a 40-50 ms frame). The two took 30-60 ms together beside the worker; the editor is blank until the first piece.
        if (prepared === 'no') {
          prepared = 'emptied';
          applyingExternal = true;
          model.setValue('');
          applyingExternal = false;
          clearMarks();
          editor.setSelection(new monaco.Selection(1, 1, 1, 1));
          // Read-only from here (alone this option is cheap): a key pressed before the next task must not type.
          editor.updateOptions({ readOnly: true });
          setTimeout(step, 0);
          return;
        }
        if (prepared === 'emptied') {
          prepared = 'yes';
          prepareFor(text.length, name);
          // The pieces wait for the worker to chunk the text (loadWaitMs at most): side by side, both lost.
          waitForChunks(text, t0, () => setTimeout(step, 0));
          return;
        }
        const started = performance.now();
        const next = pieceEnd(text, at, piece, at === 0 ? 0 : MIN_APPEND_PIECE);
        applyingExternal = true;
        if (at === 0) {
          model.setValue(text.slice(0, next));
        } else {
          const end = model.getFullModelRange().getEndPosition();
          model.applyEdits([{ range: monaco.Range.fromPositions(end, end), text: text.slice(at, next) }]);
        }
        applyingExternal = false;
        const chars = next - at;
        // Each piece's time, for the browser bench (a piece over 50 ms is a long task).
        performance.measure('chunkscope:load-piece', { start: started, detail: { chars } });
        at = next;
        if (at < text.length) {
          // The header's percentage a few times a second: each update re-renders it.
          if (started - progressAt > LOAD_PROGRESS_MS) {
            progressAt = started;
            useStore.getState().setLoadProgress(at / text.length);
          }
          piece = nextPieceSize(chars, performance.now() - started);
          setTimeout(step, 0);
          return;
        }
        // The paint in a task of its own: after the last piece, the two together were a long task.
        setTimeout(finish, 0);
      };
      const finish = () => {
        if (token !== loadToken || model.isDisposed()) return;
        useStore.getState().setLoadProgress(null);
        loading = false;
        editor.updateOptions({ readOnly: false });
        performance.measure('chunkscope:set-text', { start: t0, detail: { chars: text.length } });
        afterLoad(text);
      };
      setTimeout(step, 0);
    };

    // What to do is decided by editorSteps (pure); here it is only done.
    const unsubscribe = useStore.subscribe((s, prev) => {
      if (
        s.probe !== prev.probe ||
        s.labTab !== prev.labTab ||
        s.labOpen !== prev.labOpen ||
        s.activeQuestion !== prev.activeQuestion ||
        s.run !== prev.run ||
        s.comparison !== prev.comparison ||
        s.golden !== prev.golden
      )
        paintLab();
      // Projector mode: larger type, fewer marks (breadcrumbs where the section changes, injected text collapsed).
      if (s.config.projector !== prev.config.projector) editor.updateOptions(editorType(s.config.projector));
      if (s.config.projector !== prev.config.projector || s.injectedShown !== prev.injectedShown) paint();
      // "Edit in the editor": the document shown read-only goes into Monaco.
      const viewOnly = selectViewOnly(s);
      if (!viewOnly && selectViewOnly(prev) && s.text === prev.text) {
        loadText(s.text, s.docName);
        editor.focus();
      }
      for (const step of editorSteps(s, prev)) {
        if (step.kind === 'load') loadText(step.text, step.name);
        else if (viewOnly) continue; // Monaco is hidden and holds none of this document: the view draws it
        else if (step.kind === 'paint') {
          paint();
          showSelection(false);
        } else if (step.kind === 'selection') showSelection(step.reveal);
        else if (step.kind === 'pair') showPair(step.gap, step.reveal);
        else if (step.kind === 'truncated') {
          if (!loading) paintTruncated(s.result!); // `loading` as it is now: a load step just before may have started one
        } else pair.clear();
      }
    });

    const contentSub = model.onDidChangeContent(() => {
      // A key that reached the hidden editor before the read-only view took the focus must not replace the document.
      if (applyingExternal || selectViewOnly(useStore.getState())) return;
      const text = model.getValue();
      const state = useStore.getState();
      // Emptied by hand, the document is no longer the file or sample it was.
      const newDocument = pasteIsNewDocument || (text.trim() === '' && state.docName !== null);
      pasteIsNewDocument = false;
      prepareFor(text.length, newDocument ? null : state.docName);
      if (!newDocument) {
        state.setDocument(text, { origin: 'editor' });
        return;
      }
      state.setDocument(text, { origin: 'editor', name: null, newDocument: true });
      state.followDocumentKind(null);
    });
    // The selection, for the lab's "Mark as answer" (offsets into the text the store holds).
    const selectionSub = editor.onDidChangeCursorSelection((e) => {
      const a = model.getOffsetAt(e.selection.getStartPosition());
      const b = model.getOffsetAt(e.selection.getEndPosition());
      const next = b > a ? { start: a, end: b } : null;
      const current = useStore.getState().editorSelection;
      if (next?.start !== current?.start || next?.end !== current?.end) useStore.getState().setEditorSelection(next);
    });
    const cursorSub = editor.onDidChangeCursorPosition((e) => {
      if (e.source === 'api' || e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
      const { result, select, selectedIndex } = useStore.getState();
      if (!result) return;
      const index = chunkAtOffset(result.starts, result.ends, model.getOffsetAt(e.position));
      if (index !== selectedIndex) select(index, 'editor');
    });

    if (s0.text.length > LARGE_DOCUMENT) loadText(s0.text, s0.docName);
    else paint();
    return () => {
      loadToken++;
      stopWarmUp();
      unsubscribe();
      hostElement.removeEventListener('paste', onPasteCapture, true);
      for (const sub of [contentSub, cursorSub, selectionSub, scrollSub, mouseSub, leaveSub]) sub.dispose();
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
      <div ref={host} className={viewOnly ? 'editor-monaco is-hidden' : 'editor-monaco'} />
      {viewOnly && <LargeDocumentView />}
      <Notice />
      {dragging && <div className="drop-hint">Drop a text, markdown, HTML, source, PDF or DOCX file</div>}
    </div>
  );
}

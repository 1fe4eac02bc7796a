import { useEffect, useRef, useState } from 'react';
import { chunksAt, tokensFor } from '../../state/selectors';
import { useStore } from '../../state/store';
import { buildDecorations } from './decorations';
import { languageForName, monaco } from './monaco';
import { readDroppedFile } from './files';

/** Above this size the editor stops soft-wrapping: wrapping a 10 MiB document costs a long main-thread task. */
const WRAP_LIMIT = 2_000_000;

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
      const fmt = (n: number) => n.toLocaleString('en-US');
      const contents = found.map((i) => {
        const start = result.starts[i]!;
        const end = result.ends[i]!;
        const lines = [
          `**Chunk ${i}** of ${fmt(result.starts.length)}${result.oversize[i] ? ' — over the size limit' : ''}`,
          `Offsets ${fmt(start)}–${fmt(end)}`,
          `Size ${fmt(result.sizes[i]!)} ${result.unit === 'chars' ? 'chars' : result.unit === 'words' ? 'words' : `tokens (${result.unit})`}` +
            ` · ${fmt(end - start)} chars` +
            (tokens ? ` · ${fmt(tokens.counts[i]!)} tokens (${tokens.encoding})` : ''),
          `Overlap with chunk ${i - 1}: ${i > 0 ? `${fmt(result.overlaps[i - 1]!)} chars` : '—'} · with chunk ${i + 1}: ${
            i < result.starts.length - 1 ? `${fmt(result.overlaps[i]!)} chars` : '—'
          }`,
        ];
        return { value: lines.join('  \n'), isTrusted: false, supportHtml: false };
      });
      const first = found[0]!;
      const a = model.getPositionAt(result.starts[first]!);
      const b = model.getPositionAt(result.ends[found[found.length - 1]!]!);
      return { range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), contents };
    },
  });
}

export function ChunkEditor() {
  const host = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    registerChunkHover();
    const s0 = useStore.getState();
    const model = monaco.editor.createModel(s0.text, languageForName(s0.docName));
    const editor = monaco.editor.create(host.current!, {
      model,
      theme: 'chunkscope',
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: s0.text.length > WRAP_LIMIT ? 'off' : 'on',
      fontSize: 13,
      lineHeight: 21,
      fontFamily: "'JetBrains Mono', 'SFMono-Regular', ui-monospace, Menlo, Consolas, monospace",
      scrollBeyondLastLine: false,
      glyphMargin: false,
      folding: false,
      lineNumbersMinChars: 4,
      lineDecorationsWidth: 8,
      padding: { top: 12, bottom: 12 },
      renderLineHighlight: 'none',
      occurrencesHighlight: 'off',
      selectionHighlight: false,
      unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false },
      hover: { delay: 250, sticky: true },
      ariaLabel: 'Document text',
      scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
      overviewRulerBorder: false,
      stickyScroll: { enabled: false },
    });
    const chunks = editor.createDecorationsCollection();
    const selection = editor.createDecorationsCollection();
    let applyingExternal = false;

    const paint = () => {
      const { result } = useStore.getState();
      if (!result) {
        chunks.clear();
        return;
      }
      if (model.getValueLength() !== result.text.length) return; // typed since: the newer job will paint
      chunks.set(buildDecorations(model, result));
      const end = performance.now();
      performance.measure('chunkscope:paint', {
        start: result.requestedAt,
        end,
        detail: { jobId: result.jobId, chunks: result.starts.length },
      });
      useStore.getState().setPainted(result.jobId);
    };

    const showSelection = (reveal: boolean) => {
      const { result, selectedIndex } = useStore.getState();
      if (!result || selectedIndex === null || selectedIndex >= result.starts.length) {
        selection.clear();
        return;
      }
      const a = model.getPositionAt(result.starts[selectedIndex]!);
      const b = model.getPositionAt(result.ends[selectedIndex]!);
      const range = new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
      selection.set([{ range, options: { className: 'cs-chunk-selected', isWholeLine: false } }]);
      if (reveal) {
        editor.revealRangeNearTopIfOutsideViewport(range, monaco.editor.ScrollType.Smooth);
        editor.setPosition(a);
      }
    };

    const unsubscribe = useStore.subscribe((s, prev) => {
      if (s.docVersion !== prev.docVersion && s.docOrigin === 'external') {
        applyingExternal = true;
        monaco.editor.setModelLanguage(model, languageForName(s.docName));
        editor.updateOptions({ wordWrap: s.text.length > WRAP_LIMIT ? 'off' : 'on' });
        model.setValue(s.text);
        applyingExternal = false;
      }
      if (s.result !== prev.result) {
        paint();
        showSelection(false);
      }
      if (s.selectedIndex !== prev.selectedIndex) showSelection(s.selectionSource === 'list');
    });

    const contentSub = model.onDidChangeContent(() => {
      if (applyingExternal) return;
      useStore.getState().setDocument(model.getValue(), { origin: 'editor' });
    });
    const cursorSub = editor.onDidChangeCursorPosition((e) => {
      if (e.source === 'api' || e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
      const { result, select, selectedIndex } = useStore.getState();
      if (!result) return;
      const found = chunksAt(result.starts, result.ends, model.getOffsetAt(e.position));
      const index = found.length ? found[found.length - 1]! : null;
      if (index !== selectedIndex) select(index, 'editor');
    });

    paint();
    return () => {
      unsubscribe();
      contentSub.dispose();
      cursorSub.dispose();
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

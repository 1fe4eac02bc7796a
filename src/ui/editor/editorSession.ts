import { useEffect, useRef, type RefObject } from 'react';
import { selectEmbedderTokens } from '../../state/selectors';
import type { PaintableResult } from '../../state/resultsSlice';
import { useStore } from '../../state/store';
import { offsetRange } from './decorations';
import { chunkHover, documentView, editorOptions, LARGE_DOCUMENT, toEditorText } from './editorModel';
import { monaco } from './monaco';
import { warmUpTextModelWhenIdle } from './warmUpTextModel';

/**
 * The chunk editor's Monaco instance and what its hooks share: the model, whether a large document is still
 * entering it, whether a change of its text is the store's (not typed), and each hook's part. ChunkEditor's hooks
 * run in one commit, in order: useEditorSession creates the session, each later hook adds its part, and
 * useStoreSteps (the last) starts the first paint or load. A hook calls another's part only at run time.
 */
export interface EditorSession {
  host: HTMLDivElement;
  editor: monaco.editor.IStandaloneCodeEditor;
  model: monaco.editor.ITextModel;
  /** True while a large document is being loaded piece by piece (no result is painted meanwhile). */
  loading: boolean;
  /** True while the store's text is put into Monaco: the change it makes is not an edit. */
  applyingExternal: boolean;
  /** A paste over the whole text (or into an empty editor) is being applied: its change is a new document. */
  pasteIsNewDocument: boolean;
  /** The result's offsets refer to the text Monaco holds (nothing typed since, the load finished). */
  inSync(result: PaintableResult): boolean;
  /** Wrapping and highlighting for a document of this size and name (set before its text arrives). */
  prepareFor(length: number, name: string | null): void;
  /** useChunkDecorations' part. */
  chunks: ChunkDecorationsPart;
  /** useLabMarks' part. */
  lab: LabMarksPart;
  /** useChunkedLoad's part. */
  loader: LoaderPart;
}

export interface ChunkDecorationsPart {
  /** The result's chunks and truncated ends, in one batch; then the lab's marks. */
  paint(): void;
  /** While a large document loads in pieces: `result`'s chunks on the lines already in (false: none painted). */
  paintLoaded(result: PaintableResult): boolean;
  paintTruncated(result: PaintableResult): void;
  showSelection(reveal: boolean): void;
  showPair(gap: number | null, reveal: boolean): void;
  clearPair(): void;
  /** Every chunk mark gone (a new document). */
  clear(): void;
}

export interface LabMarksPart {
  /** The lab's marks, when they changed (or `force`: the chunks were repainted). */
  paint(force?: boolean): void;
  clear(): void;
}

export interface LoaderPart {
  /** Put a document into Monaco (in pieces when large; not at all while the read-only view shows it). */
  load(text: string, name: string | null): void;
  /** Stop a load in progress (the editor is going away). */
  cancel(): void;
}

/** The editor's type size: projector mode reads from the back of a room. */
export function editorType(projector: boolean): { fontSize: number; lineHeight: number } {
  return projector ? { fontSize: 17, lineHeight: 27 } : { fontSize: 13, lineHeight: 21 };
}

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

/** Creates Monaco in `host` with the store's document (a large one is loaded later, in pieces) and disposes it. */
export function useEditorSession(host: RefObject<HTMLDivElement | null>): RefObject<EditorSession | null> {
  const session = useRef<EditorSession | null>(null);
  useEffect(() => {
    registerChunkHover();
    const created = createSession(host.current!);
    session.current = created;
    const stopWarmUp = warmUpTextModelWhenIdle();
    return () => {
      created.loader.cancel();
      stopWarmUp();
      created.editor.dispose();
      created.model.dispose();
      session.current = null;
    };
  }, [host]);
  return session;
}

function createSession(hostElement: HTMLDivElement): EditorSession {
  const s0 = useStore.getState();
  const model = monaco.editor.createModel(s0.text.length > LARGE_DOCUMENT ? '' : toEditorText(s0.text), documentView(s0.text.length, s0.docName).language);
  // Bracket-pair colouring is a model option (Monaco's model service resets it from its defaults when the
  // editor is created and when the language changes), and its parser walks the whole document on render.
  const noBracketColours = () => model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
  const editor = monaco.editor.create(hostElement, { model, ...editorOptions(s0.text.length), ...editorType(s0.config.projector) });
  noBracketColours();
  demoteMonacoAlerts();
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
  const missing = (): never => {
    throw new Error('a chunk editor hook ran before its part was added');
  };
  return {
    host: hostElement,
    editor,
    model,
    loading: false,
    applyingExternal: false,
    pasteIsNewDocument: false,
    inSync: (result) => model.getValueLength() === result.text.length,
    prepareFor,
    chunks: { paint: missing, paintLoaded: () => false, paintTruncated: missing, showSelection: missing, showPair: missing, clearPair: missing, clear: missing },
    lab: { paint: missing, clear: missing },
    loader: { load: missing, cancel: () => {} },
  };
}

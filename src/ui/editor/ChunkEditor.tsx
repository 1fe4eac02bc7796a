import { useRef, useState } from 'react';
import { selectViewOnly } from '../../state/selectors';
import { useStore } from '../../state/store';
import './summaryBand.css';
import { monaco } from './monaco';
import { readDroppedFile } from './files';
import { Notice } from '../Notice';
import { LargeDocumentView } from './LargeDocumentView';
import { useEditorSession } from './editorSession';
import { useChunkDecorations } from './useChunkDecorations';
import { useLabMarks } from './useLabMarks';
import { usePasteCapture } from './usePasteCapture';
import { useChunkedLoad } from './useChunkedLoad';
import { useEditorToStore } from './useEditorToStore';
import { useStoreSteps } from './useStoreSteps';

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

/**
 * The document in Monaco with its chunks drawn over it. Each hook has one job (see its file); they share the
 * editor session that useEditorSession creates and run in this order in one commit (the order matters: each adds
 * the part the later ones call, and useStoreSteps starts the first paint).
 */
export function ChunkEditor() {
  const host = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const viewOnly = useStore(selectViewOnly);
  const session = useEditorSession(host);
  useChunkDecorations(session);
  useLabMarks(session);
  usePasteCapture(session);
  useChunkedLoad(session);
  useEditorToStore(session);
  useStoreSteps(session);

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

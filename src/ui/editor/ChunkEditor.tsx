import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { useAfterFirstPaint } from '../afterFirstPaint';
import { selectViewOnly } from '../../state/selectors';
import { useStore } from '../../state/store';
import { readDocumentFiles, readDroppedFile } from './files';
import { Notice } from '../Notice';
import { FirstPaintView, LargeDocumentView } from './LargeDocumentView';

/** Monaco and everything drawn with it: about 2.7 MB of script the first screen does not need. */
const MonacoEditor = lazy(() => import('./MonacoEditor'));

/**
 * The document with its chunks drawn over it. The first paint is the read-only first-paint view (plain DOM, no
 * editor); Monaco loads when the person focuses, clicks or types there, or in idle time after that paint, and takes
 * over the view's scroll position, caret and typed keys once its document is in (MonacoEditor). Documents over
 * VIEW_ONLY_DOCUMENT keep the read-only large view until the person asks to edit.
 */
export function ChunkEditor() {
  const [dragging, setDragging] = useState(false);
  const viewOnly = useStore(selectViewOnly);
  const [wanted, want] = useMonacoWanted();
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  const onDrop = async (event: React.DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 1) await readDocumentFiles(files);
    else if (files[0]) await readDroppedFile(files[0]);
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
      {wanted && !failed && (
        <EditorLoadBoundary onError={() => setFailed(true)}>
          <Suspense fallback={null}>
            <MonacoEditor hidden={viewOnly || !ready} onReady={() => setReady(true)} />
          </Suspense>
        </EditorLoadBoundary>
      )}
      {viewOnly ? <LargeDocumentView /> : !ready && <FirstPaintView onWake={want} />}
      <Notice />
      {dragging && <div className="drop-hint">Drop a text, markdown, HTML, source, PDF or DOCX file</div>}
    </div>
  );
}

/** Whether Monaco is asked for: at once by `want` (a focus, click or key in the first view), else after the first paint. */
function useMonacoWanted(): [boolean, () => void] {
  const [woken, setWoken] = useState(false);
  const afterPaint = useAfterFirstPaint();
  return [woken || afterPaint, () => setWoken(true)];
}

/** Monaco's script failed to load (offline before the service worker cached it): the read-only view stays, and says so. */
class EditorLoadBoundary extends Component<{ onError: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    useStore.getState().setNotice('The editor could not be loaded (offline?): the document stays read-only until the page is reloaded online.');
    this.props.onError();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

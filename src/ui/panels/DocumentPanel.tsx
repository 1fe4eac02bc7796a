import { useEffect, useRef } from 'react';
import { useStore } from '../../state/store';
import registry from 'virtual:chunkscope-registry-facts';
import { loadImporters, openableFiles, openNamedDocument, readDocumentFiles, readDroppedFile } from '../editor/files';
import { SAMPLES, type SampleDocument } from '../samples';
import { loadPart } from '../../state/lazyPart';

/** Where the document comes from: a built-in sample (one click) or a local file. */
/** The file input's `accept`, from the importers' extensions built ahead. */
const OPENABLE_FILES = openableFiles(registry.importableExtensions);

/** Which sample click is the latest: an earlier one whose text arrives after it opens nothing. */
let sampleClicks = 0;

/**
 * A sample is a document of its own: its name, its colouring, its kind's strategy (the HTML sample runs as html); a
 * plain-text one goes back to the strategy the person chose. Its text loads on the first click (the samples other
 * than the first are off the first paint), which takes a moment on a slow network: what the person does meanwhile
 * wins. A strategy chosen since the click is kept, and a document typed, pasted or opened since is not replaced.
 */
async function openSample(sample: SampleDocument): Promise<void> {
  const click = ++sampleClicks;
  const before = useStore.getState();
  const [text, importers] = await Promise.all([loadPart(`sample “${sample.label}”`, sample.loadText), loadPart('importers', loadImporters)]);
  const now = useStore.getState();
  if (text === null || !importers || click !== sampleClicks || now.text !== before.text) return;
  const strategyChosenSince = now.config.strategy !== before.config.strategy;
  openNamedDocument(text, sample.name, strategyChosenSince ? null : importers.structureStrategyForName(sample.name));
}

export function DocumentPanel() {
  const docName = useStore((s) => s.docName);
  const dropPageFurniture = useStore((s) => s.dropPageFurniture);
  const setDropPageFurniture = useStore((s) => s.setDropPageFurniture);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // webkitdirectory is not in React's attribute list: set it on the element.
  useEffect(() => folderInput.current?.setAttribute('webkitdirectory', ''), []);
  return (
    <section className="panel document" aria-labelledby="document-title">
      <h2 id="document-title" className="section-title">
        Document
      </h2>
      <div className="sample-grid">
        {SAMPLES.map((sample) => (
          <button
            key={sample.id}
            type="button"
            className={`btn btn-sample${docName === sample.name ? ' is-active' : ''}`}
            aria-label={`Sample: ${sample.label}`}
            aria-pressed={docName === sample.name}
            onClick={() => void openSample(sample)}
          >
            {sample.label}
          </button>
        ))}
      </div>
      <div className="open-row">
        <button type="button" className="btn btn-block" onClick={() => fileInput.current?.click()} title="One file replaces the document; several open side by side (tabs above the editor)">
          Open file…
        </button>
        <button type="button" className="btn btn-block" onClick={() => folderInput.current?.click()} title="Every file of a known document type in a folder, as a set of documents">
          Open folder…
        </button>
      </div>
      <input
        ref={fileInput}
        type="file"
        accept={OPENABLE_FILES}
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="open-files"
        onChange={async (e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 1) await readDocumentFiles(files);
          else if (files[0]) await readDroppedFile(files[0]);
        }}
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="open-folder"
        onChange={async (e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) await readDocumentFiles(files, { folder: true });
        }}
      />
      <div className="field-check">
        <label>
          <input type="checkbox" checked={dropPageFurniture} onChange={(e) => setDropPageFurniture(e.target.checked)} />
          Drop repeated page headers and footers (PDF)
        </label>
      </div>
      <p className="hint">Or paste, type, or drop a file onto the editor: text, markdown, HTML, source files, PDF, DOCX.</p>
    </section>
  );
}

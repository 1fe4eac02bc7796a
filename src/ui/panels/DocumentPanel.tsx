import { useRef } from 'react';
import { useStore } from '../../state/store';
import { structureStrategyForName } from '../../import/index';
import { OPENABLE_FILES, openNamedDocument, readDroppedFile } from '../editor/files';
import { SAMPLES } from '../samples';

/** Where the document comes from: a built-in sample (one click) or a local file. */
export function DocumentPanel() {
  const docName = useStore((s) => s.docName);
  const dropPageFurniture = useStore((s) => s.dropPageFurniture);
  const setDropPageFurniture = useStore((s) => s.setDropPageFurniture);
  const fileInput = useRef<HTMLInputElement>(null);
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
            // A sample is a document of its own: its name, its colouring, its kind's strategy (the HTML sample
            // runs as html); a plain-text one goes back to the strategy the person chose.
            onClick={() => openNamedDocument(sample.text, sample.name, structureStrategyForName(sample.name))}
          >
            {sample.label}
          </button>
        ))}
      </div>
      <button type="button" className="btn btn-block" onClick={() => fileInput.current?.click()}>
        Open file…
      </button>
      <input
        ref={fileInput}
        type="file"
        accept={OPENABLE_FILES}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          if (file) await readDroppedFile(file);
          e.target.value = '';
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

import { useRef, useState } from 'react';
import { corpusIdForDocument, formatGoldenSet, GOLDEN_FORMATS, parseGoldenSet, type GoldenFormat } from '../../core/eval/golden';
import { downloadFile, runGoldenSet } from '../../state/controller';
import { fromGoldenQuestions, toGoldenQuestions, type GoldenItem } from '../../state/labGolden';
import { openDocumentOf, runIsCurrent, setAsideLine } from '../../state/documentSetLab';
import { documentTexts, UNTITLED } from '../../state/documentSetSlice';
import { ByDocumentTable } from './ByDocumentTable';
import { retrieverCaption } from '../../state/labBaseline';
import { useStore } from '../../state/store';
import { formatNumber } from '../panels/format';
import { BaselineNote, MeansTable, pct, preview, RetrieverControls, type QuestionResult } from './labCommon';
import { ReportExport } from './ReportExport';
import { GeneratedQuestions } from './GeneratedQuestions';

/** The golden set: questions with their answers marked in the editor (left), the run's means and cost (right). */
export function GoldenTab() {
  const golden = useStore((s) => s.golden);
  const active = useStore((s) => s.activeQuestion);
  const selection = useStore((s) => s.editorSelection);
  const run = useStore((s) => s.run);
  const running = useStore((s) => s.labRunning);
  const runError = useStore((s) => s.runError);
  const current = useStore(runIsCurrent);
  const markAnswer = useStore((s) => s.markAnswer);
  const names = useStore((s) => documentNames(s).join('\u0000')).split('\u0000');
  const switchDocument = useStore((s) => s.switchDocument);
  const activeItem = golden.find((q) => q.id === active) ?? null;
  const result = run && current ? run.payload.result : null;
  const staleRun = run !== null && !current;
  const byId = new Map(result ? run!.ids.map((id, i) => [id, result.questions[i]!]) : []);
  const canMark = Boolean(activeItem && selection && selection.end > selection.start);
  const inSet = names.length > 1;
  // Questions of documents that are not open are kept (they come back with their document), summarized in one line.
  const setAside = setAsideLine(golden, names);
  const shown = setAside ? golden.filter((q) => openDocumentOf(useStore.getState(), q) !== null) : golden;
  return (
    <div className={inSet && result && result.byDocument.length > 1 ? 'lab-golden has-corpus' : 'lab-golden'}>
      <div className="lab-golden-left">
        <NewQuestionRow />
        <div className="lab-row">
          <button type="button" className="primary" onClick={markAnswer} disabled={!canMark} title={canMark ? 'Add the editor selection as an answer span' : 'Select a question, then select its answer text in the editor'}>
            Mark as answer
          </button>
          <button type="button" className="primary" onClick={() => void runGoldenSet()} disabled={running || golden.length === 0}>
            {running ? 'Running…' : 'Run golden set'}
          </button>
        </div>
        <GoldenFileRow />
        <GeneratedQuestions />
        {runError && (
          <p className="lab-error" role="status">
            {runError}
          </p>
        )}
        {setAside && (
          <p className="lab-setaside small muted" role="note" data-testid="lab-set-aside">
            {setAside}
          </p>
        )}
        {golden.length === 0 && <p className="hint">No questions yet. A golden set is stored with this document in the browser; import one as JSON, JSONL or Chroma's CSV.</p>}
        <ul className="lab-questions" data-testid="golden-questions">
          {shown.map((q, qi) => (
            <QuestionItem key={q.id} item={q} number={qi + 1} measured={byId.get(q.id)} document={inSet ? (names[openDocumentOf(useStore.getState(), q) ?? -1] ?? null) : null} />
          ))}
        </ul>
      </div>
      <div className="lab-golden-right">
        <RetrieverControls />
        {staleRun && <p className="hint">{run?.corpus ? 'The documents or the configuration changed since the last run: run the golden set again.' : 'The chunks changed since the last run: run the golden set again.'}</p>}
        {result && (
          <>
            <p className="small lab-ranked-by" data-testid="lab-run-retriever">
              {retrieverCaption(run!.retriever ?? 'bm25', run!.embedder ?? 'builtin')}
            </p>
            <MeansTable means={result.means} k={result.k} />
            {result.byDocument.length > 1 && <ByDocumentTable result={result} onShow={(name) => switchDocument(names.indexOf(name))} />}
            <BaselineNote run={run!} />
            <p className="muted small" data-testid="lab-index-cost">
              {result.measured} question{result.measured === 1 ? '' : 's'} · index: {formatNumber(result.index.indexed)} chunks, {formatNumber(result.index.embeddingTokens)} embedding tokens (cl100k),{' '}
              {formatNumber(result.index.indexedCharacters)} chars · {(result.timings.indexMs + result.timings.searchMs).toFixed(0)} ms
            </p>
            <p className="hint">Click a question to see its answer spans (green) and the chunks it retrieved (rank badges) in the editor.</p>
            <ReportExport kind="run" />
          </>
        )}
      </div>
    </div>
  );
}

/** The box a new question is written in. */
function NewQuestionRow() {
  const addQuestion = useStore((s) => s.addQuestion);
  const [draft, setDraft] = useState('');
  const add = () => {
    if (!draft.trim()) return;
    addQuestion(draft);
    setDraft('');
  };
  return (
    <div className="lab-row">
      <label htmlFor="lab-new-question" className="sr-only">
        New question
      </label>
      <input
        id="lab-new-question"
        type="text"
        placeholder="Write a question, then select its answer in the editor"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && add()}
      />
      <button type="button" onClick={add} disabled={!draft.trim()}>
        Add
      </button>
    </div>
  );
}

/** The golden set's count, its import (JSON, JSONL, Chroma's CSV) and its export in a chosen format. */
function GoldenFileRow() {
  const golden = useStore((s) => s.golden);
  const docName = useStore((s) => s.docName);
  const importQuestions = useStore((s) => s.importQuestions);
  const setNotice = useStore((s) => s.setNotice);
  const [format, setFormat] = useState<GoldenFormat>('json');
  const file = useRef<HTMLInputElement>(null);
  const onImport = async (f: File) => {
    try {
      const questions = parseGoldenSet(await f.text(), { name: f.name });
      // With several documents open, a question without corpus_id belongs to the one shown.
      const { openDocuments, docName } = useStore.getState();
      const items = fromGoldenQuestions(questions).map((q) => (openDocuments.length > 0 && q.corpusId === undefined ? { ...q, corpusId: docName ?? UNTITLED } : q));
      importQuestions(items);
      setNotice(`Imported ${items.length} question${items.length === 1 ? '' : 's'} from ${f.name}.`);
    } catch (error) {
      setNotice(`Could not import ${f.name}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    }
  };
  const onExport = () => {
    const body = formatGoldenSet(toGoldenQuestions(golden), format, { defaultCorpusId: corpusIdForDocument(docName) });
    const ext = format === 'jsonl' ? 'jsonl' : format;
    downloadFile(`golden-set.${ext}`, body, format === 'csv' ? 'text/csv' : 'application/json');
  };
  return (
    <div className="lab-io small">
      <span className="muted">
        {golden.length} question{golden.length === 1 ? '' : 's'} · stored with this document
      </span>
      <span className="lab-spacer" />
      <button type="button" className="link" onClick={() => file.current?.click()}>
        Import…
      </button>
      <input
        ref={file}
        type="file"
        accept=".json,.jsonl,.csv,application/json,text/csv"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void onImport(f);
          e.target.value = '';
        }}
      />
      <label className="sr-only" htmlFor="lab-export-format">
        Export format
      </label>
      <select id="lab-export-format" className="lab-small-select" value={format} onChange={(e) => setFormat(e.target.value as GoldenFormat)}>
        {GOLDEN_FORMATS.map((f) => (
          <option key={f} value={f}>
            {f === 'csv' ? 'Chroma CSV' : f.toUpperCase()}
          </option>
        ))}
      </select>
      <button type="button" className="link" onClick={onExport} disabled={golden.length === 0}>
        Export
      </button>
    </div>
  );
}

/** One question: its text (editable), its recall in the last run, its answers, and why it failed when it is active. */
function QuestionItem({ item: q, number, measured, document }: { item: GoldenItem; number: number; measured: QuestionResult | undefined; document: string | null }) {
  const active = useStore((s) => s.activeQuestion === q.id);
  const text = useStore((s) => questionText(s, q));
  const refStates = useStore((s) => s.referenceStates.get(q.id)) ?? [];
  const renameQuestion = useStore((s) => s.renameQuestion);
  const selectQuestion = useStore((s) => s.selectQuestion);
  const deleteQuestion = useStore((s) => s.deleteQuestion);
  const [editing, setEditing] = useState<string | null>(null);
  const missing = q.references.filter((r, i) => refStates[i]?.status === 'missing' || text.slice(r.start, r.end) !== r.content).length;
  const commit = (value: string) => {
    renameQuestion(q.id, value);
    setEditing(null);
  };
  return (
    <li className={active ? 'is-active' : ''}>
      <div className="lab-question-row">
        {editing !== null ? (
          <input
            type="text"
            aria-label="Edit question"
            autoFocus
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit(editing);
              else if (e.key === 'Escape') setEditing(null);
            }}
            onBlur={() => commit(editing)}
          />
        ) : (
          <button type="button" className="lab-question" aria-pressed={active} onClick={() => showQuestion(q, selectQuestion)}>
            <span className="lab-qnum">{number}.</span> {q.question || '(no question)'}
            {q.generated && <span className="lab-generated-badge" title="Proposed by an LLM and accepted in review">generated</span>}
          </button>
        )}
        {document !== null && editing === null && (
          <span className="lab-qdoc" title={`Its answers are in ${document}`}>
            {document}
          </span>
        )}
        {measured && (
          <span className={`lab-recall ${measured.metrics.recall >= 1 ? 'ok' : measured.metrics.recall > 0 ? 'partial' : 'miss'}`} title="recall of this question">
            {pct(measured.metrics.recall)}
          </span>
        )}
        <button type="button" className="link" onClick={() => setEditing(q.question)} aria-label={`Edit question ${number}`}>
          Edit
        </button>
        <button type="button" className="link danger" aria-label={`Delete question ${number}`} onClick={() => deleteQuestion(q.id)}>
          Delete
        </button>
      </div>
      <div className="lab-refs muted small">
        <AnswerList item={q} number={number} />
        {missing > 0 && <span className="lab-flag"> {missing} not in the document: left out of runs</span>}
      </div>
      {measured && active && measured.failures.length > 0 && (
        <ul className="lab-failures" data-testid="failure-reasons">
          {measured.failures.map((f, i) => (
            <li key={i}>{f.message}</li>
          ))}
        </ul>
      )}
      {measured && active && measured.failures.length === 0 && (
        <p className="lab-ok small">{measured.metrics.recall >= 1 ? 'Every answer span was retrieved.' : `${pct(measured.metrics.recall)} of the answer characters were retrieved.`}</p>
      )}
    </li>
  );
}

/** A question's answer spans (a span no longer in the text is flagged), each removable. */
function AnswerList({ item: q, number }: { item: GoldenItem; number: number }) {
  const text = useStore((s) => questionText(s, q));
  const removeAnswer = useStore((s) => s.removeAnswer);
  if (q.references.length === 0) return <span>No answer marked yet.</span>;
  return (
    <>
      {q.references.map((r, i) => {
        const gone = text.slice(r.start, r.end) !== r.content;
        return (
          <span key={`${r.start}-${i}`} className={`lab-ref${gone ? ' is-missing' : ''}`} title={gone ? 'Not found in the document any more: mark it again' : `${r.start}–${r.end}`}>
            {gone ? '⚠ missing: ' : ''}“{preview(r.content, 0, r.content.length, 60)}”
            <button type="button" className="link" aria-label={`Remove answer ${i + 1} of question ${number}`} onClick={() => removeAnswer(q.id, i)}>
              ×
            </button>
          </span>
        );
      })}
    </>
  );
}

const documentNames = (s: Parameters<typeof documentTexts>[0]) => (s.openDocuments.length > 0 ? s.openDocuments.map((d) => d.name) : [s.docName ?? UNTITLED]);

/** The text of the document a question belongs to (the live one when it is shown). */
function questionText(s: Parameters<typeof documentTexts>[0], q: GoldenItem): string {
  const d = openDocumentOf(s, q);
  return d === null ? '' : documentTexts(s)[d]!.text;
}

/** A question clicked: made active; when its answers are in another open document, that document is shown. */
function showQuestion(q: GoldenItem, select: (id: string) => void): void {
  select(q.id);
  const s = useStore.getState();
  const d = s.openDocuments.length > 0 ? openDocumentOf(s, q) : null;
  if (d !== null && d !== s.activeDocument) s.switchDocument(d);
}

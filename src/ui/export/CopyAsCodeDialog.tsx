import { useEffect, useMemo, useRef, useState } from 'react';
import { CLI_TARGET, CLI_TARGET_LABEL, CODE_TARGETS, cliCommandFor, codeFor, reproducesExactly, targetsFor, type CodeTarget } from '../../core/export/index';
import { validateOptions } from '../../core/options';
import { toChunkOptions } from '../../state/chunkOptions';
import { documentFacts } from '../../state/controller';
import { useStore } from '../../state/store';
import { noteLines } from './codeNotes';

/** A library's program, or the chunkscope command line. */
type DialogTarget = CodeTarget | typeof CLI_TARGET;

const TARGET_TITLES: Record<DialogTarget, string> = {
  [CLI_TARGET]: CLI_TARGET_LABEL,
  'langchain-python': 'LangChain Python',
  'langchain-js': 'LangChain JS',
  llamaindex: 'LlamaIndex',
  'llamaindex-ts': 'LlamaIndex TS',
  chonkie: 'Chonkie',
  'chonkie-ts': 'Chonkie TS',
};

/** The compat mode a program reproduces exactly, as the page names it. */
const COMPAT_NAMES: Record<string, string> = { langchain: 'LangChain', llamaindex: 'LlamaIndex', chonkie: 'Chonkie' };

const FOCUSABLE = 'button:not([disabled]), select:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/** Tab from the last control goes to the first and Shift+Tab from the first to the last (a modal <dialog> alone
 * lets focus leave for the browser's own UI). */
function trapTab(e: React.KeyboardEvent, container: HTMLElement | null): void {
  if (e.key !== 'Tab' || !container) return;
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !container.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !container.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

interface Generated {
  code: string;
  exact: boolean;
  compat: string;
  /** Only the targets with a program for the strategy are listed (Chonkie TS has no markdown chunker, ...). */
  targets: DialogTarget[];
  /** The CLI target: the command line, not a program. */
  cli: boolean;
  notes: string[];
  error: string | null;
}

/** The program for the current configuration and target, or the options' one-line error. */
function generateCode(config: ReturnType<typeof useStore.getState>['config'], target: DialogTarget): Generated {
  let targets: DialogTarget[] = [...CODE_TARGETS, CLI_TARGET];
  const cli = target === CLI_TARGET;
  try {
    const options = validateOptions(toChunkOptions(config, documentFacts(useStore.getState())));
    targets = [...targetsFor(options), CLI_TARGET];
    if (cli) return { code: cliCommandFor(options, { command: 'corpus', input: 'docs/', out: 'chunks/', to: 'lancedb:index/' }), exact: true, compat: options.compat, targets, cli, notes: [], error: null };
    const code = codeFor(options, target);
    return { code, exact: reproducesExactly(options, target), compat: options.compat, targets, cli, notes: noteLines(code), error: null };
  } catch (e) {
    return { code: '', exact: false, compat: 'none', targets, cli, notes: [], error: e instanceof Error ? e.message : String(e) };
  }
}

/** The native modal <dialog> follows `open` (showModal keeps focus inside and closes on Esc). */
function useModalOpen(dialog: React.RefObject<HTMLDialogElement | null>, open: boolean): void {
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
}

/** Whether the program reproduces Chunkscope's chunks, its notes and the code itself (or the error). */
function GeneratedCode({ generated }: { generated: Generated }) {
  return generated.error ? (
    <p className="alert" role="alert">
      {generated.error}
    </p>
  ) : (
    <>
      <p className={generated.exact ? 'code-exact' : 'hint'} data-testid="code-exactness">
        {generated.cli
          ? 'Gives exactly these chunks (the same engine) for every file under docs/, into chunks/ and LanceDB at index/; run it again after edits and only the changes are applied (docs/corpus.md).'
          : generated.exact
          ? `Gives exactly Chunkscope's chunks (${COMPAT_NAMES[generated.compat] ?? generated.compat} compatibility).`
          : 'An approximation: this library cuts by its own rules, so some chunks may differ.'}
      </p>
      {generated.notes.length > 0 && (
        <ul className="code-notes" aria-label="Notes">
          {generated.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
      {/* React sets this as a text node: the code (with the user's separators in it) is never markup. */}
      <pre className="code-block" aria-label="Generated code" tabIndex={0} data-testid="generated-code">
        {generated.code}
      </pre>
    </>
  );
}

/**
 * "Copy as code…": a modal dialog with a program that reproduces the current configuration in LangChain (Python
 * or JS), LlamaIndex or Chonkie. The code goes into the page as text (textContent), never as markup. A native modal
 * <dialog> keeps focus inside and closes on Esc; focus returns to the button that opened it.
 */
export function CopyAsCodeDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<DialogTarget>('langchain-python');
  const [copied, setCopied] = useState(false);
  const config = useStore((s) => s.config);
  const docName = useStore((s) => s.docName);

  // docName: the file name is part of the options (path).
  const generated = useMemo(() => (open ? generateCode(config, target) : null), [open, config, target, docName]);
  useModalOpen(dialog, open);

  const close = () => {
    setOpen(false);
    setCopied(false);
    opener.current?.focus();
  };

  const copy = async () => {
    if (!generated?.code) return;
    try {
      await navigator.clipboard.writeText(generated.code);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      /* clipboard refused: the code is selectable in the block */
    }
  };

  return (
    <>
      <button ref={opener} type="button" className="btn" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Copy as code
      </button>
      <dialog
        ref={dialog}
        className="code-dialog"
        aria-labelledby="code-dialog-title"
        onCancel={(e) => {
          // Esc: close through React state so focus goes back to the opener.
          e.preventDefault();
          close();
        }}
        onClick={(e) => {
          if (e.target === dialog.current) close(); // a click on the backdrop
        }}
        onKeyDown={(e) => trapTab(e, dialog.current)}
      >
        {open && generated && (
          <div className="code-dialog-body">
            <div className="code-dialog-head">
              <h2 id="code-dialog-title">Copy as code</h2>
              <button type="button" className="btn btn-quiet btn-small" onClick={close}>
                Close
              </button>
            </div>
            <div className="code-dialog-row">
              <label htmlFor="code-target">Target</label>
              <select id="code-target" value={target} onChange={(e) => setTarget(e.target.value as DialogTarget)}>
                {generated.targets.map((t) => (
                  <option key={t} value={t}>
                    {TARGET_TITLES[t]}
                  </option>
                ))}
              </select>
              <button type="button" className="btn" onClick={copy} disabled={!generated.code}>
                {copied ? 'Copied' : 'Copy'}
              </button>
            </div>
            <GeneratedCode generated={generated} />
          </div>
        )}
      </dialog>
    </>
  );
}

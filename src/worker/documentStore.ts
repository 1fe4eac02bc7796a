import type { LanguageWindows } from '../core/languageWindows';
import type { Slices } from './jobQueue';

/**
 * The chunk worker's document: sent once per version (options change far more often), a large one in parts (every
 * part but the last with `more`), and its language windows, detected once per document in time slices. The text
 * is kept as the page sent it: jobs read `text` without a copy.
 */
export class DocumentStore {
  text = '';
  version = -1;
  /** The parts of a document still arriving. */
  private incoming: { version: number; parts: string[] } | null = null;
  /** The language detection of a document: its windows once done, otherwise where it stopped. */
  private languages: { text: string; steps: Generator<void, LanguageWindows, void>; windows: LanguageWindows | null } | null = null;

  /**
   * One `document` message: the whole text once its last part arrived (to `apply` in order with the jobs), null
   * while parts are still coming. A part of another version starts over (the page replaced a document it was still
   * sending).
   */
  receive({ version, text, more }: { version: number; text: string; more?: boolean }): string | null {
    if (this.incoming?.version !== version) this.incoming = null;
    if (more) {
      (this.incoming ??= { version, parts: [] }).parts.push(text);
      return null;
    }
    const whole = this.incoming ? [...this.incoming.parts, text].join('') : text;
    this.incoming = null;
    return whole;
  }

  /** Makes `text` the current document (jobs queued after this call run on it). */
  apply(version: number, text: string): void {
    this.text = text;
    this.version = version;
  }

  /**
   * The language windows of `text`, found once per document in slices; null when a newer job arrived meanwhile (the
   * detection so far is kept, and the next job's call goes on from there). The windows are the memo's own arrays.
   */
  async languageWindowsOf(text: string, slices: Slices): Promise<LanguageWindows | null> {
    // The detector (franc-min's profiles, a third of the worker) loads after the first chunks, not before them.
    const { languageWindowSteps } = await import('../core/languageWindows');
    if (this.languages?.text !== text) this.languages = { text, steps: languageWindowSteps(text), windows: null };
    const memo = this.languages;
    while (!memo.windows) {
      const step = memo.steps.next();
      if (step.done) memo.windows = step.value;
      else if (slices.over() && !(await slices.next())) return null;
    }
    return memo.windows;
  }
}

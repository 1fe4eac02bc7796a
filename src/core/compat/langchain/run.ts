import type { SplitSpan } from '../../registry';
import type { ChunkContext } from '../../types';

/**
 * A chunk as LangChain produces it: `start`/`end` is the source range it came from, and LangChain's string is
 * `source.slice(start, end)`, except in the quirk cases documented where they arise (a join that collapses
 * repeated separators, a token window that cuts a character): there `content` holds LangChain's string. As the
 * SplitSpan contract says, `content` is set only when it differs, so chunk() can size the other spans from its
 * per-span memo.
 */
export type LangchainSpan = SplitSpan;

/** Thrown when `ctx.signal.aborted` turns true during a run. */
export class CompatAbortError extends Error {
  constructor() {
    super('chunking was cancelled');
    this.name = 'AbortError';
  }
}

/** Progress and cancellation for one run: progress is reported at most once per percent. */
export class RunControl {
  private lastReported = -1;

  constructor(
    private readonly ctx: ChunkContext,
    private readonly total: number,
  ) {}

  /** Throws CompatAbortError once the run's signal is aborted. */
  check(): void {
    if (this.ctx.signal?.aborted) throw new CompatAbortError();
  }

  /** Called between pieces of work with how far into the source the run has got. */
  step(done: number): void {
    this.check();
    const onProgress = this.ctx.onProgress;
    if (!onProgress || this.total <= 0) return;
    const fraction = Math.min(1, done / this.total);
    if (fraction - this.lastReported >= 0.01) {
      this.lastReported = fraction;
      onProgress(fraction);
    }
  }

  finish(): void {
    this.check();
    if (this.lastReported < 1) this.ctx.onProgress?.(1);
  }
}

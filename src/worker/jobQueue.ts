import { yieldToMessages } from './yieldToMessages';

/**
 * The chunk worker's job bookkeeping (design.md's worker rules): every chunk job has an id, the newest one wins, a
 * job overtaken by a newer one stops at its next await (its answer would be dropped) and work done after a job
 * (token counts, language windows) gives up as soon as a newer job is waiting. Calls that touch the document or run
 * jobs are applied strictly one after another, in arrival order (chunk() may await).
 */

/** A job that is running: its id and the signal its embed calls and chunk() watch. */
export interface RunningJob {
  jobId: number;
  abort: AbortController;
}

/** Work after a job in time slices: `over()` says the slice is spent; `next()` lets queued messages in and starts
 * the next slice, false when a newer chunk job arrived meanwhile (the work is for chunks nobody sees any more). */
export interface Slices {
  over(): boolean;
  next(): Promise<boolean>;
}

/** Token counting and language detection work in slices this long, then let queued messages in. */
export const SLICE_MS = 6;

export class JobQueue {
  /** Highest chunk job id received so far (set as soon as the call arrives, before it runs). */
  newest = 0;
  /** The job running now (a chunk job, or an export recomputing an old job's chunks). */
  current: RunningJob | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `run` after every call queued before it; a failure fails only its own call. */
  inOrder<T>(run: () => Promise<T> | T): Promise<T> {
    const next = this.tail.then(run);
    this.tail = next.catch(() => {});
    return next;
  }

  /** A chunk job arrived (before it is queued): it is the newest, and a running older job stops waiting. */
  arrived(jobId: number): void {
    this.newest = Math.max(this.newest, jobId);
    if (this.current && this.current.jobId < jobId) this.current.abort.abort();
  }

  /** A newer job waits in the page: every job up to `jobId` is stale, and a running one stops waiting. */
  supersede(jobId: number): void {
    this.newest = Math.max(this.newest, jobId + 1);
    if (this.current && this.current.jobId <= jobId) this.current.abort.abort();
  }

  /** Whether a newer chunk job than `jobId` arrived: `jobId`'s answer would be dropped by the page. */
  isStale(jobId: number): boolean {
    return this.newest > jobId;
  }

  /** Marks `jobId` as running; `abortIfStale` stops it at once when a newer job already arrived. */
  begin(jobId: number, abortIfStale: boolean): RunningJob {
    const abort = new AbortController();
    if (abortIfStale && this.isStale(jobId)) abort.abort();
    this.current = { jobId, abort };
    return this.current;
  }

  /** `jobId` is done (a later begin may already have replaced it: then nothing changes). */
  end(jobId: number): void {
    if (this.current?.jobId === jobId) this.current = null;
  }

  /** Time slices for work after job `jobId` (see Slices). */
  slicesFor(jobId: number, sliceMs = SLICE_MS): Slices {
    let started = performance.now();
    return {
      over: () => performance.now() - started > sliceMs,
      next: async () => {
        await yieldToMessages();
        started = performance.now();
        return !this.isStale(jobId);
      },
    };
  }
}

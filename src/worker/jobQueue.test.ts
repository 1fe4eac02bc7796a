import { describe, expect, it } from 'vitest';
import { JobQueue } from './jobQueue';

describe('JobQueue', () => {
  it('runs queued calls one after another in arrival order, a failure failing only its own call', async () => {
    const jobs = new JobQueue();
    const log: string[] = [];
    const slow = jobs.inOrder(async () => {
      await new Promise((r) => setTimeout(r, 20));
      log.push('slow');
      return 1;
    });
    const failing = jobs.inOrder(() => {
      log.push('failing');
      throw new Error('boom');
    });
    const quick = jobs.inOrder(() => (log.push('quick'), 3));
    await expect(slow).resolves.toBe(1);
    await expect(failing).rejects.toThrow('boom');
    await expect(quick).resolves.toBe(3);
    expect(log).toEqual(['slow', 'failing', 'quick']);
  });

  it('chunk: a job that arrives is the newest at once, and a running older job stops waiting', () => {
    const jobs = new JobQueue();
    const running = jobs.begin(3, true);
    jobs.arrived(2); // an older id (out of order) changes nothing
    expect(jobs.newest).toBe(2);
    expect(running.abort.signal.aborted).toBe(false);
    jobs.arrived(5);
    expect(jobs.newest).toBe(5);
    expect(running.abort.signal.aborted).toBe(true);
    jobs.arrived(4); // newest never goes back
    expect(jobs.newest).toBe(5);
    expect(jobs.isStale(4)).toBe(true);
    expect(jobs.isStale(5)).toBe(false);
  });

  it('a chunk job that starts after a newer one arrived is stopped at once; an export of an old job is not', () => {
    const jobs = new JobQueue();
    jobs.arrived(7);
    expect(jobs.begin(6, true).abort.signal.aborted).toBe(true);
    expect(jobs.begin(7, true).abort.signal.aborted).toBe(false);
    expect(jobs.begin(2, false).abort.signal.aborted).toBe(false);
  });

  it('supersede: every job up to the id is stale and a running one of at most that id stops', () => {
    const jobs = new JobQueue();
    jobs.arrived(4);
    const running = jobs.begin(4, true);
    jobs.supersede(3);
    expect(running.abort.signal.aborted).toBe(false);
    expect(jobs.newest).toBe(4);
    jobs.supersede(4);
    expect(running.abort.signal.aborted).toBe(true);
    expect(jobs.isStale(4)).toBe(true);
    expect(jobs.isStale(5)).toBe(false);
  });

  it('end clears only the job that is running', () => {
    const jobs = new JobQueue();
    jobs.begin(1, true);
    const second = jobs.begin(2, true);
    jobs.end(1);
    expect(jobs.current).toBe(second);
    jobs.end(2);
    expect(jobs.current).toBeNull();
  });

  it('slices: a spent slice yields to queued messages and says whether the job is still the newest', async () => {
    const jobs = new JobQueue();
    jobs.arrived(1);
    const slices = jobs.slicesFor(1, 0);
    const start = performance.now();
    while (performance.now() === start) {
      /* let the clock move past a zero-length slice */
    }
    expect(slices.over()).toBe(true);
    expect(await slices.next()).toBe(true);
    // A message queued meanwhile (a newer job) is seen at the next yield.
    setTimeout(() => jobs.arrived(2), 0);
    expect(await slices.next()).toBe(false);
    expect(jobs.slicesFor(2, 1000).over()).toBe(false);
  });
});

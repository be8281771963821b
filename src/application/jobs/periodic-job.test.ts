import { describe, expect, it } from 'vitest';
import { PeriodicJob } from './periodic-job.js';

/** Work whose runs end when the test says so. */
function controlledWork() {
  const releases: Array<() => void> = [];
  let started = 0;
  const work = () => {
    started++;
    return new Promise<number>((resolve) => releases.push(() => resolve(started)));
  };
  return { work, releases, started: () => started };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PeriodicJob', () => {
  it('runs one at a time: runOnce joins the run in progress', async () => {
    const { work, releases, started } = controlledWork();
    const job = new PeriodicJob(work, { intervalMs: 0, onError: () => undefined });
    const first = job.runOnce();
    const joined = job.runOnce();
    expect(joined).toBe(first);
    expect(started()).toBe(1);
    releases[0]!();
    expect(await first).toBe(1);
  });

  it('a background run asked for during a run happens once after it, whoever started that run', async () => {
    const { work, releases, started } = controlledWork();
    const job = new PeriodicJob(work, { intervalMs: 0, onError: () => undefined });
    const first = job.runOnce();
    job.runInBackground();
    job.runInBackground();
    expect(started()).toBe(1);
    releases[0]!();
    await first;
    await settle();
    expect(started()).toBe(2);
    releases[1]!();
    await settle();
    expect(started()).toBe(2);
  });

  it('reports a failed background run to onError, and close waits for the run and stops new ones', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let runs = 0;
    const job = new PeriodicJob(
      async () => {
        runs++;
        if (fail) throw new Error('store down');
        return runs;
      },
      { intervalMs: 0, onError: (error) => errors.push(error) },
    );
    job.runInBackground();
    await settle();
    expect(errors.map((error) => (error as Error).message)).toEqual(['store down']);
    fail = false;
    await job.close();
    job.runInBackground();
    await settle();
    expect(runs).toBe(1);
  });
});

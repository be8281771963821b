/**
 * The background job that keeps the hourly endpoint rollup current: at start it marks hours that
 * hold rows but are unknown to the rollup (data older than the rollup, or loaded around ingest),
 * then every interval it rolls the hours due (marked since their last roll, ended ROLL_SETTLE_MS
 * ago), oldest first. Several processes may run it: a hour rolled twice is still right.
 */
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import { dueHours, markUnknownHours, rollHour } from '../../store/telemetry/queries/rollups.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

/** Hours rolled per batch; the job loops until none is due. */
const BATCH = 100;

/** Resolves runOnce() with the number of hours rolled. */
export class RollupJob extends PeriodicJob<number> {
  constructor(engine: TelemetryEngine, options: PeriodicJobOptions) {
    let started = false;
    super(async (closing) => {
      if (!started) {
        await markUnknownHours(engine);
        started = true;
      }
      let rolled = 0;
      for (;;) {
        const due = await dueHours(engine, BATCH);
        for (const { projectId, hour } of due) {
          if (closing()) return rolled;
          await rollHour(engine, projectId, hour);
          rolled++;
        }
        if (due.length < BATCH) return rolled;
      }
    }, options);
  }
}

/**
 * The background job that keeps the hourly endpoint rollup current: at start it marks hours that
 * hold rows but are unknown to the rollup (data older than the rollup, or loaded around ingest),
 * then every interval it rolls the hours due (marked since their last roll, ended ROLL_SETTLE_MS
 * ago), oldest first. Several processes may run it: a hour rolled twice is still right.
 */
import type { TelemetryEngine } from '../store/telemetry/engine.js';
import { dueHours, markUnknownHours, rollHour } from '../store/telemetry/queries/rollups.js';

/** Hours rolled per batch; the job loops until none is due. */
const BATCH = 100;

export interface RollupJobOptions {
  intervalMs: number;
  onError: (error: unknown) => void;
}

export class RollupJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private started = false;
  private closing = false;

  constructor(
    private readonly engine: TelemetryEngine,
    private readonly options: RollupJobOptions,
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runOnce().catch(this.options.onError), this.options.intervalMs);
    this.timer.unref();
    void this.runOnce().catch(this.options.onError);
  }

  /** Rolls every hour due now; resolves with how many were rolled. One run at a time. */
  runOnce(): Promise<number> {
    this.running ??= this.roll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async roll(): Promise<number> {
    if (!this.started) {
      await markUnknownHours(this.engine);
      this.started = true;
    }
    let rolled = 0;
    for (;;) {
      const due = await dueHours(this.engine, BATCH);
      for (const { projectId, hour } of due) {
        if (this.closing) return rolled;
        await rollHour(this.engine, projectId, hour);
        rolled++;
      }
      if (due.length < BATCH) return rolled;
    }
  }
}

/**
 * A background job that runs its work at start and then every interval, one run at a time:
 * `runOnce()` joins the run in progress or starts one (tests and callers that want the work done
 * now use it), and `close()` stops the timer and waits for the run. Several processes may run
 * the same job: the work must be safe to repeat.
 */
export interface PeriodicJobOptions {
  /** 0 or less: never on a timer (runOnce still works). */
  intervalMs: number;
  onError: (error: unknown) => void;
}

export class PeriodicJob<Result> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<Result> | null = null;
  private closing = false;
  /** A background run was asked for while one was in progress. */
  private again = false;

  constructor(
    /** The work; `closing()` turns true once close() is called, to stop between steps. */
    private readonly work: (closing: () => boolean) => Promise<Result>,
    private readonly options: PeriodicJobOptions,
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.runInBackground(), this.options.intervalMs);
    this.timer.unref();
    this.runInBackground();
  }

  /**
   * Runs the work soon, in the background: now, or once the run in progress ends (which may have
   * begun before what this caller wants done). Failures go to onError.
   */
  runInBackground(): void {
    if (this.closing) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runOnce().catch(this.options.onError);
  }

  /** Joins the run in progress, or starts one. */
  runOnce(): Promise<Result> {
    this.running ??= this.work(() => this.closing).finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.runInBackground();
      }
    });
    return this.running;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}

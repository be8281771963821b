/**
 * Admission gate: bounds the ingest requests processed at once. A request beyond the bound waits
 * for a slot up to `queueWaitMs`, then is refused with 503 + Retry-After so the client keeps its
 * frames and retries; waiting requests are themselves bounded.
 */
import { serviceUnavailable } from './errors.js';

export interface AdmissionOptions {
  /** Names the work in the 503 message, e.g. "ingest". */
  name?: string;
  maxConcurrency: number;
  queueWaitMs: number;
  /** Waiting requests beyond this are refused at once. */
  maxWaiting?: number;
}

export class AdmissionGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly maxWaiting: number;

  constructor(private readonly options: AdmissionOptions) {
    this.maxWaiting = options.maxWaiting ?? options.maxConcurrency * 4;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Resolves with a release function once a slot is held; throws a 503 HttpError otherwise. */
  async acquire(): Promise<() => void> {
    if (this.active < this.options.maxConcurrency) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxWaiting || this.options.queueWaitMs === 0) throw this.saturated();
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(this.saturated());
      }, this.options.queueWaitMs);
      this.waiting.push(grant);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else this.active--;
    };
  }

  private saturated(): Error {
    return serviceUnavailable(`${this.options.name ?? 'ingest'} is at capacity, retry shortly`, 1);
  }
}

/**
 * A native report client written to the spec's "Recommended client behaviour", for tests that
 * prove the service loses nothing a well-behaved client sends.
 *
 * - Connection string `<token>@<url>`, split on the first `@`: bearer token, then the full URL.
 * - Records go into the current frame. Every rotation tick (default 5 s) moves a non-empty current
 *   frame into a ring buffer of 12 frames (the oldest is overwritten when it is full, and counted),
 *   then gzips every queued frame as one payload and posts it, at most one upload at a time and
 *   with a minimum gap between uploads (default 2 s).
 * - On 200 exactly the frames that were sent leave the queue (frames queued meanwhile stay); on
 *   413 they are dropped, never re-queued; on anything else (network error, 429, 503, other 5xx,
 *   other statuses) they stay for the next tick.
 * - `flush()` is the shutdown path: stop ticking, queue the current frame, upload what is queued.
 *
 * Uploads go through Node's global fetch (undici) to a real socket. Every upload is recorded in
 * `uploads`, so tests can see what the service answered and when.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);

export interface ConnectionString {
  token: string;
  url: string;
}

/** Splits `<token>@<url>` on the first `@`: the URL may itself contain `@` (credentials, paths). */
export function parseConnectionString(connectionString: string): ConnectionString {
  const at = connectionString.indexOf('@');
  if (at <= 0 || at === connectionString.length - 1) throw new Error('a connection string is <token>@<url>');
  return { token: connectionString.slice(0, at), url: connectionString.slice(at + 1) };
}

export interface Frame {
  stackTraces: unknown[];
  metrics: unknown[];
  traces: unknown[];
}

export interface ReportClientOptions {
  connectionString: string;
  appVersion?: string;
  serverName?: string;
  /** Frame rotation interval (spec default 5 s). */
  rotationMs?: number;
  /** Minimum gap between the starts of two uploads (spec default 2 s). */
  minUploadGapMs?: number;
  /** Ring buffer size in frames (spec default 12). */
  queueFrames?: number;
  /** An upload with no answer after this long is abandoned as a network failure. */
  uploadTimeoutMs?: number;
}

export interface Upload {
  /** performance.now() when the upload started and when its outcome was known. */
  startedAt: number;
  finishedAt: number;
  frames: Frame[];
  /** HTTP status, or null for a network failure (refused, reset, timed out). */
  status: number | null;
  retryAfter: string | null;
  /** What happened to the frames: removed (200), dropped (413) or kept for the next tick. */
  outcome: 'removed' | 'dropped' | 'kept';
  error?: string;
}

const emptyFrame = (): Frame => ({ stackTraces: [], metrics: [], traces: [] });
const isEmpty = (frame: Frame): boolean =>
  frame.traces.length === 0 && frame.stackTraces.length === 0 && frame.metrics.length === 0;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class ReportClient {
  readonly token: string;
  readonly url: string;
  readonly uploads: Upload[] = [];
  /** Frames lost because the ring buffer was full when a new frame rotated in. */
  overwrittenFrames = 0;
  /** Frames dropped because their payload was answered 413. */
  droppedFrames = 0;

  private readonly appVersion: string;
  private readonly serverName: string;
  private readonly rotationMs: number;
  private readonly minUploadGapMs: number;
  private readonly queueFrames: number;
  private readonly uploadTimeoutMs: number;
  private current: Frame = emptyFrame();
  private readonly queue: Frame[] = [];
  private inFlight: Promise<void> | null = null;
  private lastUploadAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(options: ReportClientOptions) {
    ({ token: this.token, url: this.url } = parseConnectionString(options.connectionString));
    this.appVersion = options.appVersion ?? '';
    this.serverName = options.serverName ?? '';
    this.rotationMs = options.rotationMs ?? 5000;
    this.minUploadGapMs = options.minUploadGapMs ?? 2000;
    this.queueFrames = options.queueFrames ?? 12;
    this.uploadTimeoutMs = options.uploadTimeoutMs ?? 30_000;
  }

  addTrace(trace: unknown): void {
    this.current.traces.push(trace);
  }

  addException(exception: unknown): void {
    this.current.stackTraces.push(exception);
  }

  addMetric(metric: unknown): void {
    this.current.metrics.push(metric);
  }

  /** Frames waiting to be sent (not counting the current one). */
  get queued(): number {
    return this.queue.length;
  }

  /** Starts the rotation ticks. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.rotationMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * One rotation tick: queue the current frame, then start an upload of every queued frame unless
   * one is in flight or the last one started less than the minimum gap ago. Resolves when the
   * upload it started (if any) has its outcome.
   */
  tick(): Promise<void> {
    this.rotate();
    if (this.inFlight || this.queue.length === 0 || performance.now() - this.lastUploadAt < this.minUploadGapMs)
      return Promise.resolve();
    const upload = this.upload([...this.queue]).finally(() => {
      this.inFlight = null;
    });
    this.inFlight = upload;
    return upload;
  }

  /**
   * Shutdown: stops ticking, queues the current frame and uploads the queue, up to `attempts`
   * times one rotation interval apart while uploads fail. Answers whether everything was sent.
   */
  async flush(attempts = 1): Promise<boolean> {
    this.stop();
    this.rotate();
    for (let attempt = 0; attempt < attempts && this.queue.length > 0; attempt++) {
      if (attempt > 0) await delay(this.rotationMs);
      if (this.inFlight) await this.inFlight;
      const wait = this.lastUploadAt + this.minUploadGapMs - performance.now();
      if (wait > 0) await delay(wait);
      if (this.queue.length > 0) await this.tick();
    }
    return this.queue.length === 0 && isEmpty(this.current);
  }

  private rotate(): void {
    if (isEmpty(this.current)) return;
    if (this.queue.length === this.queueFrames) {
      this.queue.shift();
      this.overwrittenFrames++;
    }
    this.queue.push(this.current);
    this.current = emptyFrame();
  }

  private async upload(frames: Frame[]): Promise<void> {
    const startedAt = performance.now();
    this.lastUploadAt = startedAt;
    const body = await gzip(
      JSON.stringify({ collectionFrames: frames, appVersion: this.appVersion, serverName: this.serverName }),
    );
    let status: number | null = null;
    let retryAfter: string | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.token}`,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
        body,
        signal: AbortSignal.timeout(this.uploadTimeoutMs),
      });
      // Read the answer to its end so the connection returns to the pool.
      await response.arrayBuffer();
      status = response.status;
      retryAfter = response.headers.get('retry-after');
    } catch (failure) {
      error = String((failure as Error).cause ?? failure);
    }
    let outcome: Upload['outcome'] = 'kept';
    if (status === 200 || status === 413) {
      // Only the frames of this payload: frames that rotated in meanwhile stay, and a sent frame
      // the ring buffer has overwritten meanwhile is already gone.
      const sent = new Set(frames);
      for (let i = this.queue.length - 1; i >= 0; i--) if (sent.has(this.queue[i]!)) this.queue.splice(i, 1);
      if (status === 200) outcome = 'removed';
      else {
        outcome = 'dropped';
        this.droppedFrames += frames.length;
      }
    }
    this.uploads.push({
      startedAt,
      finishedAt: performance.now(),
      frames,
      status,
      retryAfter,
      outcome,
      ...(error === undefined ? {} : { error }),
    });
  }
}

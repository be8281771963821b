/**
 * Shared state between processes: rate limits, cached values with a TTL, counters, and a message
 * bus for cache invalidation (e.g. a rotated project token). `memory` serves one process; `redis`
 * is needed as soon as there is more than one.
 */
export interface CoordStore {
  readonly engine: 'memory' | 'redis';
  /**
   * Sliding-window log: allows at most `limit` calls per `key` within any `windowMs`. A denied
   * call is not counted. `retryAfterMs` (0 when allowed) is when the oldest counted call leaves
   * the window, so "try again in Ns" is exact (`Math.ceil(retryAfterMs / 1000)`).
   * Rate-limit state lives apart from get/set/incrBy keys of the same name.
   */
  rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  get(key: string): Promise<string | null>;
  /** Every value expires: `ttlMs` is a positive integer. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds `n` (an integer, may be negative) and returns the new value. The TTL is set when the counter is created and not extended by later calls. */
  incrBy(key: string, n: number, ttlMs: number): Promise<number>;
  /** Delivers `message` to every subscriber of `channel`, in this and (redis) other processes. At most once; no history. */
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; the returned function unsubscribes this handler. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Calls still allowed in the current window after this one. */
  remaining: number;
  retryAfterMs: number;
}

/** Where a subscriber handler's exception goes; it never reaches the publisher. */
export type HandlerErrorSink = (err: unknown, channel: string) => void;

export const defaultHandlerErrorSink: HandlerErrorSink = (err, channel) => {
  process.emitWarning(
    `coord subscriber on channel "${channel}" threw: ${err instanceof Error ? err.stack : String(err)}`,
  );
};

export function checkRateLimitArgs(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  checkTtl(windowMs, 'windowMs');
}

export function checkTtl(ms: number, name = 'ttlMs'): void {
  if (!Number.isInteger(ms) || ms < 1)
    throw new RangeError(`${name} must be a positive integer of milliseconds, got ${ms}`);
}

export function checkIncrement(n: number): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`increment must be a safe integer, got ${n}`);
}

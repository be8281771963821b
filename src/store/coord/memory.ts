import {
  checkIncrement,
  checkRateLimitArgs,
  checkTtl,
  defaultHandlerErrorSink,
  type CoordStore,
  type HandlerErrorSink,
  type RateLimitResult,
} from './types.js';

export interface MemoryCoordStoreOptions {
  /** Clock in epoch milliseconds; tests inject a fake one. Default `Date.now`. */
  now?: () => number;
  /** Upper bound on stored keys (values, counters and rate-limit logs together); the oldest written is evicted first. Default 100 000. */
  maxEntries?: number;
  /** How often expired keys are swept; 0 disables the timer (expired keys are still never returned). Default 60 000. */
  sweepIntervalMs?: number;
  onHandlerError?: HandlerErrorSink;
}

type Entry = { kind: 'value'; value: string; expiresAt: number } | { kind: 'log'; times: number[]; expiresAt: number };

/** Single-process coordination: everything lives in one bounded Map. */
export class MemoryCoordStore implements CoordStore {
  readonly engine = 'memory' as const;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly onHandlerError: HandlerErrorSink;
  /** `v:<key>` for values and counters, `rl:<key>` for rate-limit logs; insertion order = write order. */
  private readonly entries = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(options: MemoryCoordStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.onHandlerError = options.onHandlerError ?? defaultHandlerErrorSink;
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) this.sweeper = setInterval(() => this.sweep(), every).unref();
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    checkRateLimitArgs(limit, windowMs);
    const now = this.now();
    const entry = this.live(`rl:${key}`, now);
    const times = (entry?.kind === 'log' ? entry.times : []).filter((t) => t > now - windowMs);
    if (times.length >= limit) {
      const oldest = times[times.length - limit] ?? now;
      this.write(`rl:${key}`, { kind: 'log', times, expiresAt: (times[times.length - 1] ?? now) + windowMs });
      return { allowed: false, remaining: 0, retryAfterMs: oldest + windowMs - now };
    }
    times.push(now);
    this.write(`rl:${key}`, { kind: 'log', times, expiresAt: now + windowMs });
    return { allowed: true, remaining: limit - times.length, retryAfterMs: 0 };
  }

  async get(key: string): Promise<string | null> {
    const entry = this.live(`v:${key}`, this.now());
    return entry?.kind === 'value' ? entry.value : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkTtl(ttlMs);
    this.write(`v:${key}`, { kind: 'value', value, expiresAt: this.now() + ttlMs });
  }

  async del(key: string): Promise<void> {
    this.entries.delete(`v:${key}`);
  }

  async incrBy(key: string, n: number, ttlMs: number): Promise<number> {
    checkIncrement(n);
    checkTtl(ttlMs);
    const now = this.now();
    const entry = this.live(`v:${key}`, now);
    const current = entry?.kind === 'value' ? Number(entry.value) : 0;
    if (!Number.isSafeInteger(current)) throw new TypeError(`value of "${key}" is not an integer`);
    const next = current + n;
    this.write(`v:${key}`, { kind: 'value', value: String(next), expiresAt: entry?.expiresAt ?? now + ttlMs });
    return next;
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of [...(this.channels.get(channel) ?? [])]) {
      queueMicrotask(() => {
        try {
          handler(message);
        } catch (err) {
          this.onHandlerError(err, channel);
        }
      });
    }
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    // A fresh wrapper per call, so subscribing the same function twice gives two independent subscriptions.
    const wrapper = (message: string) => handler(message);
    const handlers = this.channels.get(channel) ?? new Set();
    handlers.add(wrapper);
    this.channels.set(channel, handlers);
    return async () => {
      handlers.delete(wrapper);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
    };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.channels.clear();
  }

  /** Removes expired entries; called by the timer, exposed for tests. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, entry: Entry): void {
    this.entries.delete(key); // re-insert at the end: eviction order is write order
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}

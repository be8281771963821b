import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  checkIncrement,
  checkRateLimitArgs,
  checkTtl,
  defaultHandlerErrorSink,
  type CoordStore,
  type HandlerErrorSink,
  type RateLimitResult,
} from './types.js';

export interface RedisCoordStoreOptions {
  /** `redis://[[user]:password@]host:port[/db]` or `rediss://...` for TLS. */
  url: string;
  /** Prepended to every key and channel so deployments and test runs can share one Redis. Default `sightline:`. */
  keyPrefix?: string;
  /** Default 5000. */
  connectTimeoutMs?: number;
  onHandlerError?: HandlerErrorSink;
}

/**
 * Sliding-window log in a sorted set, one member per allowed call, scored by the server's clock
 * (TIME), so every process shares one clock. Atomic because it is one script.
 * Returns {allowed, remaining, retryAfterMs}.
 */
const RATE_LIMIT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  return {0, 0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - count - 1, 0}
`;

/** Counter whose TTL is set only when it is created. */
const INCR_BY_LUA = `
redis.call('SET', KEYS[1], 0, 'PX', ARGV[2], 'NX')
return redis.call('INCRBY', KEYS[1], ARGV[1])
`;

interface Scripts {
  sightlineRateLimit(key: string, limit: number, windowMs: number, member: string): Promise<[number, number, number]>;
  sightlineIncrBy(key: string, n: number, ttlMs: number): Promise<number>;
}

interface Channel {
  handlers: Set<(message: string) => void>;
  ready: Promise<unknown>;
}

export class RedisCoordStore implements CoordStore {
  readonly engine = 'redis' as const;
  private readonly client: Redis & Scripts;
  private readonly prefix: string;
  private readonly onHandlerError: HandlerErrorSink;
  /** Subscriber-mode connection, opened on the first subscribe (a subscribed connection cannot run other commands). */
  private subscriber: Redis | undefined;
  private readonly channels = new Map<string, Channel>();

  constructor(options: RedisCoordStoreOptions) {
    this.prefix = options.keyPrefix ?? 'sightline:';
    this.onHandlerError = options.onHandlerError ?? defaultHandlerErrorSink;
    const client = new Redis(options.url, {
      connectTimeout: options.connectTimeoutMs ?? 5000,
      maxRetriesPerRequest: 3, // a call fails after about three reconnect attempts instead of hanging
    });
    // Connection errors reach callers through the failed commands (and ping); without a listener ioredis logs them.
    client.on('error', () => {});
    client.defineCommand('sightlineRateLimit', { numberOfKeys: 1, lua: RATE_LIMIT_LUA });
    client.defineCommand('sightlineIncrBy', { numberOfKeys: 1, lua: INCR_BY_LUA });
    this.client = client as Redis & Scripts;
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    checkRateLimitArgs(limit, windowMs);
    const member = randomBytes(9).toString('base64');
    const [allowed, remaining, retryAfterMs] = await this.client.sightlineRateLimit(
      `${this.prefix}rl:${key}`,
      limit,
      windowMs,
      member,
    );
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(`${this.prefix}v:${key}`);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkTtl(ttlMs);
    await this.client.set(`${this.prefix}v:${key}`, value, 'PX', ttlMs);
  }

  async del(key: string): Promise<void> {
    await this.client.del(`${this.prefix}v:${key}`);
  }

  async incrBy(key: string, n: number, ttlMs: number): Promise<number> {
    checkIncrement(n);
    checkTtl(ttlMs);
    return this.client.sightlineIncrBy(`${this.prefix}v:${key}`, n, ttlMs);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.client.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    const sub = this.subscriberConnection();
    const wrapper = (message: string) => handler(message);
    let entry = this.channels.get(channel);
    if (entry === undefined) {
      entry = { handlers: new Set(), ready: sub.subscribe(this.prefix + channel) };
      this.channels.set(channel, entry);
    }
    entry.handlers.add(wrapper);
    const current = entry;
    try {
      await current.ready;
    } catch (err) {
      current.handlers.delete(wrapper);
      if (this.channels.get(channel) === current) this.channels.delete(channel);
      throw err;
    }
    return async () => {
      if (!current.handlers.delete(wrapper) || current.handlers.size > 0) return;
      if (this.channels.get(channel) !== current) return;
      this.channels.delete(channel);
      await sub.unsubscribe(this.prefix + channel);
    };
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    this.channels.clear();
    // quit() lets pending replies arrive; a connection that is down is simply dropped.
    await Promise.all([this.client, this.subscriber].map((c) => c?.quit().catch(() => c.disconnect())));
  }

  private subscriberConnection(): Redis {
    if (this.subscriber !== undefined) return this.subscriber;
    const sub = this.client.duplicate();
    sub.on('error', () => {});
    sub.on('message', (prefixed: string, message: string) => {
      if (!prefixed.startsWith(this.prefix)) return;
      const channel = prefixed.slice(this.prefix.length);
      for (const handler of [...(this.channels.get(channel)?.handlers ?? [])]) {
        try {
          handler(message);
        } catch (err) {
          this.onHandlerError(err, channel);
        }
      }
    });
    this.subscriber = sub;
    return sub;
  }
}

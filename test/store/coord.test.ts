import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCoordStore, MemoryCoordStore, RedisCoordStore } from '../../src/store/coord/index.js';
import { coordStoreContract } from './coord-store.contract.js';

// ---------------------------------------------------------------- memory (fake clock)

coordStoreContract(
  'memory',
  async () => {
    let now = 1_700_000_000_000;
    const handlerErrors: unknown[] = [];
    const store = createCoordStore({
      engine: 'memory',
      now: () => now,
      onHandlerError: (err) => handlerErrors.push(err),
    });
    return {
      store,
      advance: async (ms) => {
        now += ms;
      },
      slackMs: 0,
      handlerErrors,
    };
  },
  { perProcess: true },
);

describe('coord store: memory (engine specifics)', () => {
  it('memory: holds at most maxEntries keys, evicting the oldest written', async () => {
    const store = new MemoryCoordStore({ maxEntries: 3, sweepIntervalMs: 0 });
    for (const k of ['a', 'b', 'c']) await store.set(k, k, 60_000);
    await store.set('a', 'a2', 60_000); // rewriting makes it the newest
    await store.rateLimit('ip', 5, 60_000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeNull();
    expect(await store.get('a')).toBe('a2');
    expect(await store.get('c')).toBe('c');
    await store.close();
  });

  it('memory: sweep drops expired keys that nobody reads again', async () => {
    let now = 0;
    const store = new MemoryCoordStore({ now: () => now, sweepIntervalMs: 0 });
    await store.set('short', '1', 100);
    await store.incrBy('counter', 1, 100);
    await store.rateLimit('ip', 1, 100);
    await store.set('long', '1', 10_000);
    now = 100;
    store.sweep();
    expect(store.size).toBe(1);
    await store.close();
  });
});

// ---------------------------------------------------------------- redis (real server)

const REDIS_ADDRESS = '127.0.0.1:6379';
const redisUrl = `redis://${REDIS_ADDRESS}`;
const runPrefix = `sightline-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

const admin = new Redis(redisUrl, {
  lazyConnect: true,
  connectTimeout: 2000,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
admin.on('error', () => {});
const redisReachable = await admin
  .connect()
  .then(() => admin.ping())
  .then(() => true)
  .catch(() => false);
if (!redisReachable) console.warn(`coord store: redis cases SKIPPED — no Redis reachable at ${REDIS_ADDRESS}`);

afterAll(async () => {
  if (!redisReachable) return;
  // Remove every key this run created.
  for (let cursor = '0'; ; ) {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 500);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  await admin.quit();
});

if (redisReachable) {
  let n = 0;
  coordStoreContract('redis', async () => {
    const keyPrefix = `${runPrefix}${++n}:`;
    const handlerErrors: unknown[] = [];
    const make = () =>
      createCoordStore({ engine: 'redis', url: redisUrl, keyPrefix, onHandlerError: (err) => handlerErrors.push(err) });
    return {
      store: make(),
      advance: (ms) => new Promise((r) => setTimeout(r, ms)),
      slackMs: 150,
      handlerErrors,
      peer: async () => make(),
    };
  });

  describe('coord store: redis (engine specifics)', () => {
    it('redis: keys and channels carry the key prefix, so runs sharing a Redis stay apart', async () => {
      const one = new RedisCoordStore({ url: redisUrl, keyPrefix: `${runPrefix}iso-1:` });
      const two = new RedisCoordStore({ url: redisUrl, keyPrefix: `${runPrefix}iso-2:` });
      await one.set('k', 'one', 60_000);
      expect(await two.get('k')).toBeNull();
      expect(await admin.get(`${runPrefix}iso-1:v:k`)).toBe('one');
      const got: string[] = [];
      const unsub = await two.subscribe('ch', (m) => got.push(m));
      await one.publish('ch', 'not for two');
      await two.publish('ch', 'for two');
      await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual(['for two']);
      await unsub();
      await Promise.all([one.close(), two.close()]);
    });

    it('redis: an unreachable server fails ping instead of hanging', async () => {
      const store = new RedisCoordStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 });
      await expect(store.ping()).rejects.toThrow();
      await store.close().catch(() => {});
    });
  });
} else {
  describe(`coord store: redis (SKIPPED: Redis not reachable at ${REDIS_ADDRESS})`, () => {
    it.skip(`redis: all cases need a Redis server at ${REDIS_ADDRESS}`, () => {});
  });
}

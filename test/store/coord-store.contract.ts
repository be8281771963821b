import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoordStore } from '../../src/store/coord/types.js';

export interface CoordStoreUnderTest {
  store: CoordStore;
  /** Lets `ms` pass for the store: a fake clock jumps, a real one sleeps. */
  advance(ms: number): Promise<void>;
  /** How far the store's clock may drift from `advance` (0 for a fake clock; real clocks round to ms and sleep a little longer). */
  slackMs: number;
  /** A second store on the same backend, as another process would have; required unless the contract runs with perProcess. */
  peer?: () => Promise<CoordStore>;
  /** Where the store sends exceptions of subscriber handlers (its onHandlerError option). */
  handlerErrors: unknown[];
  cleanup?: () => Promise<void>;
}

/**
 * The cases every CoordStore engine must pass. Windows and TTLs are a few hundred ms, so a real clock
 * (Redis) runs them quickly; assertions are about correctness, never about speed.
 */
export function coordStoreContract(
  name: string,
  setup: () => Promise<CoordStoreUnderTest>,
  opts: { perProcess?: boolean } = {},
): void {
  describe(`coord store: ${name}`, () => {
    let t: CoordStoreUnderTest;
    let store: CoordStore;
    beforeEach(async () => {
      t = await setup();
      store = t.store;
    });
    afterEach(async () => {
      await t.cleanup?.();
      await store.close();
    });

    it(`${name}: reports its engine and answers ping`, async () => {
      expect(store.engine).toBe(name);
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it(`${name}: rate limit allows \`limit\` calls, then denies with the time until the oldest leaves the window`, async () => {
      const W = 600;
      expect(await store.rateLimit('ip:1.2.3.4', 3, W)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
      await t.advance(200);
      expect(await store.rateLimit('ip:1.2.3.4', 3, W)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
      expect(await store.rateLimit('ip:1.2.3.4', 3, W)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
      const denied = await store.rateLimit('ip:1.2.3.4', 3, W);
      expect(denied.allowed).toBe(false);
      expect(denied.remaining).toBe(0);
      // The first call was at least 200 ms ago, so it leaves the window in at most W - 200 ms.
      expect(denied.retryAfterMs).toBeGreaterThan(0);
      expect(denied.retryAfterMs).toBeLessThanOrEqual(W - 200 + 2);
      expect(denied.retryAfterMs).toBeGreaterThanOrEqual(W - 200 - t.slackMs);
      // Denied calls are not counted: the wait does not grow.
      const again = await store.rateLimit('ip:1.2.3.4', 3, W);
      expect(again.allowed).toBe(false);
      expect(again.retryAfterMs).toBeLessThanOrEqual(denied.retryAfterMs);
    });

    it(`${name}: rate limit window slides: one slot frees when the oldest call expires`, async () => {
      const W = 500;
      await store.rateLimit('slide', 2, W);
      await t.advance(250);
      await store.rateLimit('slide', 2, W);
      const denied = await store.rateLimit('slide', 2, W);
      expect(denied.allowed).toBe(false);
      await t.advance(denied.retryAfterMs + 5);
      // The first call left the window; the second (250 ms later) is still in it.
      expect(await store.rateLimit('slide', 2, W)).toMatchObject({ allowed: true, remaining: 0 });
      const next = await store.rateLimit('slide', 2, W);
      expect(next.allowed).toBe(false);
      // The second call is at least denied.retryAfterMs + 5 ms old.
      expect(next.retryAfterMs).toBeLessThanOrEqual(W - (denied.retryAfterMs + 5) + 2);
      expect(next.retryAfterMs).toBeGreaterThanOrEqual(W - (denied.retryAfterMs + 5) - t.slackMs);
      await t.advance(W + 5);
      expect(await store.rateLimit('slide', 2, W)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
    });

    it(`${name}: rate limit keys are independent of each other and of get/set keys`, async () => {
      expect((await store.rateLimit('a', 1, 60_000)).allowed).toBe(true);
      expect((await store.rateLimit('a', 1, 60_000)).allowed).toBe(false);
      expect((await store.rateLimit('b', 1, 60_000)).allowed).toBe(true);
      await store.set('a', 'value', 60_000);
      expect(await store.get('a')).toBe('value');
      expect((await store.rateLimit('a', 1, 60_000)).allowed).toBe(false);
      const denied = await store.rateLimit('a', 1, 60_000);
      expect(Math.ceil(denied.retryAfterMs / 1000)).toBeLessThanOrEqual(60);
    });

    it(`${name}: rate limit rejects a non-positive limit or window`, async () => {
      await expect(store.rateLimit('x', 0, 1000)).rejects.toThrow(RangeError);
      await expect(store.rateLimit('x', 1, 0)).rejects.toThrow(RangeError);
      await expect(store.rateLimit('x', 1.5, 1000)).rejects.toThrow(RangeError);
    });

    it(`${name}: set/get/del, and values expire after their TTL`, async () => {
      expect(await store.get('token:tp_1')).toBeNull();
      await store.set('token:tp_1', '{"projectId":1}', 400);
      await store.set('token:tp_2', 'long', 60_000);
      expect(await store.get('token:tp_1')).toBe('{"projectId":1}');
      await store.set('token:tp_1', 'replaced', 400);
      expect(await store.get('token:tp_1')).toBe('replaced');
      await t.advance(400 + t.slackMs + 20);
      expect(await store.get('token:tp_1')).toBeNull();
      expect(await store.get('token:tp_2')).toBe('long');
      await store.del('token:tp_2');
      expect(await store.get('token:tp_2')).toBeNull();
      await expect(store.del('token:never')).resolves.toBeUndefined();
      await expect(store.set('k', 'v', 0)).rejects.toThrow(RangeError);
    });

    it(`${name}: incrBy counts, keeps the TTL of the first call, then starts over`, async () => {
      expect(await store.incrBy('usage:org1:2025-06', 1000, 400)).toBe(1000);
      expect(await store.incrBy('usage:org1:2025-06', 24, 400)).toBe(1024);
      expect(await store.incrBy('usage:org1:2025-06', -4, 400)).toBe(1020);
      expect(await store.incrBy('usage:org2:2025-06', 5, 400)).toBe(5);
      expect(await store.get('usage:org1:2025-06')).toBe('1020');
      await t.advance(250);
      expect(await store.incrBy('usage:org1:2025-06', 1, 400)).toBe(1021); // does not extend the TTL
      await t.advance(150 + t.slackMs + 20);
      expect(await store.get('usage:org1:2025-06')).toBeNull();
      expect(await store.incrBy('usage:org1:2025-06', 7, 400)).toBe(7);
      await expect(store.incrBy('usage:x', 1.5, 400)).rejects.toThrow(RangeError);
    });

    it(`${name}: incrBy handles values beyond 32 bits (monthly ingest bytes)`, async () => {
      expect(await store.incrBy('bytes', 3 * 2 ** 40, 60_000)).toBe(3 * 2 ** 40);
      expect(await store.incrBy('bytes', 2 ** 40, 60_000)).toBe(4 * 2 ** 40);
    });

    it(`${name}: publish reaches every subscriber of the channel until it unsubscribes`, async () => {
      const a: string[] = [];
      const b: string[] = [];
      const other: string[] = [];
      const unsubA = await store.subscribe('project-token', (m) => a.push(m));
      const unsubB = await store.subscribe('project-token', (m) => b.push(m));
      const unsubOther = await store.subscribe('other', (m) => other.push(m));
      await store.publish('project-token', 'rotated:1');
      await waitFor(() => a.length === 1 && b.length === 1);
      expect([a, b, other]).toEqual([['rotated:1'], ['rotated:1'], []]);

      await unsubA();
      await unsubA(); // idempotent
      await store.publish('project-token', 'rotated:2');
      await waitFor(() => b.length === 2);
      await store.publish('other', 'marker'); // delivered in order after rotated:2 on every engine
      await waitFor(() => other.length === 1);
      expect(a).toEqual(['rotated:1']);
      expect(b).toEqual(['rotated:1', 'rotated:2']);

      await unsubB();
      await store.publish('project-token', 'rotated:3');
      await store.publish('other', 'marker2');
      await waitFor(() => other.length === 2);
      expect(b).toEqual(['rotated:1', 'rotated:2']);
      await unsubOther();
    });

    it(`${name}: a throwing subscriber does not stop others or the publisher`, async () => {
      const got: string[] = [];
      const unsub1 = await store.subscribe('c', () => {
        throw new Error('handler failed on purpose');
      });
      const unsub2 = await store.subscribe('c', (m) => got.push(m));
      await expect(store.publish('c', 'm')).resolves.toBeUndefined();
      await waitFor(() => got.length === 1 && t.handlerErrors.length === 1);
      expect(String(t.handlerErrors[0])).toContain('handler failed on purpose');
      await Promise.all([unsub1(), unsub2()]);
    });

    it.skipIf(opts.perProcess === true)(
      `${name}: a second store on the same backend shares state and messages${opts.perProcess === true ? ' (skipped: this engine is per-process)' : ''}`,
      async () => {
        if (t.peer === undefined) throw new Error('setup must provide peer() for an engine shared across processes');
        const peer = await t.peer();
        try {
          const got: string[] = [];
          const unsub = await peer.subscribe('invalidate', (m) => got.push(m));
          await store.publish('invalidate', 'token:tp_9');
          await waitFor(() => got.length === 1);
          await unsub();
          await store.set('shared', 'yes', 60_000);
          expect(await peer.get('shared')).toBe('yes');
          expect((await store.rateLimit('shared-rl', 1, 60_000)).allowed).toBe(true);
          expect((await peer.rateLimit('shared-rl', 1, 60_000)).allowed).toBe(false);
          expect(await peer.incrBy('shared-n', 2, 60_000)).toBe(2);
          expect(await store.incrBy('shared-n', 3, 60_000)).toBe(5);
        } finally {
          await peer.close();
        }
      },
    );
  });
}

/** Polls until `check` holds; fails after 5 s (a correctness bound, not a speed one). */
async function waitFor(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Two service instances sharing PostgreSQL, Redis and one ClickHouse (the HTTP shim over chDB,
 * since chDB allows one data folder per process) run the alert job at the same moments: every
 * notification is delivered exactly once, whichever instance ingested the data. Skipped, with a
 * message naming the address, when PostgreSQL or Redis is not reachable.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { MINUTE, TestClock, bearer, call } from '../../support/access.js';
import { startClickHouseShim, type ClickHouseShim } from '../../support/clickhouse-http-shim.js';
import { startHttpReceiver, type HttpReceiver } from '../../support/http-receiver.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';

const PG = '127.0.0.1:5432';
const REDIS = '127.0.0.1:6379';

async function reachable(): Promise<{ adminUrl: string } | { reason: string }> {
  const client = new pg.Client({ connectionString: `postgres://postgres@${PG}/test`, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return { reason: `no PostgreSQL at ${PG}: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(`redis://${REDIS}`, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    return { reason: `no Redis at ${REDIS}` };
  } finally {
    redis.disconnect();
  }
  return { adminUrl: `postgres://postgres@${PG}/test` };
}

const environment = await reachable();
if ('reason' in environment) console.warn(`alerting multi-process suite SKIPPED — ${environment.reason}`);

describe.skipIf('reason' in environment)('alerting with two processes sharing PostgreSQL and Redis', () => {
  const clock = new TestClock();
  const database = `sightline_alerts_${randomBytes(6).toString('hex')}`;
  const shimDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-alert-shim-'));
  let session: Session;
  let shim: ClickHouseShim;
  let receiver: HttpReceiver;
  let first: TestService;
  let second: TestService;

  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: (environment as { adminUrl: string }).adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    session = new Session(shimDir);
    shim = await startClickHouseShim(session);
    receiver = await startHttpReceiver();
    const env = {
      DATABASE_URL: `postgres://postgres@${PG}/${database}`,
      REDIS_URL: `redis://${REDIS}`,
      REDIS_KEY_PREFIX: `sightline-test-${database}:`,
      CLICKHOUSE_URL: shim.url,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
      ALERTS_INTERVAL_SECONDS: '0',
    };
    first = await startTestService(env, { now: clock.now });
    second = await startTestService(env, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await receiver?.close();
    await shim?.close();
    session?.close();
    fs.rmSync(shimDir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  });

  it('each notification is delivered once, whichever process ingested and however the jobs overlap', async () => {
    const owner = await registerUser(first.app);
    const hook = await call(second.app, {
      method: 'POST',
      url: `/api/alert-channels?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: { name: 'Hook', kind: 'webhook', url: `${receiver.url}/shared` },
    });
    expect(hook.status).toBe(201);
    const rules: string[] = [];
    for (const [name, kind, params] of [
      ['New', 'new_issue', {}],
      ['Frequent', 'issue_frequency', { threshold: 1, windowMinutes: 5 }],
    ] as const) {
      const created = await call(first.app, {
        method: 'POST',
        url: `/api/alert-rules?projectId=${owner.project.id}`,
        headers: bearer(owner.token),
        payload: { name, kind, params, channelIds: [hook.body!.id] },
      });
      expect(created.status, created.raw).toBe(201);
      rules.push(created.body!.id as string);
    }
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      const trace = `SharedError${round}: boom\nworker.run${round}()\n    /srv/worker.go:${round + 1}`;
      const ingest = round % 2 === 0 ? first : second;
      await reportFrame(ingest.app, owner.project.token, {
        stackTraces: [{ stackTrace: trace, recordedAt: new Date(clock.now()).toISOString(), isMessage: false }],
      });
      await ingest.services.issues.idle();
      clock.advance(MINUTE + 1000);
      // Both processes' jobs at once, and a second pass of each: claims must not overlap.
      await Promise.all([
        first.services.alerts.runOnce(),
        second.services.alerts.runOnce(),
        first.services.alerts.evaluateDue(),
        second.services.alerts.deliverDue(),
      ]);
      await Promise.all([first.services.alerts.runOnce(), second.services.alerts.runOnce()]);
      const hash = exceptionHash(trace, false);
      const newIssueHooks = receiver
        .on('/shared')
        .map((request) => JSON.parse(request.body) as { ruleId: string; lines: string[] })
        .filter((body) => body.ruleId === rules[0] && body.lines.some((line) => line.includes(hash)));
      expect(newIssueHooks, `round ${round}`).toHaveLength(1);
    }
    const byRule = (id: string) =>
      receiver.on('/shared').filter((request) => (JSON.parse(request.body) as { ruleId: string }).ruleId === id).length;
    expect(byRule(rules[0]!)).toBe(rounds);
    // The frequency rule fired once (round 0) and stays firing while errors keep coming.
    expect(byRule(rules[1]!)).toBe(1);
    const events = await call(first.app, {
      method: 'GET',
      url: `/api/alert-events?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
    });
    expect(
      (events.body!.items as Array<{ outcome: string }>).filter((event) => event.outcome === 'delivered'),
    ).toHaveLength(rounds + 1);
  });
});

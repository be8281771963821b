/**
 * A client written to the spec's "Recommended client behaviour" (test/support/report-client.ts)
 * against the real service on a loopback socket: it loses nothing and stores nothing twice
 * across a server restart and a period of 503s, it never re-sends a payload answered 413, and
 * it splits its connection string on the first `@`.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApps } from '../../src/server/app.js';
import { openServices } from '../../src/server/services.js';
import type { Services } from '../../src/application/services.js';
import { ReportClient, parseConnectionString, type Upload } from '../support/report-client.js';
import { registerUser } from '../support/service.js';

const MB = 1024 * 1024;
/** A safety net for a loaded CI machine, not a performance threshold. */
const TEST_TIMEOUT_MS = 300_000;

/** One service process on a fixed data folder and port, which the tests stop and start again. */
class Server {
  app!: FastifyInstance;
  services!: Services;
  port = 0;
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-client-'));

  async start(): Promise<void> {
    this.services = await openServices(
      loadConfig({ DATA_DIR: this.dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open' }),
    );
    ({ app: this.app } = await buildApps(this.services));
    await this.app.listen({ host: '127.0.0.1', port: this.port });
    this.port = (this.app.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    await this.app.close();
    await this.services.close();
  }
}

const server = new Server();
let projectId = '';
let projectToken = '';

beforeAll(async () => {
  await server.start();
  const registered = await registerUser(server.app);
  projectId = registered.project.id;
  projectToken = registered.project.token;
});
afterAll(async () => {
  await server.stop().catch(() => undefined);
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const reportUrl = (): string => `http://127.0.0.1:${server.port}/api/report`;

/** Polls until `condition` holds; the test timeout bounds the wait. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const ROUTES = ['GET /api/orders/:id', 'POST /api/orders', 'GET /api/products', 'PUT /api/cart/:id'];
const SPAN_NAMES = ['db.orders.select', 'cache.redis.get', 'http.client.payments.post'];

/** An RFC 3339 timestamp with nanoseconds, `offsetMs` after `at`. */
function timestamp(at: number, offsetMs: number, nanos: number): string {
  return new Date(at + offsetMs).toISOString().replace('Z', `${String(nanos % 1_000_000).padStart(6, '0')}Z`);
}

/** A realistic endpoint trace with 3 spans; every 10th is a 500 with an exception. */
function makeTrace(n: number): { trace: Record<string, unknown>; exception: Record<string, unknown> | null } {
  const id = randomUUID();
  const at = Date.now();
  const failed = n % 10 === 9;
  const trace = {
    id,
    endpoint: ROUTES[n % ROUTES.length],
    duration: 2_000_000 + ((n * 7919) % 40_000_000),
    recordedAt: timestamp(at, 0, n),
    statusCode: failed ? 500 : 200,
    bodySize: 256 + (n % 4096),
    clientIP: `10.1.${n % 256}.${(n >> 8) % 256}`,
    attributes: {
      'user.id': String(n % 500),
      'tenant.id': `tenant-${n % 12}`,
      region: 'eu-central-1',
      'request.id': randomUUID(),
      plan: n % 3 === 0 ? 'pro' : 'free',
    },
    spans: SPAN_NAMES.map((name, s) => ({
      id: randomUUID(),
      name,
      startTime: timestamp(at, s, n + s),
      duration: 100_000 + ((n + s) % 900_000),
    })),
  };
  const exception = failed
    ? {
        traceId: id,
        stackTrace: `*errors.errorString: order ${n} failed\nhandleOrder()\n    /srv/shop/orders.go:${40 + (n % 9)}\n`,
        recordedAt: timestamp(at, 1, n),
        isMessage: false,
      }
    : null;
  return { trace, exception };
}

describe('connection string', () => {
  it('splits on the first @: the token is left of it, the whole rest is the URL', () => {
    expect(parseConnectionString('tok@en@http://h/api/report')).toEqual({
      token: 'tok',
      url: 'en@http://h/api/report',
    });
    expect(parseConnectionString(`${'a'.repeat(32)}@https://user:pw@ingest.example/api/report`)).toEqual({
      token: 'a'.repeat(32),
      url: 'https://user:pw@ingest.example/api/report',
    });
    for (const bad of ['no-at-sign', '@http://h/api/report', 'token@'])
      expect(() => parseConnectionString(bad)).toThrow();
  });
});

describe('report client against the service', () => {
  it(
    'drops a payload answered 413 and never sends it again',
    async () => {
      const client = new ReportClient({
        connectionString: `${projectToken}@${reportUrl()}`,
        serverName: 'client-413',
        minUploadGapMs: 0,
      });
      const bigId = randomUUID();
      // 65 MB of JSON that gzips to about 65 KB: over the cap after decompression only.
      client.addTrace({ ...makeTrace(0).trace, id: bigId, attributes: { blob: 'x'.repeat(65 * MB) } });
      await client.tick();
      expect(client.uploads.map((u) => [u.status, u.outcome, u.frames.length])).toEqual([[413, 'dropped', 1]]);
      const dropped = client.uploads[0]!.frames[0]!;
      expect(client.queued).toBe(0);

      const { trace } = makeTrace(1);
      client.addTrace(trace);
      await client.tick();
      await client.tick(); // nothing queued: no upload
      expect(client.uploads.map((u) => [u.status, u.outcome, u.frames.length])).toEqual([
        [413, 'dropped', 1],
        [200, 'removed', 1],
      ]);
      expect(client.uploads.slice(1).some((u) => u.frames.includes(dropped))).toBe(false);
      expect(client.droppedFrames).toBe(1);

      const stored = await server.services.telemetry.query<{ id: string }>(
        'SELECT toString(id) AS id FROM endpoints FINAL WHERE project_id = {project:UUID} AND server_name = {server:String}',
        { project: projectId, server: 'client-413' },
      );
      expect(stored).toEqual([{ id: trace.id }]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'loses nothing and stores nothing twice across a server restart and a period of 503s',
    async () => {
      const rotationMs = 1000;
      const client = new ReportClient({
        connectionString: `${projectToken}@${reportUrl()}`,
        appVersion: '3.1.4',
        serverName: 'client-restart',
        rotationMs,
        minUploadGapMs: 400,
        uploadTimeoutMs: 20_000,
      });
      const traceIds: string[] = [];
      let exceptions = 0;
      const generator = setInterval(() => {
        const { trace, exception } = makeTrace(traceIds.length);
        traceIds.push(trace.id as string);
        client.addTrace(trace);
        if (exception) {
          client.addException(exception);
          exceptions++;
        }
        if (traceIds.length % 25 === 0)
          client.addMetric({
            name: 'mem.used',
            value: 180 + (traceIds.length % 40) / 3,
            recordedAt: new Date().toISOString(),
          });
      }, 20);
      client.start();
      const delivered = (after: number) => client.uploads.filter((u) => u.startedAt > after && u.status === 200).length;
      const failed = (after: number) => client.uploads.filter((u) => u.startedAt > after && u.status !== 200);

      try {
        await until(() => delivered(0) >= 2);

        // (a) The server restarts: same data folder, same port. The client must see it fail.
        const stoppedAt = performance.now();
        await server.stop();
        await until(() => failed(stoppedAt).length >= 1);
        await server.start();
        const restartedAt = performance.now();
        await until(() => delivered(restartedAt) >= 2);

        // (b) A storage failure: the endpoints table disappears for a while, shorter than the 12
        // rotation intervals the ring buffer holds.
        await server.services.telemetry.command('RENAME TABLE endpoints TO endpoints_parked');
        const parkedAt = performance.now();
        await until(() => client.uploads.filter((u) => u.startedAt > parkedAt && u.status === 503).length >= 2);
        await server.services.telemetry.command('RENAME TABLE endpoints_parked TO endpoints');
        const restoredAt = performance.now();
        await until(() => delivered(restoredAt) >= 2);

        const duringRestart = client.uploads.filter(
          (u) => u.startedAt > stoppedAt && u.startedAt < restartedAt && u.status !== 200,
        );
        const duringOutage = client.uploads.filter((u) => u.startedAt > parkedAt && u.finishedAt < restoredAt);
        const outcomes = (uploads: Upload[]) =>
          uploads.map((u) => `${u.status ?? 'network'}${u.retryAfter ? ` (Retry-After ${u.retryAfter})` : ''}`);
        console.log(
          `report client: ${client.uploads.length} uploads; restart: ${outcomes(duringRestart).join(', ')}; storage outage: ${outcomes(duringOutage).join(', ')}`,
        );
        expect(duringRestart.length).toBeGreaterThanOrEqual(1);
        expect(duringRestart.every((u) => u.outcome === 'kept')).toBe(true);
        // Every answer while the table was gone was a 503 with Retry-After, and the frames stayed.
        expect(duringOutage.length).toBeGreaterThanOrEqual(2);
        for (const upload of duringOutage) {
          expect(upload.status).toBe(503);
          expect(Number(upload.retryAfter)).toBeGreaterThan(0);
          expect(upload.outcome).toBe('kept');
        }
      } finally {
        clearInterval(generator);
      }

      expect(await client.flush(10)).toBe(true);
      expect(client.overwrittenFrames).toBe(0);
      expect(client.droppedFrames).toBe(0);
      expect(client.uploads.some((u) => u.status !== 200 && u.status !== 503 && u.status !== null)).toBe(false);

      // Every trace the client generated is stored exactly once, with its 3 spans.
      const telemetry = server.services.telemetry;
      const scope = { project: projectId, server: 'client-restart' };
      const [endpoints] = await telemetry.query<{ rows: number; ids: number }>(
        'SELECT count() AS rows, uniqExact(id) AS ids FROM endpoints FINAL WHERE project_id = {project:UUID} AND server_name = {server:String}',
        scope,
      );
      const [duplicated] = await telemetry.query<{ ids: number }>(
        `SELECT count() AS ids FROM (SELECT id FROM endpoints FINAL WHERE project_id = {project:UUID} AND server_name = {server:String}
       GROUP BY id HAVING count() != 1)`,
        scope,
      );
      const stored = await telemetry.query<{ id: string }>(
        'SELECT DISTINCT toString(id) AS id FROM endpoints FINAL WHERE project_id = {project:UUID} AND server_name = {server:String}',
        scope,
      );
      const [spans] = await telemetry.query<{ rows: number; ids: number; traces: number }>(
        `SELECT count() AS rows, uniqExact(span_id) AS ids, uniqExact(trace_id) AS traces FROM spans FINAL
       WHERE project_id = {project:UUID} AND trace_id IN {ids:Array(UUID)}`,
        { project: projectId, ids: traceIds },
      );
      const [storedExceptions] = await telemetry.query<{ rows: number }>(
        'SELECT count() AS rows FROM exceptions FINAL WHERE project_id = {project:UUID} AND server_name = {server:String}',
        scope,
      );
      console.log(
        `report client: ${traceIds.length} traces generated, ${endpoints?.ids} stored (${endpoints?.rows} rows), ${spans?.rows} spans, ${storedExceptions?.rows} exceptions`,
      );
      expect(traceIds.length).toBeGreaterThan(0);
      expect(endpoints).toEqual({ rows: traceIds.length, ids: traceIds.length });
      expect(duplicated).toEqual({ ids: 0 });
      expect(new Set(stored.map((row) => row.id))).toEqual(new Set(traceIds));
      expect(spans).toEqual({ rows: 3 * traceIds.length, ids: 3 * traceIds.length, traces: traceIds.length });
      expect(storedExceptions).toEqual({ rows: exceptions });
    },
    TEST_TIMEOUT_MS,
  );
});

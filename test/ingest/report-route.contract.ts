/**
 * POST /api/report through HTTP, read back from the telemetry store: run on both telemetry
 * engines. Field-by-field validation rules are unit-tested beside the parser
 * (src/ingest/report/payload.test.ts); this suite proves what reaches storage.
 */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { usageMonth } from '../../src/ingest/usage.js';
import { projectIngestUsage } from '../../src/store/meta/repositories/ingest-usage.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../support/telemetry-engines.js';

const minute = 60_000;

function isoAgo(ms: number, fraction = ''): string {
  const iso = new Date(Date.now() - ms).toISOString();
  return fraction ? iso.replace(/\.\d{3}Z$/, `.${fraction}Z`) : iso;
}

export function reportRouteContract(engine: TelemetryEngineName): void {
  describe(`POST /api/report on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let token: string;
    let projectId: string;

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env, METRICS_TOKEN: 'report-route-metrics-token' });
      const registered = await registerUser(service.app);
      token = registered.project.token;
      projectId = registered.project.id;
    });
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    const send = (
      body: unknown,
      options: { gzip?: boolean; headers?: Record<string, string>; remoteAddress?: string } = {},
    ) => {
      const json = typeof body === 'string' ? body : JSON.stringify(body);
      const request: InjectOptions = {
        method: 'POST',
        url: '/api/report',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(options.gzip === false ? {} : { 'content-encoding': 'gzip' }),
          ...options.headers,
        },
        payload: options.gzip === false ? json : zlib.gzipSync(json),
        ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      };
      return service.app.inject(request);
    };
    const query = <T>(sql: string, params: Record<string, string> = {}) =>
      service.services.telemetry.query<T>(sql, { project: projectId, ...params });

    it('stores an endpoint with its spans, a task, an exception and a metric, field by field', async () => {
      const traceId = randomUUID();
      const taskId = randomUUID();
      const spanId = randomUUID();
      const recordedAt = isoAgo(minute, '123456789');
      const response = await send({
        appVersion: '2.0.1',
        serverName: 'api-7',
        collectionFrames: [
          {
            traces: [
              {
                id: traceId,
                endpoint: 'GET /users/:id',
                duration: 1_234_567_891,
                recordedAt,
                statusCode: 404,
                bodySize: 321,
                clientIP: '198.51.100.4',
                attributes: { 'user.plan': 'pro' },
                spans: [{ id: spanId, name: 'db.users.select', startTime: recordedAt, duration: 42_000 }],
              },
              {
                id: taskId,
                endpoint: 'send-newsletter',
                duration: 5_000_000,
                recordedAt,
                statusCode: 0,
                bodySize: 0,
                clientIP: '',
                isTask: true,
              },
            ],
            stackTraces: [
              {
                traceId,
                stackTrace: 'NotFound: user 42 missing\nmain.getUser()\n    /srv/app/users.go:88',
                recordedAt,
                isMessage: false,
                attributes: { 'user.id': '42' },
                distributedTraceId: traceId,
              },
            ],
            metrics: [{ name: 'mem.used', value: 512.25, recordedAt }],
          },
        ],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({});

      const endpoints = await query<Record<string, unknown>>(
        `SELECT name, method, route, status_code, body_size, client_ip, toString(duration_ns) AS duration, toString(toUnixTimestamp64Nano(recorded_at)) AS at,
                attributes, server_name, app_version, is_root, toString(distributed_trace_id) AS dtid
           FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
        { id: traceId },
      );
      const expectedNs = (
        BigInt(Date.parse(recordedAt.replace(/\.\d+Z$/, 'Z'))) * 1_000_000n +
        123_456_789n
      ).toString();
      expect(endpoints).toEqual([
        {
          name: 'GET /users/:id',
          method: 'GET',
          route: '/users/:id',
          status_code: 404,
          body_size: 321,
          client_ip: '198.51.100.4',
          duration: '1234567891',
          at: expectedNs,
          attributes: { 'user.plan': 'pro' },
          server_name: 'api-7',
          app_version: '2.0.1',
          is_root: true,
          dtid: traceId,
        },
      ]);
      const spans = await query<Record<string, unknown>>(
        `SELECT toString(span_id) AS span, name, duration_ns FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {id:UUID}`,
        { id: traceId },
      );
      expect(spans).toEqual([{ span: spanId, name: 'db.users.select', duration_ns: 42_000 }]);
      const tasks = await query<Record<string, unknown>>(
        `SELECT name, status_code FROM tasks FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
        { id: taskId },
      );
      expect(tasks).toEqual([{ name: 'send-newsletter', status_code: 0 }]);
      const exceptions = await query<Record<string, unknown>>(
        `SELECT hash, is_message, toString(trace_id) AS trace, attributes FROM exceptions FINAL WHERE project_id = {project:UUID} AND trace_id = {id:UUID}`,
        { id: traceId },
      );
      expect(exceptions).toHaveLength(1);
      expect(exceptions[0]).toMatchObject({ is_message: false, trace: traceId, attributes: { 'user.id': '42' } });
      expect(exceptions[0]!.hash).toMatch(/^[0-9a-f]{16}$/);
      const metrics = await query<Record<string, unknown>>(
        `SELECT name, value FROM metric_points FINAL WHERE project_id = {project:UUID} AND name = 'mem.used'`,
      );
      expect(metrics).toEqual([{ name: 'mem.used', value: 512.25 }]);
    });

    it('accepts an uncompressed body the same way', async () => {
      const id = randomUUID();
      const response = await send(
        {
          appVersion: '',
          serverName: '',
          collectionFrames: [
            {
              traces: [
                {
                  id,
                  endpoint: 'POST /plain',
                  duration: 1,
                  recordedAt: isoAgo(minute),
                  statusCode: 201,
                  bodySize: 0,
                  clientIP: '',
                },
              ],
            },
          ],
        },
        { gzip: false },
      );
      expect(response.statusCode).toBe(200);
      expect(
        await query(`SELECT name FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`, { id }),
      ).toEqual([{ name: 'POST /plain' }]);
    });

    it('keeps the good records of a payload, skips and counts the bad ones', async () => {
      const good = randomUUID();
      /** A valid trace of GET /bad but for the overrides: each bad one below breaks one field. */
      const trace = (overrides: Record<string, unknown>) => ({
        id: randomUUID(),
        endpoint: 'GET /bad',
        duration: 1,
        recordedAt: isoAgo(minute),
        statusCode: 200,
        bodySize: 0,
        clientIP: '',
        ...overrides,
      });
      const response = await send({
        appVersion: '',
        serverName: '',
        collectionFrames: [
          {
            traces: [
              trace({ id: good, endpoint: 'GET /ok' }),
              trace({ id: 'not-a-uuid' }),
              trace({ duration: 1.5 }),
              trace({ recordedAt: 'yesterday' }),
            ],
          },
        ],
      });
      expect(response.statusCode).toBe(200);
      expect(
        await query(
          `SELECT count() AS n FROM endpoints FINAL WHERE project_id = {project:UUID} AND name IN ('GET /ok', 'GET /bad')`,
        ),
      ).toEqual([{ n: 1 }]);
      const metrics = await service.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer report-route-metrics-token' },
      });
      expect(metrics.body).toMatch(/sightline_ingest_skipped_records_total\{protocol="report"\} 3/);
    });

    it('answers 400 naming the path for a body that is not a report payload, and for malformed JSON', async () => {
      const wrongShape = await send({ appVersion: '', serverName: '', collectionFrames: [{ traces: 'many' }] });
      expect(wrongShape.statusCode).toBe(400);
      expect(wrongShape.json()).toEqual({ error: 'collectionFrames[0].traces must be an array' });
      const missing = await send({ collectionFrames: [], serverName: '' });
      expect(missing.json()).toEqual({ error: 'appVersion must be a string' });
      const malformed = await send('{"collectionFrames": [', { gzip: false });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error).toMatch(/^body is not valid JSON/);
    });

    it('does not double-count a re-sent frame', async () => {
      const recordedAt = isoAgo(minute);
      const traceId = randomUUID();
      const sessionId = randomUUID();
      const body = {
        appVersion: '',
        serverName: 'resend',
        collectionFrames: [
          {
            traces: [
              {
                id: traceId,
                endpoint: 'GET /twice',
                duration: 7,
                recordedAt,
                statusCode: 200,
                bodySize: 0,
                clientIP: '',
                spans: [{ id: randomUUID(), name: 's', startTime: recordedAt, duration: 1 }],
              },
            ],
            stackTraces: [{ traceId, stackTrace: 'Error: twice', recordedAt, isMessage: false }],
            metrics: [{ name: 'resend.value', value: 3, recordedAt }],
            sessions: [{ id: sessionId, startedAt: recordedAt }],
            sessionRecordings: [{ sessionId, segmentIndex: 0, events: [{ type: 2 }] }],
          },
        ],
      };
      expect((await send(body)).statusCode).toBe(200);
      expect((await send(body)).statusCode).toBe(200);
      const counts = await query<Record<string, number>>(
        `SELECT
           (SELECT count() FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {trace:UUID}) AS endpoints,
           (SELECT count() FROM spans FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}) AS spans,
           (SELECT count() FROM exceptions FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}) AS exceptions,
           (SELECT count() FROM metric_points FINAL WHERE project_id = {project:UUID} AND name = 'resend.value') AS metrics,
           (SELECT count() FROM sessions FINAL WHERE project_id = {project:UUID} AND id = {session:UUID}) AS sessions,
           (SELECT count() FROM session_recordings FINAL WHERE project_id = {project:UUID} AND session_id = {session:UUID}) AS recordings`,
        { trace: traceId, session: sessionId },
      );
      expect(counts).toEqual([{ endpoints: 1, spans: 1, exceptions: 1, metrics: 1, sessions: 1, recordings: 1 }]);
    });

    it('upserts a session: the close payload overwrites, and client.ip is the request address', async () => {
      const id = randomUUID();
      const startedAt = isoAgo(10 * minute);
      const session = (extra: Record<string, unknown>) => ({
        appVersion: '',
        serverName: '',
        collectionFrames: [
          {
            sessions: [
              {
                id,
                startedAt,
                clientIP: '10.0.0.1',
                attributes: { url: 'https://shop.example/cart', 'client.ip': '6.6.6.6', plan: 'free' },
                ...extra,
              },
            ],
          },
        ],
      });
      expect((await send(session({}), { remoteAddress: '203.0.113.50' })).statusCode).toBe(200);
      const endedAt = isoAgo(minute);
      expect(
        (
          await send(session({ endedAt, attributes: { url: 'https://shop.example/done', plan: 'pro' } }), {
            remoteAddress: '203.0.113.51',
          })
        ).statusCode,
      ).toBe(200);
      const rows = await query<Record<string, unknown>>(
        `SELECT attributes, client_ip, ended_at IS NOT NULL AS ended, intDiv(duration_ns, 1000000000) AS seconds FROM sessions FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`,
        { id },
      );
      expect(rows).toEqual([
        {
          attributes: { url: 'https://shop.example/done', plan: 'pro', 'client.ip': '203.0.113.51' },
          client_ip: '203.0.113.51',
          ended: 1,
          seconds: 540,
        },
      ]);
    });

    it('stores recording events compressed in the object store and drops a recording with no owner', async () => {
      const sessionId = randomUUID();
      const frames = [1, 0].map((segmentIndex) => ({
        sessionId,
        segmentIndex,
        events: [{ type: 2, segment: segmentIndex, data: 'x'.repeat(100) }],
        logs: [{ level: 'warn', message: `segment ${segmentIndex}` }],
      }));
      const response = await send({
        appVersion: '',
        serverName: '',
        collectionFrames: [{ sessionRecordings: [...frames, { events: [{ type: 3 }] }] }],
      });
      expect(response.statusCode).toBe(200);
      const rows = await query<{ segment_index: number; object_key: string; event_count: number; logs: string }>(
        `SELECT segment_index, object_key, event_count, logs FROM session_recordings FINAL WHERE project_id = {project:UUID} AND session_id = {session:UUID} ORDER BY segment_index`,
        { session: sessionId },
      );
      expect(rows.map((r) => r.segment_index)).toEqual([0, 1]);
      for (const row of rows) {
        const stored = await service.services.objects.get(row.object_key);
        expect(stored).not.toBeNull();
        const events = JSON.parse(zlib.gunzipSync(stored!).toString('utf8')) as Array<{ segment: number }>;
        expect(events[0]!.segment).toBe(row.segment_index);
        expect(row.event_count).toBe(1);
        expect(JSON.parse(row.logs)).toEqual([{ level: 'warn', message: `segment ${row.segment_index}` }]);
      }
    });

    it('answers 503 with Retry-After while storage fails, and stores again once it recovers, counting its usage once', async () => {
      const usage = async () => {
        const month = await projectIngestUsage(service.services.meta, projectId, usageMonth(new Date()));
        return { bytes: month?.bytes ?? 0, requests: month?.requests ?? 0 };
      };
      const before = await usage();
      await service.services.telemetry.command('RENAME TABLE endpoints TO endpoints_parked');
      const id = randomUUID();
      const body = {
        appVersion: '',
        serverName: '',
        collectionFrames: [
          {
            traces: [
              {
                id,
                endpoint: 'GET /later',
                duration: 1,
                recordedAt: isoAgo(minute),
                statusCode: 200,
                bodySize: 0,
                clientIP: '',
              },
            ],
          },
        ],
      };
      try {
        const refused = await send(body);
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toEqual({ error: 'storage is unavailable, retry shortly' });
      } finally {
        await service.services.telemetry.command('RENAME TABLE endpoints_parked TO endpoints');
      }
      expect((await send(body)).statusCode).toBe(200);
      expect(
        await query(`SELECT count() AS n FROM endpoints FINAL WHERE project_id = {project:UUID} AND id = {id:UUID}`, {
          id,
        }),
      ).toEqual([{ n: 1 }]);
      // The refused request left no usage row: the retry is the one counted.
      expect(await usage()).toEqual({
        bytes: before.bytes + Buffer.byteLength(JSON.stringify(body)),
        requests: before.requests + 1,
      });
    });

    it('counts decompressed bytes per project and month in the usage table', async () => {
      const month = await projectIngestUsage(service.services.meta, projectId, usageMonth(new Date()));
      expect(month!.requests).toBeGreaterThanOrEqual(8);
      expect(month!.bytes).toBeGreaterThan(1000);
    });
  });
}

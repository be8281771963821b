/**
 * Deleting a project removes its data: every telemetry row (but the organization's ingest usage,
 * a billing record) and every stored object — session recordings, OTLP profiles, AI
 * conversations, uploaded symbol files and the symbol tables built from them — while the data of
 * the organization's other project and of another organization stays whole. All of it is sent
 * through the real ingest and upload routes. Run on both telemetry engines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, messageField, stringAttribute, varintField } from '../../src/ingest/otlp/test-protobuf.js';
import { projectObjectPrefixes } from '../../src/server/project-purge-job.js';
import { KEPT_TABLES, PURGED_TABLES } from '../../src/store/telemetry/queries/purge.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { telemetryEngineEnvironment, type EngineEnvironment, type TelemetryEngineName } from '../support/telemetry-engines.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
const DART = {
  file: 'dart/android-arm64-dwarf4/app.android-arm64.symbols',
  arch: 'arm64',
  debugId: '73a2cdb8fd92d0c20b4186374bff33e3',
  trace: 'traces/dart-android-arm64-dwarf4/crash.txt',
};
const MS = 1_000_000;

interface Project {
  id: string;
  token: string;
  uploadToken: string;
}

export function projectPurgeContract(engine: TelemetryEngineName): void {
  describe(`deleting a project purges its data on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    let victim: Project;
    let sibling: Project;
    let stranger: Project;
    // The service clock: purges wait a settle time after the delete.
    let clock = Date.now();
    const SETTLE_MS = 10_000 + 30_000 + 60_000;

    const inject = (options: InjectOptions) => service.app.inject(options);
    const uploadTokenOf = async (projectId: string) =>
      (await service.services.meta.query<{ upload_token: string }>('SELECT upload_token FROM projects WHERE id = $1', [projectId]))[0]!.upload_token;

    /** One of everything, through the real routes. */
    async function fill(project: Project): Promise<void> {
      const at = (agoMs: number) => new Date(Date.now() - agoMs).toISOString();
      const traceId = randomUUID();
      const sessionId = randomUUID();
      const report = await inject({
        method: 'POST',
        url: '/api/report',
        headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' },
        payload: {
          appVersion: '1.0.0',
          serverName: 'web-1',
          collectionFrames: [
            {
              traces: [
                { id: traceId, endpoint: 'GET /a', duration: 5 * MS, recordedAt: at(60_000), statusCode: 200, bodySize: 1, clientIP: '', spans: [{ id: randomUUID(), name: 'db', startTime: at(60_000), duration: MS }] },
                { id: randomUUID(), endpoint: 'job', duration: 5 * MS, recordedAt: at(60_000), statusCode: 0, bodySize: 0, clientIP: '', isTask: true },
              ],
              stackTraces: [
                { traceId, stackTrace: 'Error: boom\n    at a (a.js:1:1)', recordedAt: at(60_000), isMessage: false, sessionId },
                // A Flutter crash: symbolication builds the symbol table (an object) from the upload.
                { stackTrace: fs.readFileSync(path.join(FIXTURES, DART.trace), 'utf8'), recordedAt: at(60_000), isMessage: false },
              ],
              metrics: [{ name: 'mem', value: 1, recordedAt: at(60_000) }],
              sessions: [{ id: sessionId, startedAt: at(120_000), attributes: { url: 'https://a.example/' } }],
              sessionRecordings: [{ sessionId, segmentIndex: 0, events: [{ type: 2 }], startedAt: at(120_000), endedAt: at(100_000) }],
            },
          ],
        },
      });
      expect(report.statusCode, report.body).toBe(200);
      const nanos = (BigInt(Date.now()) * 1_000_000n).toString();
      const attrs = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: value } }));
      const otlp = async (signal: string, payload: unknown, contentType = 'application/json') => {
        const response = await inject({
          method: 'POST',
          url: `/api/otel/${signal}`,
          headers: { authorization: `Bearer ${project.token}`, 'content-type': contentType },
          payload: payload as string,
        });
        expect(response.statusCode, `${signal}: ${response.body}`).toBe(200);
      };
      await otlp(
        'v1/traces',
        JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: attrs({ 'service.name': 'chat' }) },
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: randomBytes(16).toString('hex'),
                      spanId: randomBytes(8).toString('hex'),
                      name: 'chat gpt-4o',
                      kind: 3,
                      startTimeUnixNano: nanos,
                      endTimeUnixNano: nanos,
                      attributes: attrs({
                        'gen_ai.operation.name': 'chat',
                        'gen_ai.request.model': 'gpt-4o',
                        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hello?' }] }]),
                      }),
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
      await otlp('v1/logs', JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: nanos, severityNumber: 9, body: { stringValue: 'hello' } }] }] }] }));
      await otlp(
        'v1development/profiles',
        Buffer.from(bytesOf(messageField(1, messageField(1, stringAttribute(1, 'service.name', 'profiled')), messageField(2, messageField(2, messageField(2, varintField(1, 1))))))),
        'application/x-protobuf',
      );
      await service.services.writer.drain();
    }

    async function uploadDartSymbols(project: Project): Promise<void> {
      const boundary = '----purge';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${path.basename(DART.file)}"\r\n\r\n`),
        fs.readFileSync(path.join(FIXTURES, DART.file)),
        Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="arch"\r\n\r\n${DART.arch}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="debug_id"\r\n\r\n${DART.debugId}\r\n--${boundary}--\r\n`),
      ]);
      const response = await inject({
        method: 'POST',
        url: '/api/symbols/upload',
        headers: { authorization: `Bearer ${project.uploadToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
      expect(response.json()).toEqual({ uploaded: 1 });
    }

    /** Rows per telemetry table that has any for the project. */
    async function rowsOf(projectId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const table of [...PURGED_TABLES, ...KEPT_TABLES]) {
        const [row] = await service.services.telemetry.query<{ n: string }>(`SELECT toString(count()) AS n FROM ${table} WHERE project_id = {p:UUID}`, { p: projectId });
        if (Number(row!.n) > 0) counts[table] = Number(row!.n);
      }
      return counts;
    }

    /** Every stored object key that names the project. */
    async function objectsOf(projectId: string): Promise<string[]> {
      const keys: string[] = [];
      for (const family of ['recordings', 'profiles', 'ai', 'dartsymbols', 'iossymbols', 'proguard', 'symboltables']) {
        let after: string | undefined;
        do {
          const page = await service.services.objects.list(`${family}/`, after === undefined ? {} : { after });
          keys.push(...page.keys.filter((key) => key.includes(projectId)));
          after = page.next;
        } while (after !== undefined);
      }
      return keys.sort();
    }

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env }, { now: () => clock });
      owner = await registerUser(service.app);
      const created = await inject({
        method: 'POST',
        url: `/api/projects?projectId=${owner.project.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { name: 'Sibling', framework: 'flutter' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const other = await registerUser(service.app);
      await service.services.meta.query("UPDATE projects SET framework = 'flutter'");
      victim = { id: owner.project.id, token: owner.project.token, uploadToken: await uploadTokenOf(owner.project.id) };
      sibling = { id: created.json().id, token: created.json().token, uploadToken: await uploadTokenOf(created.json().id) };
      stranger = { id: other.project.id, token: other.project.token, uploadToken: await uploadTokenOf(other.project.id) };
      for (const project of [victim, sibling, stranger]) {
        await uploadDartSymbols(project);
        await fill(project);
      }
    }, 120_000);
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('every kind of telemetry and object was stored for each project (so the purge has something to remove)', async () => {
      for (const project of [victim, sibling, stranger]) {
        const rows = await rowsOf(project.id);
        for (const table of ['endpoints', 'tasks', 'ai_traces', 'spans', 'exceptions', 'metric_points', 'logs', 'sessions', 'session_recordings', 'profiles', 'rollup_hours', 'ingest_usage']) {
          expect(rows[table], `${table} of ${project.id}`).toBeGreaterThan(0);
        }
        const families = new Set((await objectsOf(project.id)).map((key) => key.split('/')[0]));
        expect([...families].sort()).toEqual(['ai', 'dartsymbols', 'profiles', 'recordings', 'symboltables']);
      }
    });

    it('the purged and kept tables are every telemetry table keyed by project', async () => {
      const tables = await service.services.telemetry.query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations' ORDER BY name",
      );
      expect(tables.map((table) => table.name)).toEqual([...PURGED_TABLES, ...KEPT_TABLES].sort());
      for (const prefix of projectObjectPrefixes(victim.id)) expect(prefix.endsWith(`/${victim.id}/`), prefix).toBe(true);
    });

    it('DELETE removes the project’s rows and objects in the background once ingest has settled, keeps its ingest usage, and touches no other project', async () => {
      const before = { sibling: await rowsOf(sibling.id), stranger: await rowsOf(stranger.id), siblingObjects: await objectsOf(sibling.id), strangerObjects: await objectsOf(stranger.id) };
      const usage = (await rowsOf(victim.id)).ingest_usage;
      const deleted = await inject({ method: 'DELETE', url: `/api/projects?projectId=${victim.id}`, headers: { authorization: `Bearer ${owner.token}` } });
      expect(deleted.json()).toEqual({ status: 'deleted' });
      // Ingest admitted before the delete may still write: the purge waits the settle time.
      expect(await service.services.purges.runOnce()).toBe(0);
      expect(Object.keys(await rowsOf(victim.id)).length).toBeGreaterThan(1);
      clock += SETTLE_MS + 1000;
      expect(await service.services.purges.runOnce()).toBe(1);
      expect(await service.services.meta.query('SELECT project_id FROM project_purges')).toEqual([]);

      expect(await rowsOf(victim.id)).toEqual({ ingest_usage: usage });
      expect(await objectsOf(victim.id)).toEqual([]);
      expect(await rowsOf(sibling.id)).toEqual(before.sibling);
      expect(await rowsOf(stranger.id)).toEqual(before.stranger);
      expect(await objectsOf(sibling.id)).toEqual(before.siblingObjects);
      expect(await objectsOf(stranger.id)).toEqual(before.strangerObjects);
    });

    it('a purge that fails stays recorded with its error and is done on a later run', async () => {
      // A purge recorded for a project whose data cannot be deleted yet: the object store refuses.
      const project = sibling.id;
      await service.services.meta.query("DELETE FROM projects WHERE id = $1", [project]);
      await service.services.meta.query('INSERT INTO project_purges (project_id, requested_at) VALUES ($1, $2)', [project, new Date(clock - SETTLE_MS - 1000)]);
      const objects = service.services.objects;
      const realDelete = objects.delete.bind(objects);
      objects.delete = async () => {
        throw new Error('object store unavailable');
      };
      try {
        expect(await service.services.purges.runOnce()).toBe(0);
      } finally {
        objects.delete = realDelete;
      }
      expect(await service.services.meta.query('SELECT attempts, last_error FROM project_purges WHERE project_id = $1', [project])).toEqual([
        { attempts: 1, last_error: 'object store unavailable' },
      ]);
      expect(await service.services.purges.runOnce()).toBe(1);
      expect(await rowsOf(project)).toEqual({ ingest_usage: expect.any(Number) });
      expect(await objectsOf(project)).toEqual([]);
      expect(Object.keys(await rowsOf(stranger.id)).length).toBeGreaterThan(2);
    });
  });
}

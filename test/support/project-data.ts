/**
 * A project filled with one of everything through the real routes (report, OTLP traces with an
 * AI conversation, logs, profiles, a Dart symbol upload and a Flutter crash that builds its
 * symbol table), and the object keys that name a project: for tests of data lifecycles.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { OBJECT_KEY_FAMILIES } from '../../src/store/objects/index.js';
import { multipartForm, type FormFile } from './multipart.js';
import { bytesOf, messageField, stringAttribute, varintField } from './otlp-protobuf.js';
import { registerUser, type TestService } from './service.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
const DART = {
  file: 'dart/android-arm64-dwarf4/app.android-arm64.symbols',
  arch: 'arm64',
  debugId: '73a2cdb8fd92d0c20b4186374bff33e3',
  trace: 'traces/dart-android-arm64-dwarf4/crash.txt',
};
const MS = 1_000_000;

export interface Project {
  id: string;
  token: string;
  uploadToken: string;
}

export const uploadTokenOf = async (service: TestService, projectId: string) =>
  (
    await service.services.meta.query<{ upload_token: string }>('SELECT upload_token FROM projects WHERE id = $1', [
      projectId,
    ])
  )[0]!.upload_token;

/** A new user's project set to a framework, with its tokens. */
export async function projectWithFramework(service: TestService, framework: string): Promise<Project> {
  const { project } = await registerUser(service.app);
  await service.services.meta.query('UPDATE projects SET framework = $2 WHERE id = $1', [project.id, framework]);
  return { id: project.id, token: project.token, uploadToken: await uploadTokenOf(service, project.id) };
}

/** One crash in a native report through the real route (answered 200); answers its trace id. */
export async function postCrash(
  service: TestService,
  projectToken: string,
  crash: { stackTrace: string; appVersion?: string; attributes?: Record<string, string> },
): Promise<string> {
  const traceId = randomUUID();
  const { stackTrace, appVersion = '1.0.0', attributes } = crash;
  const response = await service.app.inject({
    method: 'POST',
    url: '/api/report',
    headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
    payload: {
      appVersion,
      serverName: '',
      collectionFrames: [
        { stackTraces: [{ traceId, stackTrace, recordedAt: new Date().toISOString(), isMessage: false, attributes }] },
      ],
    },
  });
  expect(response.statusCode).toBe(200);
  return traceId;
}

/** One crash through the report route, and the one exception row stored for it: its trace as stored and as received, and its hash. */
export async function reportCrash(
  service: TestService,
  project: { id: string; token: string },
  crash: { stackTrace: string; appVersion?: string },
) {
  const traceId = await postCrash(service, project.token, crash);
  const rows = await service.services.telemetry.query<{ stack_trace: string; raw_stack_trace: string; hash: string }>(
    'SELECT stack_trace, raw_stack_trace, hash FROM exceptions FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}',
    { project: project.id, trace: traceId },
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** One of everything, through the real routes: every telemetry table and every object family gets a row or an object. */
export async function fillProject(service: TestService, project: Project): Promise<void> {
  const inject = (options: InjectOptions) => service.app.inject(options);
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
            {
              id: traceId,
              endpoint: 'GET /a',
              duration: 5 * MS,
              recordedAt: at(60_000),
              statusCode: 200,
              bodySize: 1,
              clientIP: '',
              spans: [{ id: randomUUID(), name: 'db', startTime: at(60_000), duration: MS }],
            },
            {
              id: randomUUID(),
              endpoint: 'job',
              duration: 5 * MS,
              recordedAt: at(60_000),
              statusCode: 0,
              bodySize: 0,
              clientIP: '',
              isTask: true,
            },
          ],
          stackTraces: [
            {
              traceId,
              stackTrace: 'Error: boom\n    at a (a.js:1:1)',
              recordedAt: at(60_000),
              isMessage: false,
              sessionId,
            },
            // A Flutter crash: symbolication builds the symbol table (an object) from the upload.
            {
              stackTrace: fs.readFileSync(path.join(FIXTURES, DART.trace), 'utf8'),
              recordedAt: at(60_000),
              isMessage: false,
            },
          ],
          metrics: [{ name: 'mem', value: 1, recordedAt: at(60_000) }],
          sessions: [{ id: sessionId, startedAt: at(120_000), attributes: { url: 'https://a.example/' } }],
          sessionRecordings: [
            { sessionId, segmentIndex: 0, events: [{ type: 2 }], startedAt: at(120_000), endedAt: at(100_000) },
          ],
        },
      ],
    },
  });
  expect(report.statusCode, report.body).toBe(200);
  const nanos = (BigInt(Date.now()) * 1_000_000n).toString();
  const attrs = (values: Record<string, string>) =>
    Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: value } }));
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
                    'gen_ai.input.messages': JSON.stringify([
                      { role: 'user', parts: [{ type: 'text', content: 'Hello?' }] },
                    ]),
                  }),
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  await otlp(
    'v1/logs',
    JSON.stringify({
      resourceLogs: [
        { scopeLogs: [{ logRecords: [{ timeUnixNano: nanos, severityNumber: 9, body: { stringValue: 'hello' } }] }] },
      ],
    }),
  );
  await otlp(
    'v1development/profiles',
    Buffer.from(
      bytesOf(
        messageField(
          1,
          messageField(1, stringAttribute(1, 'service.name', 'profiled')),
          messageField(2, messageField(2, messageField(2, varintField(1, 1)))),
        ),
      ),
    ),
    'application/x-protobuf',
  );
  await service.services.writer.drain();
}

/** POST /api/symbols/upload of these files and form fields; answers the response. */
export function postSymbolFiles(
  service: TestService,
  uploadToken: string,
  files: readonly FormFile[],
  fields: Record<string, string> = {},
) {
  const { body, contentType } = multipartForm(files, fields);
  return service.app.inject({
    method: 'POST',
    url: '/api/symbols/upload',
    headers: { authorization: `Bearer ${uploadToken}`, 'content-type': contentType },
    payload: body,
  });
}

/** Uploads one symbol file, with the given form fields, through the real route. */
export async function uploadSymbolFile(
  service: TestService,
  uploadToken: string,
  file: { name: string; bytes: Buffer },
  fields: Record<string, string> = {},
): Promise<void> {
  const response = await postSymbolFiles(service, uploadToken, [{ name: file.name, content: file.bytes }], fields);
  expect(response.json()).toEqual({ uploaded: 1 });
}

/** Uploads one Dart symbols file with its arch and debug id through POST /api/symbols/upload. */
export async function uploadDartSymbolFile(
  service: TestService,
  uploadToken: string,
  file: { name: string; bytes: Buffer; arch: string; debugId: string },
): Promise<void> {
  await uploadSymbolFile(service, uploadToken, file, { arch: file.arch, debug_id: file.debugId });
}

/** The Dart fixture whose crash fillProject sends. */
export async function uploadDartSymbols(service: TestService, project: Project): Promise<void> {
  const bytes = fs.readFileSync(path.join(FIXTURES, DART.file));
  await uploadDartSymbolFile(service, project.uploadToken, {
    name: path.basename(DART.file),
    bytes,
    arch: DART.arch,
    debugId: DART.debugId,
  });
}

/** Every stored object key that names the project. */
export async function objectsOf(service: TestService, projectId: string): Promise<string[]> {
  const keys: string[] = [];
  for (const family of OBJECT_KEY_FAMILIES) {
    let after: string | undefined;
    do {
      const page = await service.services.objects.list(`${family}/`, after === undefined ? {} : { after });
      keys.push(...page.keys.filter((key) => key.includes(projectId)));
      after = page.next;
    } while (after !== undefined);
  }
  return keys.sort();
}

/**
 * A whole Sightline service for tests: real embedded engines (chDB, PGlite, files, memory) in a
 * fresh data folder, answering through fastify.inject() or a loopback socket.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApps } from '../../src/server/app.js';
import { openServices, type OpenOptions } from '../../src/server/services.js';
import type { Services } from '../../src/application/services.js';

export interface TestService {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  close(): Promise<void>;
}

export async function startTestService(
  env: Record<string, string> = {},
  options: OpenOptions = {},
): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REGISTRATION: 'open', ...env });
  const services = await openServices(config, options);
  const { app } = await buildApps(services);
  return {
    app,
    services,
    dataDir,
    async close() {
      await app.close();
      await services.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ListeningTestService extends TestService {
  /** The loopback origin it answers on, e.g. http://127.0.0.1:43121 */
  url: string;
}

/** startTestService, listening on 127.0.0.1 on a free port; close() also stops the listening. */
export async function listeningTestService(
  env: Record<string, string> = {},
  options: OpenOptions = {},
): Promise<ListeningTestService> {
  const service = await startTestService(env, options);
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  // From the socket, not listen()'s answer, which may name the host localhost.
  const { port } = service.app.server.address() as AddressInfo;
  return { ...service, url: `http://127.0.0.1:${port}` };
}

let userCounter = 0;

/**
 * Registers a user (with their organization and first project) through the real route, each from
 * its own client address so that suites making many users stay under the register rate limit.
 */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<{ email: string; password: string; name: string }> = {},
) {
  userCounter++;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.${(userCounter >> 16) & 255}.${(userCounter >> 8) & 255}.${userCounter & 255}`,
    payload: {
      email: `user${userCounter}-${process.pid}@example.com`,
      password: 'correct horse battery',
      name: `User ${userCounter}`,
      ...overrides,
    },
  });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return response.json() as {
    token: string;
    user: { id: string; email: string };
    organization: { id: string };
    project: { id: string; token: string };
  };
}

/** POST /api/report of an already gzipped native report with a project's ingest token; answers the response. */
export function postGzippedReport(app: FastifyInstance, projectToken: string, gzipped: Buffer) {
  return app.inject({
    method: 'POST',
    url: '/api/report',
    headers: {
      authorization: `Bearer ${projectToken}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    },
    payload: gzipped,
  });
}

/** One gzipped native report of one frame (empty lists where the frame has none) through the real route. */
function postReport(app: FastifyInstance, projectToken: string, frame: ReportFrame, appVersion = '1.0.0') {
  const report = {
    appVersion,
    serverName: 'web-1',
    collectionFrames: [{ stackTraces: [], metrics: [], traces: [], ...frame }],
  };
  return postGzippedReport(app, projectToken, zlib.gzipSync(JSON.stringify(report)));
}

/** A collection frame of the native report; stackTraces, metrics and traces left out are sent empty. */
interface ReportFrame {
  stackTraces?: unknown[];
  metrics?: unknown[];
  traces?: unknown[];
  sessions?: unknown[];
  sessionRecordings?: unknown[];
}

/** Sends traces in one gzipped native report frame through the real route; returns the response. */
export async function reportTraces(app: FastifyInstance, projectToken: string, traces: unknown[]) {
  return postReport(app, projectToken, { traces });
}

/**
 * One OTLP/JSON span carrying an `exception` event with this type and stack trace, from a service
 * of this name and version, through the real route; returns the response.
 */
export async function sendOtlpException(
  app: FastifyInstance,
  projectToken: string,
  exception: { service: string; version: string; span: string; type: string; stacktrace: string },
) {
  const now = BigInt(Date.now()) * 1_000_000n;
  const attribute = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const span = {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    name: exception.span,
    kind: 1,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 1_000_000n),
    events: [
      {
        name: 'exception',
        timeUnixNano: String(now),
        attributes: [
          attribute('exception.type', exception.type),
          attribute('exception.stacktrace', exception.stacktrace),
        ],
      },
    ],
  };
  return app.inject({
    method: 'POST',
    url: '/api/otel/v1/traces',
    headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
    payload: {
      resourceSpans: [
        {
          resource: {
            attributes: [attribute('service.name', exception.service), attribute('service.version', exception.version)],
          },
          scopeSpans: [{ spans: [span] }],
        },
      ],
    },
  });
}

/** One native report with any frame content and app version, through the real route; anything but 200 throws. */
export async function reportFrame(
  app: FastifyInstance,
  projectToken: string,
  frame: ReportFrame,
  appVersion = '1.0.0',
) {
  const response = await postReport(app, projectToken, frame, appVersion);
  if (response.statusCode !== 200) throw new Error(`report failed: ${response.statusCode} ${response.body}`);
  return response;
}

/** A call as `token` that must succeed (a step of a test's set-up); answers the parsed body. */
export async function callOk<T>(
  app: FastifyInstance,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
): Promise<T> {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return (response.body === '' ? undefined : response.json()) as T;
}

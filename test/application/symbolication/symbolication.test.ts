/**
 * Symbolication end to end: every fixture uploaded through POST /api/symbols/upload, every
 * fixture crash trace sent through POST /api/report, the stored exception compared with the
 * rendering llvm-symbolizer produced (test/fixtures/symbols, manifest.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { loadConfig } from '../../../src/config.js';
import { buildApps } from '../../../src/server/app.js';
import { openServices } from '../../../src/server/services.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
interface Manifest {
  fixtures: Array<{
    id: string;
    kind: 'dart_symbols' | 'ios_dsym';
    upload: { files: string[]; arch?: string; debug_id?: string };
  }>;
  traces: Array<{ name: string; fixture: string; trace: string; expected: string; matches_fixture: boolean }>;
}
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as Manifest;
const read = (relative: string) => fs.readFileSync(path.join(FIXTURES, relative));

function multipart(files: string[], fields: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = '----sightlinesymbols';
  const chunks: Buffer[] = [];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${path.basename(file)}"\r\n\r\n`,
      ),
      read(file),
      Buffer.from('\r\n'),
    );
  }
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('symbolication of Flutter and iOS crashes on the report route', () => {
  let service: TestService;
  const projects: Record<'flutter' | 'ios' | 'plain', { id: string; token: string; uploadToken: string }> = {} as never;

  beforeAll(async () => {
    service = await startTestService();
    for (const framework of ['flutter', 'ios', 'plain'] as const) {
      const { project } = await registerUser(service.app);
      await service.services.meta.query('UPDATE projects SET framework = $2 WHERE id = $1', [
        project.id,
        framework === 'plain' ? 'opentelemetry' : framework,
      ]);
      const rows = await service.services.meta.query<{ upload_token: string }>(
        'SELECT upload_token FROM projects WHERE id = $1',
        [project.id],
      );
      projects[framework] = { id: project.id, token: project.token, uploadToken: rows[0]!.upload_token };
    }
    for (const fixture of manifest.fixtures) {
      const target = fixture.kind === 'dart_symbols' ? projects.flutter : projects.ios;
      const fields: Record<string, string> = {};
      if (fixture.upload.arch) fields.arch = fixture.upload.arch;
      if (fixture.upload.debug_id) fields.debug_id = fixture.upload.debug_id;
      const { body, contentType } = multipart(fixture.upload.files, fields);
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/symbols/upload',
        headers: { authorization: `Bearer ${target.uploadToken}`, 'content-type': contentType },
        payload: body,
      });
      expect(response.json(), fixture.id).toEqual({ uploaded: 1 });
    }
  });
  afterAll(async () => service?.close());

  async function reportCrash(
    project: { id: string; token: string },
    stackTrace: string,
  ): Promise<{ stack_trace: string; raw_stack_trace: string; hash: string }> {
    const traceId = randomUUID();
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/report',
      headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' },
      payload: {
        appVersion: '1.0.0',
        serverName: '',
        collectionFrames: [
          { stackTraces: [{ traceId, stackTrace, recordedAt: new Date().toISOString(), isMessage: false }] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const rows = await service.services.telemetry.query<{ stack_trace: string; raw_stack_trace: string; hash: string }>(
      'SELECT stack_trace, raw_stack_trace, hash FROM exceptions FINAL WHERE project_id = {project:UUID} AND trace_id = {trace:UUID}',
      { project: project.id, trace: traceId },
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  for (const trace of manifest.traces) {
    it(`${trace.fixture} ${trace.name}: reproduces the expected frames`, async () => {
      const fixture = manifest.fixtures.find((f) => f.id === trace.fixture)!;
      const project = fixture.kind === 'dart_symbols' ? projects.flutter : projects.ios;
      const raw = read(trace.trace).toString('utf8');
      const expected = read(trace.expected).toString('utf8');
      const stored = await reportCrash(project, raw);
      expect(stored.stack_trace).toBe(expected);
      expect(stored.hash).toBe(exceptionHash(expected, false));
      expect(stored.raw_stack_trace).toBe(expected === raw ? '' : raw);
    });
  }

  it('leaves crashes alone for a project of another framework', async () => {
    const raw = read(manifest.traces[0]!.trace).toString('utf8');
    const stored = await reportCrash(projects.plain, raw);
    expect(stored.stack_trace).toBe(raw);
    expect(stored.raw_stack_trace).toBe('');
  });

  it('symbolicates after a restart from the serialized tables alone, without the original files', async () => {
    await service.app.close();
    await service.services.close();
    const services = await openServices(loadConfig({ DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' }));
    const { app } = await buildApps(services);
    service = { ...service, app, services };
    for (const prefix of ['dartsymbols/', 'iossymbols/']) {
      for (const key of (await services.objects.list(prefix)).keys) await services.objects.delete(key);
    }
    expect((await services.objects.list('symboltables/v')).keys.length).toBeGreaterThan(0);
    const trace = manifest.traces.find((t) => t.matches_fixture && t.fixture.startsWith('dart-'))!;
    const stored = await reportCrash(projects.flutter, read(trace.trace).toString('utf8'));
    expect(stored.stack_trace).toBe(read(trace.expected).toString('utf8'));
  });
});

/**
 * Symbolication end to end: every fixture uploaded through POST /api/symbols/upload, every
 * fixture crash trace sent through POST /api/report, the stored exception compared with the
 * rendering llvm-symbolizer produced (test/fixtures/symbols, manifest.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { loadConfig } from '../../../src/config.js';
import { buildApps } from '../../../src/server/app.js';
import { openServices } from '../../../src/server/services.js';
import { postSymbolFiles, projectWithFramework, reportCrash, type Project } from '../../support/project-data.js';
import { startTestService, type TestService } from '../../support/service.js';

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

describe('symbolication of Flutter and iOS crashes on the report route', () => {
  let service: TestService;
  const projects = {} as Record<'flutter' | 'ios' | 'plain', Project>;

  beforeAll(async () => {
    service = await startTestService();
    for (const framework of ['flutter', 'ios', 'plain'] as const)
      projects[framework] = await projectWithFramework(service, framework === 'plain' ? 'opentelemetry' : framework);
    for (const fixture of manifest.fixtures) {
      const target = fixture.kind === 'dart_symbols' ? projects.flutter : projects.ios;
      const fields: Record<string, string> = {};
      if (fixture.upload.arch) fields.arch = fixture.upload.arch;
      if (fixture.upload.debug_id) fields.debug_id = fixture.upload.debug_id;
      const files = fixture.upload.files.map((file) => ({ name: path.basename(file), content: read(file) }));
      const response = await postSymbolFiles(service, target.uploadToken, files, fields);
      expect(response.json(), fixture.id).toEqual({ uploaded: 1 });
    }
  });
  afterAll(async () => service?.close());

  for (const trace of manifest.traces) {
    it(`${trace.fixture} ${trace.name}: reproduces the expected frames`, async () => {
      const fixture = manifest.fixtures.find((f) => f.id === trace.fixture)!;
      const project = fixture.kind === 'dart_symbols' ? projects.flutter : projects.ios;
      const raw = read(trace.trace).toString('utf8');
      const expected = read(trace.expected).toString('utf8');
      const stored = await reportCrash(service, project, { stackTrace: raw });
      expect(stored.stack_trace).toBe(expected);
      expect(stored.hash).toBe(exceptionHash(expected, false));
      expect(stored.raw_stack_trace).toBe(expected === raw ? '' : raw);
    });
  }

  it('leaves crashes alone for a project of another framework', async () => {
    const raw = read(manifest.traces[0]!.trace).toString('utf8');
    const stored = await reportCrash(service, projects.plain, { stackTrace: raw });
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
    const stored = await reportCrash(service, projects.flutter, { stackTrace: read(trace.trace).toString('utf8') });
    expect(stored.stack_trace).toBe(read(trace.expected).toString('utf8'));
  });
});

/**
 * Android retrace end to end: mapping files uploaded through POST /api/symbols/upload, the
 * fixture crashes sent through POST /api/report and OTLP, the stored exceptions compared with the
 * original program's traces (test/fixtures/android). Matching: a trace's R8 map id, else its app
 * version against the version an upload named; never another project's mapping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import type { FormFile } from '../../support/multipart.js';
import { postSymbolFiles, projectWithFramework, reportCrash, type Project } from '../../support/project-data.js';
import { sendOtlpException, startTestService, type TestService } from '../../support/service.js';

const FIXTURES = path.resolve('test/fixtures/android');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('Android retrace on ingest', () => {
  let service: TestService;
  const projects = {} as Record<'android' | 'other' | 'plain', Project>;

  const upload = (project: Project, files: FormFile[], fields: Record<string, string> = {}) =>
    postSymbolFiles(service, project.uploadToken, files, fields);

  /** The stored exception of a crash reported with this app version. */
  const crash = (project: Project, stackTrace: string, appVersion: string) =>
    reportCrash(service, project, { stackTrace, appVersion });

  beforeAll(async () => {
    service = await startTestService();
    for (const name of ['android', 'other', 'plain'] as const)
      projects[name] = await projectWithFramework(service, name === 'plain' ? 'opentelemetry' : 'android');
    for (const project of [projects.android, projects.plain]) {
      expect(
        (
          await upload(project, [{ name: 'mapping.txt', content: read('proguard-mapping.txt') }], {
            version: '2.1.0 (210)',
          })
        ).json(),
      ).toEqual({ uploaded: 1 });
      expect((await upload(project, [{ name: 'mapping.txt', content: read('r8-mapping.txt') }])).json()).toEqual({
        uploaded: 1,
      });
    }
  });
  afterAll(async () => service?.close());

  it.each(['checkout', 'wrapped'])(
    'maps the ProGuard %s crash to the original program trace, matched by app version',
    async (scenario) => {
      const obfuscated = read(`traces/${scenario}.obfuscated.txt`);
      const original = read(`traces/${scenario}.original.txt`);
      const row = await crash(projects.android, obfuscated, '2.1.0 (210)');
      expect(row).toEqual({ stack_trace: original, raw_stack_trace: obfuscated, hash: exceptionHash(original, false) });
    },
  );

  it.each(['r8-crash', 'r8-npe'])(
    'maps the R8 %s crash by the map id in its frames, whatever the app version',
    async (name) => {
      const obfuscated = read(`traces/${name}.obfuscated.txt`);
      const expected = read(`traces/${name}.expected.txt`);
      expect(await crash(projects.android, obfuscated, '0.0.1')).toEqual({
        stack_trace: expected,
        raw_stack_trace: obfuscated,
        hash: exceptionHash(expected, false),
      });
    },
  );

  it('retraces OTLP exception.stacktrace with the service.version', async () => {
    const obfuscated = read('traces/wrapped.obfuscated.txt');
    const response = await sendOtlpException(service.app, projects.android.token, {
      service: 'shop-android',
      version: '2.1.0 (210)',
      span: 'reserve',
      type: 'java.lang.RuntimeException',
      stacktrace: obfuscated,
    });
    expect(response.statusCode).toBe(200);
    const rows = await service.services.telemetry.query<{ stack_trace: string; raw_stack_trace: string }>(
      'SELECT stack_trace, raw_stack_trace FROM exceptions FINAL WHERE project_id = {project:UUID} AND raw_stack_trace = {raw:String}',
      { project: projects.android.id, raw: obfuscated },
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.stack_trace === read('traces/wrapped.original.txt'))).toBe(true);
  });

  it('never uses one project’s mappings for another project', async () => {
    for (const name of ['checkout', 'r8-npe']) {
      const obfuscated = read(`traces/${name}.obfuscated.txt`);
      expect(await crash(projects.other, obfuscated, '2.1.0 (210)')).toMatchObject({
        stack_trace: obfuscated,
        raw_stack_trace: '',
      });
    }
  });

  it('does not retrace projects of other frameworks', async () => {
    const obfuscated = read('traces/checkout.obfuscated.txt');
    expect(await crash(projects.plain, obfuscated, '2.1.0 (210)')).toMatchObject({
      stack_trace: obfuscated,
      raw_stack_trace: '',
    });
  });

  it('matches the exact app version only, and a trace with a map id only by that id', async () => {
    const obfuscated = read('traces/checkout.obfuscated.txt');
    expect(await crash(projects.android, obfuscated, '2.1.0')).toMatchObject({
      stack_trace: obfuscated,
      raw_stack_trace: '',
    });
    expect(await crash(projects.android, obfuscated, '')).toMatchObject({
      stack_trace: obfuscated,
      raw_stack_trace: '',
    });
    // The map id names a build with no mapping uploaded: the version must not stand in for it.
    const otherBuild = obfuscated.replaceAll('SourceFile', 'r8-map-id-0123abc');
    expect(await crash(projects.android, otherBuild, '2.1.0 (210)')).toMatchObject({
      stack_trace: otherBuild,
      raw_stack_trace: '',
    });
  });

  it('a re-upload naming a version takes the version over; re-sending the same file is idempotent', async () => {
    const project = projects.other;
    const obfuscated = read('traces/checkout.obfuscated.txt');
    const original = read('traces/checkout.original.txt');
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await upload(project, [{ name: 'mapping.txt', content: read('proguard-mapping.txt') }], { version: '3.0' })
        ).json(),
      ).toEqual({ uploaded: 1 });
    }
    const files = await service.services.meta.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM symbol_files WHERE project_id = $1 AND kind = 'proguard'`,
      [project.id],
    );
    expect(files[0]!.n).toBe(1);
    expect((await crash(project, obfuscated, '3.0')).stack_trace).toBe(original);
    // Another build's mapping for the same version: the version now resolves with it (this one does not name the crash's classes).
    expect(
      (await upload(project, [{ name: 'mapping.txt', content: read('r8-mapping.txt') }], { version: '3.0' })).json(),
    ).toEqual({ uploaded: 1 });
    expect(await crash(project, obfuscated, '3.0')).toMatchObject({
      stack_trace: obfuscated,
      raw_stack_trace: '',
    });
  });

  it('a damaged mapping file is stored but never takes a crash down', async () => {
    const project = projects.other;
    const junk = randomBytes(4096).toString('latin1').replaceAll('\0', ' ');
    const damaged = `com.example.shop.Cart -> com.example.shop.a:\n    11:15:int total() -> a\n    99999999999:1:x( -> \n    1:2:3:4:5 -> \n${junk}\n# {"id":"com.android.tools.r8.outlineCallsite","positions":7}\n`;
    expect((await upload(project, [{ name: 'mapping.txt', content: damaged }], { version: '4.0' })).json()).toEqual({
      uploaded: 1,
    });
    const obfuscated = read('traces/checkout.obfuscated.txt');
    const row = await crash(project, obfuscated, '4.0');
    // What the damaged file still says maps (class a is Cart, its one method a is total, line 2007 outside its
    // range so no line); the frame it does not name stays as received.
    expect(row.stack_trace).toBe(
      obfuscated.replace('\tat com.example.shop.a.a(SourceFile:2007)', '\tat com.example.shop.Cart.total(Cart.java)'),
    );
    expect(row.raw_stack_trace).toBe(obfuscated);
  });

  it('refuses a version over 256 characters', async () => {
    const response = await upload(projects.other, [{ name: 'mapping.txt', content: read('proguard-mapping.txt') }], {
      version: 'v'.repeat(300),
    });
    expect(response.statusCode).toBe(400);
  });
});

/**
 * JavaScript source maps end to end: the committed esbuild fixtures (test/fixtures/sourcemaps)
 * uploaded through POST /api/sourcemaps/upload with real multipart bodies, the real traces sent
 * through POST /api/report and as OTLP exception events, and the stored exceptions read back from
 * the telemetry store. Covers the upload rules (the source-map token only, bad files skipped with
 * their reasons, idempotent re-upload, release and debug-id matching) and tenant isolation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../../src/core/grouping.js';
import { SourceMapTables } from '../../../src/application/symbolication/sourcemaps.js';
import { SourceMapTable } from '../../../src/symbols/index.js';
import { multipartForm, type FormFile } from '../../support/multipart.js';
import { postCrash } from '../../support/project-data.js';
import { registerUser, sendOtlpException, startTestService, type TestService } from '../../support/service.js';

const DIR = path.resolve('test/fixtures/sourcemaps');
interface Release {
  version: string;
  debugId: string | null;
  js: string;
  map: string;
  frames: Array<{ url: string; expected: { source: string; line: number; column: number; function: string } | null }>;
}
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as { releases: Release[] };
const [R1, R2] = manifest.releases as [Release, Release];
const trace = (release: Release, browser: string) =>
  fs.readFileSync(path.join(DIR, 'traces', `${release.version}.${browser}.txt`), 'utf8');

type Part = FormFile;

/** The release's built files as a build folder uploads them: named by their path under dist/. */
const buildFiles = (release: Release): Part[] => [
  { name: `assets/${path.basename(release.js)}`, content: fs.readFileSync(path.join(DIR, release.js)) },
  { name: `assets/${path.basename(release.map)}`, content: fs.readFileSync(path.join(DIR, release.map)) },
];

/** The trace as the fixtures' frames say it must read once mapped. */
function expectedChromium(release: Release): string {
  const lines = trace(release, 'chromium').split('\n');
  release.frames.forEach((frame, i) => {
    if (frame.expected)
      lines[i + 1] =
        `    at ${frame.expected.function} (${frame.expected.source.replace(/^(\.\.\/)+/, '')}:${frame.expected.line}:${frame.expected.column})`;
  });
  return lines.join('\n');
}

describe('source maps', () => {
  let service: TestService;
  const projects: Array<{ id: string; token: string; sourceMapToken: string; uploadToken: string }> = [];

  beforeAll(async () => {
    service = await startTestService({ SYMBOL_UPLOAD_CONCURRENCY: '2' });
    for (let i = 0; i < 2; i++) {
      const { project } = await registerUser(service.app);
      // A browser project and a Node one alike: source maps do not depend on the framework.
      const rows = await service.services.meta.query<{ source_map_token: string; upload_token: string }>(
        'SELECT source_map_token, upload_token FROM projects WHERE id = $1',
        [project.id],
      );
      projects.push({
        id: project.id,
        token: project.token,
        sourceMapToken: rows[0]!.source_map_token,
        uploadToken: rows[0]!.upload_token,
      });
    }
  });
  afterAll(async () => service?.close());

  const upload = (files: Part[], fields: Record<string, string>, token = projects[0]!.sourceMapToken) => {
    const { body, contentType } = multipartForm(files, fields, {
      fieldsFirst: true,
      fileContentType: 'application/octet-stream',
    });
    return service.app.inject({
      method: 'POST',
      url: '/api/sourcemaps/upload',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload: body,
    });
  };

  async function report(
    project: { id: string; token: string },
    stackTrace: string,
    appVersion: string,
    attributes?: Record<string, string>,
  ) {
    const traceId = await postCrash(service, project.token, { stackTrace, appVersion, attributes });
    return stored(project.id, 'trace_id = {trace:UUID}', { trace: traceId });
  }

  async function stored(projectId: string, where: string, params: Record<string, unknown>) {
    const rows = await service.services.telemetry.query<{
      stack_trace: string;
      raw_stack_trace: string;
      hash: string;
      frames: string;
    }>(
      `SELECT stack_trace, raw_stack_trace, hash, attributes['sightline.frames'] AS frames FROM exceptions FINAL WHERE project_id = {project:UUID} AND ${where}`,
      { project: projectId, ...params },
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  describe('upload', () => {
    it('accepts only the source-map token of a live project: 401 with an empty body otherwise', async () => {
      for (const token of [projects[0]!.uploadToken, projects[0]!.token, `tps_${'0'.repeat(40)}`, 'garbage']) {
        const response = await upload(buildFiles(R1), { release: R1.version }, token);
        expect(response.statusCode, token).toBe(401);
      }
      const bare = await service.app.inject({ method: 'POST', url: '/api/sourcemaps/upload', payload: '' });
      expect(bare.statusCode).toBe(401);
    });

    it('400 for a request without files, or with a bad release or urlPrefix', async () => {
      const none = await upload([], { release: '1.0.0' });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toMatch(/no files/);
      const release = await upload(buildFiles(R1), { release: 'x'.repeat(201) });
      expect(release.statusCode).toBe(400);
      expect(release.json().error).toMatch(/release/);
      const prefix = await upload(buildFiles(R1), { release: '1.0.0', urlPrefix: '~/a b/' });
      expect(prefix.statusCode).toBe(400);
      expect(prefix.json().error).toMatch(/urlPrefix/);
    });

    it('stores the maps of a release; bad files are skipped with their reasons and take nothing down', async () => {
      const response = await upload(
        [
          { name: 'assets/broken.js.map', content: '{"version": 3, "mappings": "AAAA", "sources": ' },
          { name: 'assets/v2.js.map', content: JSON.stringify({ version: 2, mappings: '', sources: [] }) },
          ...buildFiles(R1),
          { name: 'assets/orphan.js', content: 'console.log(1)\n//# sourceMappingURL=orphan.js.map\n' },
          { name: 'README.txt', content: 'hello' },
        ],
        { release: R1.version, urlPrefix: '~/assets/'.replace('assets/', '') },
      );
      expect(response.statusCode).toBe(200);
      const body = response.json() as { uploaded: number; skipped: Array<{ file: string; reason: string }> };
      expect(body.uploaded).toBe(2);
      expect(body.skipped).toEqual([
        { file: 'README.txt', reason: 'not a .map or .js file' },
        { file: 'assets/broken.js.map', reason: expect.stringMatching(/^not a usable source map: not JSON/) },
        { file: 'assets/v2.js.map', reason: 'not a usable source map: version is 2, not 3' },
        { file: 'assets/orphan.js', reason: 'its source map orphan.js.map is not in this upload' },
      ]);
      const rows = await service.services.meta.query<{
        release: string;
        path: string;
        debug_id: string;
        object_key: string;
      }>('SELECT release, path, debug_id, object_key FROM source_map_files WHERE project_id = $1', [projects[0]!.id]);
      expect(rows).toEqual([
        {
          release: '1.0.0',
          path: `/assets/${path.basename(R1.js)}`,
          debug_id: '',
          object_key: expect.stringMatching(new RegExp(`^sourcemaps/${projects[0]!.id}/[0-9a-f]{64}\\.map$`)),
        },
      ]);
      const object = await service.services.objects.get(rows[0]!.object_key);
      expect(Buffer.from(object!).equals(fs.readFileSync(path.join(DIR, R1.map)))).toBe(true);
    });

    it('re-uploading the same build is idempotent: same answer, one row, one object', async () => {
      const again = await upload(buildFiles(R1), { release: R1.version, urlPrefix: '~/' });
      expect(again.json()).toEqual({ uploaded: 2, skipped: [] });
      const rows = await service.services.meta.query('SELECT 1 FROM source_map_files WHERE project_id = $1', [
        projects[0]!.id,
      ]);
      expect(rows).toHaveLength(1);
      expect((await service.services.objects.list(`sourcemaps/${projects[0]!.id}/`)).keys).toHaveLength(1);
    });

    it('a build with debug ids needs no release: the id is read from the map (and agrees with the .js)', async () => {
      const response = await upload(buildFiles(R2), { urlPrefix: '~/' });
      expect(response.json()).toEqual({ uploaded: 2, skipped: [] });
      const rows = await service.services.meta.query<{ release: string; debug_id: string }>(
        "SELECT release, debug_id FROM source_map_files WHERE project_id = $1 AND debug_id <> ''",
        [projects[0]!.id],
      );
      expect(rows).toEqual([{ release: '', debug_id: R2.debugId!.replace(/-/g, '') }]);
      // Without a release and without a debug id, a map cannot be found later: skipped.
      const anonymous = await upload(buildFiles(R1), {});
      expect(anonymous.json().uploaded).toBe(0);
      expect(anonymous.json().skipped[0].reason).toBe(
        'no release field, and neither the map nor its .js carries a debug id',
      );
    });
  });

  describe('symbolication on ingest', () => {
    it('maps the Chromium trace of the release exactly; the raw trace is kept and the hash is computed on the mapped text', async () => {
      const raw = trace(R1, 'chromium');
      const row = await report(projects[0]!, raw, R1.version);
      expect(row.stack_trace).toBe(expectedChromium(R1));
      expect(row.raw_stack_trace).toBe(raw);
      expect(row.hash).toBe(exceptionHash(expectedChromium(R1), false));
      expect(row.hash).not.toBe(exceptionHash(raw, false));
      const frames = JSON.parse(row.frames) as Array<{
        line: number;
        source: string;
        lineNumber: number;
        context?: { start: number; lines: string[] };
      }>;
      expect(frames.map((f) => [f.line, f.source, f.lineNumber])).toEqual(
        R1.frames
          .filter((f) => f.expected)
          .map((f, i) => [i + 1, f.expected!.source.replace(/^(\.\.\/)+/, ''), f.expected!.line]),
      );
      expect(frames[0]!.context!.lines[frames[0]!.lineNumber - frames[0]!.context!.start]).toContain(
        'throw new Error(`unknown currency',
      );
    });

    it('maps the Firefox and Safari traces of the same positions', async () => {
      for (const browser of ['firefox', 'safari']) {
        const row = await report(projects[0]!, trace(R1, browser), R1.version);
        const expected = R1.frames[1]!.expected!;
        expect(row.stack_trace, browser).toContain(`checkout@src/cart.ts:${expected.line}:${expected.column}`);
        expect(row.stack_trace, browser).toContain('@https://shop.example.com/index.html:5:3');
      }
    });

    it('an occurrence of another release is left as received (maps are per release)', async () => {
      const raw = trace(R1, 'chromium');
      const row = await report(projects[0]!, raw, '9.9.9');
      expect(row.stack_trace).toBe(raw);
      expect(row.raw_stack_trace).toBe('');
    });

    it('matches by debug id whatever the release the occurrence reports', async () => {
      const debugIds = fs.readFileSync(path.join(DIR, 'traces', `${R2.version}.debug-ids.json`), 'utf8');
      const row = await report(projects[0]!, trace(R2, 'chromium'), 'some-other-version', {
        'sightline.debug_ids': debugIds,
      });
      expect(row.stack_trace).toBe(expectedChromium(R2));
      // Without the ids, release 'some-other-version' has no maps.
      const plain = await report(projects[0]!, trace(R2, 'chromium'), 'some-other-version');
      expect(plain.raw_stack_trace).toBe('');
    });

    it("never uses one project's maps for another project's traces", async () => {
      const raw = trace(R1, 'chromium');
      const row = await report(projects[1]!, raw, R1.version);
      expect(row.stack_trace).toBe(raw);
      const debugIds = fs.readFileSync(path.join(DIR, 'traces', `${R2.version}.debug-ids.json`), 'utf8');
      const byId = await report(projects[1]!, trace(R2, 'chromium'), R2.version, { 'sightline.debug_ids': debugIds });
      expect(byId.stack_trace).toBe(trace(R2, 'chromium'));
      // And the other project's source-map token uploads into that project only.
      const own = await upload(buildFiles(R1), { release: 'b-1' }, projects[1]!.sourceMapToken);
      expect(own.json().uploaded).toBe(2);
      const count = await service.services.meta.query<{ project_id: string }>(
        "SELECT project_id FROM source_map_files WHERE release = 'b-1'",
      );
      expect(count).toEqual([{ project_id: projects[1]!.id }]);
    });

    it('maps a Node trace (absolute paths) uploaded under a path prefix', async () => {
      const name = path.basename(R1.js);
      const response = await upload([{ name: `${name}.map`, content: fs.readFileSync(path.join(DIR, R1.map)) }], {
        release: 'api-7',
        urlPrefix: '/srv/app/dist/',
      });
      expect(response.json()).toEqual({ uploaded: 1, skipped: [] });
      const node = trace(R1, 'chromium').replaceAll(`https://shop.example.com/assets/${name}`, `/srv/app/dist/${name}`);
      const row = await report(projects[0]!, node, 'api-7');
      expect(row.stack_trace.split('\n')[1]).toBe(expectedChromium(R1).split('\n')[1]);
    });

    it('maps exception.stacktrace of OTLP exception events (browser and Node SDKs)', async () => {
      const raw = trace(R1, 'firefox');
      const response = await sendOtlpException(service.app, projects[0]!.token, {
        service: 'shop-web',
        version: R1.version,
        span: 'checkout',
        type: 'Error',
        stacktrace: raw,
      });
      expect(response.statusCode).toBe(200);
      const row = await stored(projects[0]!.id, 'raw_stack_trace = {raw:String}', { raw });
      const expected = R1.frames[0]!.expected!;
      expect(row.stack_trace.split('\n')[0]).toBe(`formatPrice@src/format.ts:${expected.line}:${expected.column}`);
      expect(row.hash).toBe(exceptionHash(row.stack_trace, false));
    });

    it('keeps decoded maps within the memory bound: the least recently used is dropped, and a miss counts too', async () => {
      const small = new SourceMapTable(fs.readFileSync(path.join(DIR, R1.map), 'utf8')).bytes;
      const large = new SourceMapTable(fs.readFileSync(path.join(DIR, R2.map), 'utf8')).bytes;
      const maxBytes = large + 512 + 600;
      const tables = new SourceMapTables(service.services.meta, service.services.objects, { maxBytes });
      const first = { release: R1.version, path: `/assets/${path.basename(R1.js)}`, debugId: '' };
      const second = { release: '', path: `/assets/${path.basename(R2.js)}`, debugId: R2.debugId!.replace(/-/g, '') };
      expect((await tables.forScripts(projects[0]!.id, [first])).size).toBe(1);
      expect(tables.usage).toEqual({ entries: 1, bytes: small + 512 });
      expect((await tables.forScripts(projects[0]!.id, [second])).size).toBe(1);
      expect(tables.usage).toEqual({ entries: 1, bytes: large + 512 });
      // A miss is remembered and counted (512 bytes), evicting nothing it need not.
      expect((await tables.forScripts(projects[0]!.id, [{ release: 'none', path: '/x.js', debugId: '' }])).size).toBe(
        0,
      );
      expect(tables.usage.bytes).toBeLessThanOrEqual(maxBytes);
      // The service's own cache stays under its configured bound.
      expect(service.services.sourceMaps.usage.bytes).toBeLessThanOrEqual(service.services.config.sourceMapCacheBytes);
      expect(service.services.sourceMaps.usage.entries).toBeGreaterThan(0);
    });
  });
});

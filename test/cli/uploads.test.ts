/**
 * `symbols upload` and `sourcemaps upload` of the built CLI against a real service: the shared
 * fixtures (Dart .symbols, an iOS fat dSYM bundle) and an Android mapping file, found under the
 * paths given; the upload token fetched with the sign-in, or given in the environment as in CI; a
 * 503 with Retry-After retried (a loopback proxy answers 503 once, then forwards to the service);
 * a wrong token; and `sourcemaps upload` of the esbuild fixtures (release and debug-id builds).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { listenOnLoopback } from '../support/loopback.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import { builtCli, jsonOf, newConfigDir, personalAccessToken, removeBuiltCli, runCli } from './helpers.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
const DART_FOLDER = path.join(FIXTURES, 'dart/android-arm64-dwarf4');
const DART_BUILD = '73a2cdb8fd92d0c20b4186374bff33e3';
const FAT_DSYM = path.join(FIXTURES, 'ios/ios-fat/ShopKit.framework.dSYM');
const MAPPING =
  '# compiler: R8\n# pg_map_id: 5b46fdc\ncom.example.shop.Cart -> a.a:\n    int size -> a\n    void add(com.example.shop.Item) -> b\n';

interface UploadReport {
  accepted: Array<{ path: string; kind: string }>;
  skipped: Array<{ path: string; kind: string }>;
  failed: Array<{ path: string; error: string }>;
}

/** Answers the first upload 503 + Retry-After: 1 (as the service does when its upload slots stay busy), then forwards. */
async function flakyProxy(target: string): Promise<{ url: string; uploads: () => number; close: () => Promise<void> }> {
  let uploads = 0;
  const server = http.createServer((request, response) => {
    uploads++;
    if (uploads === 1) {
      request.resume();
      request.on('end', () =>
        response
          .writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' })
          .end('{"error":"too many uploads in flight, retry"}'),
      );
      return;
    }
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  const { url } = await listenOnLoopback(server);
  return {
    url,
    uploads: () => uploads,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('sightline-cli uploads', { timeout: 180_000 }, () => {
  let service: ListeningTestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let uploadToken: string;
  const configDir = newConfigDir();
  const mappingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-cli-mapping-'));

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService();
    user = await registerUser(service.app);
    uploadToken = (
      await service.services.meta.query<{ upload_token: string }>('SELECT upload_token FROM projects WHERE id = $1', [
        user.project.id,
      ])
    )[0]!.upload_token;
    fs.mkdirSync(path.join(mappingFolder, 'outputs/mapping/release'), { recursive: true });
    fs.writeFileSync(path.join(mappingFolder, 'outputs/mapping/release/mapping.txt'), MAPPING);
    fs.writeFileSync(path.join(mappingFolder, 'outputs/notes.txt'), 'release notes, not a mapping\n');
    const token = await personalAccessToken(service, user.token);
    expect((await runCli(['login', '--url', service.url, '--token', token], { configDir })).code).toBe(0);
  });
  afterAll(async () => {
    fs.rmSync(mappingFolder, { recursive: true, force: true });
    await service?.close();
    removeBuiltCli();
  });

  const symbolRows = () =>
    service.services.meta.query<{ kind: string; build_id: string; arch: string }>(
      'SELECT kind, build_id, arch FROM symbol_files WHERE project_id = $1 ORDER BY kind, build_id, arch',
      [user.project.id],
    );

  it('finds the Dart, iOS (fat dSYM bundle) and Android files under the paths and uploads them with the sign-in’s upload token', async () => {
    const result = await runCli(['symbols', 'upload', DART_FOLDER, FAT_DSYM, mappingFolder, '-o', 'json'], {
      configDir,
    });
    expect(result.code, result.stderr).toBe(0);
    const report = jsonOf<UploadReport>(result);
    expect(report.accepted.map((file) => [path.basename(file.path), file.kind])).toEqual([
      ['app.android-arm64.symbols', 'dart'],
      ['ShopKit', 'ios'],
      ['mapping.txt', 'android'],
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.failed).toEqual([]);
    // Not a TTY: plain lines, one per file, no progress bar redraws.
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^uploading .*app\.android-arm64\.symbols \(dart, \d+ bytes\)$/),
      expect.stringMatching(/^uploading .*ShopKit \(ios, \d+ bytes\)$/),
      expect.stringMatching(/^uploading .*mapping\.txt \(android, \d+ bytes\)$/),
    ]);
    const rows = await symbolRows();
    expect(rows.filter((row) => row.kind === 'dart')).toEqual([{ kind: 'dart', build_id: DART_BUILD, arch: 'arm64' }]);
    expect(
      rows
        .filter((row) => row.kind === 'ios')
        .map((row) => row.arch)
        .sort(),
    ).toEqual(['arm64', 'x64']);
    // A map id this short is no build id to the service: the mapping is keyed by its content's hash.
    expect(rows.filter((row) => row.kind === 'proguard').map((row) => row.build_id)).toEqual([
      createHash('sha256').update(MAPPING).digest('hex'),
    ]);
  });

  it('in CI: the upload token from the environment, no sign-in; a 503 is retried after its Retry-After', async () => {
    const proxy = await flakyProxy(service.url);
    try {
      const result = await runCli(
        ['symbols', 'upload', path.join(DART_FOLDER, 'app.android-arm64.symbols'), '-o', 'table'],
        {
          configDir: newConfigDir(),
          env: { SIGHTLINE_URL: proxy.url, SIGHTLINE_UPLOAD_TOKEN: uploadToken },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(proxy.uploads()).toBe(2);
      expect(result.stderr).toContain('service busy (503): retrying');
      expect(result.stderr).toContain('in 1 s (attempt 2)');
      expect(result.stdout).toMatch(
        /^accepted {2}.*app\.android-arm64\.symbols {2}\(dart\)\n1 accepted, 0 skipped, 0 failed\n$/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('a file the service does not recognise is reported skipped; nothing accepted is exit 1, as sourcemaps upload', async () => {
    const notes = path.join(mappingFolder, 'outputs/notes.txt');
    const result = await runCli(['symbols', 'upload', notes, '-o', 'table'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('skipped   ');
    expect(result.stdout).toContain('0 accepted, 1 skipped, 0 failed');
    // A skipped file beside an accepted one is listed, not fatal.
    const both = await runCli(
      ['symbols', 'upload', path.join(mappingFolder, 'outputs/mapping/release/mapping.txt'), notes, '-o', 'table'],
      { configDir },
    );
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain('1 accepted, 1 skipped, 0 failed');
    const help = await runCli(['symbols', 'upload', '--help'], { configDir });
    expect(help.stdout).toContain('1 when nothing was accepted or a file failed');
  });

  it('a wrong upload token is exit 4 with the refusal; no files found is a usage error', async () => {
    const wrong = await runCli(['symbols', 'upload', DART_FOLDER, '--upload-token', 'not-an-upload-token'], {
      configDir,
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('error: the upload token was refused (401');
    expect(wrong.stderr).toContain('check --upload-token or SIGHTLINE_UPLOAD_TOKEN');
    const nothing = await runCli(['symbols', 'upload', path.join(FIXTURES, 'src')], { configDir });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no debug-symbol files under');
  });

  it('a Dart file without a build-id note (an Apple build) fails naming the --debug-id flag, not the form field', async () => {
    const apple = path.join(FIXTURES, 'dart/ios-arm64-nobuildid/app.ios-arm64.symbols');
    const result = await runCli(['symbols', 'upload', apple, '-o', 'table'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has no build-id note: pass --debug-id (400)');
    expect(result.stdout).toContain('has no build-id note: pass --debug-id (400)');
    expect(`${result.stdout}${result.stderr}`).not.toContain('debug_id');
    const json = jsonOf<UploadReport>(await runCli(['symbols', 'upload', apple, '-o', 'json'], { configDir }));
    expect(json.failed.map((file) => file.error)).toEqual([expect.stringContaining('pass --debug-id (400)')]);
    // A --debug-id that cannot be a build id is a usage error before anything is sent.
    const typo = await runCli(['symbols', 'upload', apple, '--debug-id', 'xyz', '-o', 'table'], { configDir });
    expect([typo.code, typo.stdout]).toEqual([2, '']);
    expect(typo.stderr).toMatch(
      /^error: --debug-id "xyz" is not a build id — a build id is 16 to 128 hexadecimal digits/,
    );
  });

  it('sourcemaps upload: a release build folder with the sign-in’s source-map token, then a debug-id build without a release, then a report mapped by them', async () => {
    const SOURCEMAPS = path.resolve('test/fixtures/sourcemaps');
    const release = await runCli(
      ['sourcemaps', 'upload', path.join(SOURCEMAPS, 'releases/1.0.0/dist'), '--release', '1.0.0', '-o', 'json'],
      { configDir },
    );
    expect(release.code, release.stderr).toBe(0);
    expect(jsonOf<{ release: string; uploaded: number; skipped: unknown[] }>(release)).toEqual({
      release: '1.0.0',
      uploaded: 2,
      skipped: [],
    });
    const debugIds = await runCli(
      [
        'sourcemaps',
        'upload',
        path.join(SOURCEMAPS, 'releases/1.1.0/dist/assets'),
        '--url-prefix',
        '~/assets/',
        '-o',
        'table',
      ],
      { configDir },
    );
    expect(debugIds.code, debugIds.stderr).toBe(0);
    expect(debugIds.stdout).toContain('2 accepted, 0 skipped, urlPrefix ~/assets/');
    const rows = await service.services.meta.query<{ release: string; path: string; debug_id: string }>(
      'SELECT release, path, debug_id FROM source_map_files WHERE project_id = $1 ORDER BY release',
      [user.project.id],
    );
    expect(
      rows.map((row) => [row.release, row.path.replace(/main\.\w+\.js$/, 'main.js'), row.debug_id !== '']),
    ).toEqual([
      ['', '/assets/main.js', true],
      ['1.0.0', '/assets/main.js', false],
    ]);
  });

  it('sourcemaps upload: a folder without maps is a usage error; a bad token exits 4; bad maps are listed as skipped (exit 1 when none is accepted)', async () => {
    const build = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-cli-build-'));
    onTestFinished(() => fs.rmSync(build, { recursive: true, force: true }));
    fs.writeFileSync(path.join(build, 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
    const none = await runCli(['sourcemaps', 'upload', build], { configDir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no .map files under');
    fs.writeFileSync(path.join(build, 'app.js.map'), '{"version": 3, "mappings": 12}');
    const wrong = await runCli(['sourcemaps', 'upload', build, '--release', '1', '--sourcemap-token', uploadToken], {
      configDir,
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('the source-map token was refused (401)');
    // Signing in would not help: the hint names the token's flag and variable instead.
    expect(wrong.stderr).toContain('check --sourcemap-token or SIGHTLINE_SOURCEMAP_TOKEN');
    expect(wrong.stderr).not.toContain('sightline-cli login');
    const bad = await runCli(['sourcemaps', 'upload', build, '--release', '1', '-o', 'table'], { configDir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('skipped   app.js.map  not a usable source map: mappings is not a string');
    expect(bad.stdout).toContain('skipped   app.js  its source map app.js.map was skipped');
    expect(bad.stdout).toContain('0 accepted, 2 skipped (release 1)');

    // A --url-prefix no frame's URL can match is a usage error naming the flag, before anything is sent (even signed out).
    const signedOut = newConfigDir();
    for (const prefix of ['nope', 'static/', 'https:///static/', '~/static/?v=2', '/my app/', 'C:\\app\\dist\\']) {
      const refused = await runCli(['sourcemaps', 'upload', build, '--url-prefix', prefix], { configDir: signedOut });
      expect([refused.code, refused.stdout], prefix).toEqual([2, '']);
      expect(refused.stderr, prefix).toMatch(
        new RegExp(`^error: --url-prefix "${prefix.replace(/[\\?.]/g, '\\$&')}" `),
      );
    }
    // The forms a frame's URL matches: an absolute URL, a path, ~ (any origin).
    const dist = path.resolve('test/fixtures/sourcemaps/releases/1.0.0/dist');
    for (const prefix of ['https://example.com/static/', '/static/', '~/static/', 'file:///srv/app/dist/']) {
      const accepted = await runCli(
        ['sourcemaps', 'upload', dist, '--release', '9.9.9', '--url-prefix', prefix, '-o', 'json'],
        {
          configDir,
        },
      );
      expect(accepted.code, `${prefix}: ${accepted.stderr}`).toBe(0);
      expect(jsonOf<{ uploaded: number }>(accepted).uploaded).toBe(2);
    }

    // No --release and no debug ids: the reason names the flag, not the form field.
    const noRelease = await runCli(
      ['sourcemaps', 'upload', path.resolve('test/fixtures/sourcemaps/releases/1.0.0/dist'), '-o', 'table'],
      { configDir },
    );
    expect(noRelease.code).toBe(1);
    expect(noRelease.stdout).toContain('no --release, and neither the map nor its .js carries a debug id');
    expect(noRelease.stdout).not.toContain('release field');
    // A refused field of the request (a 400) names the flag too.
    const longRelease = await runCli(['sourcemaps', 'upload', build, '--release', 'x'.repeat(300)], { configDir });
    expect(longRelease.code).toBe(1);
    expect(longRelease.stderr).toMatch(/\nerror: --release must be at most \d+ printable characters \(400\)\n$/);
  });
});

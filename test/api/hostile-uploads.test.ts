/**
 * Hostile multipart bodies on both upload routes (debug symbols and Android mappings share
 * POST /api/symbols/upload; source maps have their own): the bad-input probe (bad-input.test.ts)
 * derives its inputs from JSON schemas and leaves these out. Each must be answered with the
 * status the spec's symbol-upload table names (the source-map route keeps the same statuses) and
 * a JSON `{error}` saying what was wrong — never a 500 — and what was stored before stays stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const DART_ARM64 = fs.readFileSync(
  path.resolve('test/fixtures/symbols/dart/android-arm64-dwarf4/app.android-arm64.symbols'),
);
const SOURCE_MAP = JSON.stringify({ version: 3, file: 'main.js', sources: ['main.ts'], names: [], mappings: 'AAAA' });
const BOUNDARY = '----sightlinehostile';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

interface Part {
  /** The Content-Disposition parameters after `form-data`, e.g. `; name="files"; filename="a.map"`. */
  disposition: string;
  content: string | Buffer;
}
const filePart = (fileName: string, content: string | Buffer, name = 'files'): Part => ({
  disposition: `; name="${name}"; filename="${fileName}"`,
  content,
});
const fieldPart = (name: string, value: string): Part => ({ disposition: `; name="${name}"`, content: value });

function form(parts: Part[]): Buffer {
  return Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data${part.disposition}\r\n\r\n`),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
}

interface Hostile {
  label: string;
  body: Buffer | string;
  contentType?: string;
  status: number;
  says: RegExp;
}

/** The hostile bodies every upload route gets, with a good file of its kind. */
function hostileBodies(goodFile: Part, noFiles: RegExp): Hostile[] {
  const good = form([goodFile]);
  return [
    {
      label: 'multipart without a boundary',
      body: good,
      contentType: 'multipart/form-data',
      status: 400,
      says: /^the multipart\/form-data Content-Type has no boundary parameter$/,
    },
    {
      label: 'a boundary of 300 characters',
      body: good,
      contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`,
      status: 400,
      says: /^the multipart boundary is longer than 256 characters$/,
    },
    {
      label: 'a truncated part (the body ends inside a file)',
      body: good.subarray(0, good.length - 40),
      contentType: MULTIPART,
      status: 400,
      says: /^the multipart body ends before its closing boundary \(truncated\)$/,
    },
    {
      label: 'a part without a name',
      body: form([{ disposition: '; filename="main.js.map"', content: SOURCE_MAP }]),
      status: 400,
      says: /^only the files field takes files: a part without a field name was sent as a file$/,
    },
    {
      label: 'no files field, only a text field',
      body: form([fieldPart('release', '1.0.0')]),
      status: 400,
      says: noFiles,
    },
    { label: 'files sent as a text field', body: form([fieldPart('files', SOURCE_MAP)]), status: 400, says: noFiles },
    { label: 'an empty multipart body', body: `--${BOUNDARY}--\r\n`, status: 400, says: noFiles },
    {
      label: 'a text field as a file',
      body: form([goodFile, filePart('release.txt', '1.0.0', 'release')]),
      status: 400,
      says: /^only the files field takes files: the release field was sent as a file$/,
    },
    {
      label: 'a text field over 1 KiB',
      body: form([goodFile, fieldPart('urlPrefix', 'r'.repeat(2000))]),
      status: 400,
      says: /^the urlPrefix field is over 1024 bytes$/,
    },
    {
      label: '5,000 text fields',
      body: form([goodFile, ...Array.from({ length: 5000 }, (_, i) => fieldPart(`f${i}`, 'x'))]),
      status: 422,
      says: /^too many text fields in the upload \(at most 20\)$/,
    },
    {
      label: 'a JSON body',
      body: '{"files":[]}',
      contentType: 'application/json',
      status: 400,
      says: /multipart\/form-data/,
    },
    { label: 'a text body', body: 'files=x', contentType: 'text/plain', status: 400, says: /multipart\/form-data/ },
    { label: 'no Content-Type', body: good, contentType: '', status: 400, says: /multipart\/form-data/ },
    {
      label: 'a declared length over 250 MB',
      body: good,
      contentType: MULTIPART,
      status: 413,
      says: /250 MB/,
    },
  ];
}

describe('hostile multipart bodies on the upload routes', () => {
  let service: TestService;
  let tokens: { uploadToken: string; sourceMapToken: string };
  let projectId: string;

  beforeAll(async () => {
    service = await startTestService();
    const owner = await registerUser(service.app);
    projectId = owner.project.id;
    const [row] = await service.services.meta.query<{ upload_token: string; source_map_token: string }>(
      'SELECT upload_token, source_map_token FROM projects WHERE id = $1',
      [projectId],
    );
    tokens = { uploadToken: row!.upload_token, sourceMapToken: row!.source_map_token };
  });
  afterAll(async () => service?.close());

  const rowsOf = async (table: 'symbol_files' | 'source_map_files') =>
    (
      await service.services.meta.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`,
        [projectId],
      )
    )[0]!.n;

  const routes = () => [
    {
      url: '/api/symbols/upload',
      token: tokens.uploadToken,
      goodFile: filePart('app-arm64.symbols', DART_ARM64),
      noFiles: /no files/,
      stored: () => rowsOf('symbol_files'),
    },
    {
      url: '/api/sourcemaps/upload',
      token: tokens.sourceMapToken,
      goodFile: filePart('assets/main.js.map', SOURCE_MAP),
      noFiles: /no files/,
      stored: () => rowsOf('source_map_files'),
    },
  ];

  const send = (url: string, token: string, body: Buffer | string, contentType = MULTIPART, length?: number) =>
    service.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(contentType === '' ? {} : { 'content-type': contentType }),
        ...(length === undefined ? {} : { 'content-length': String(length) }),
      },
      payload: body,
    });

  it('answers each with the spec status and a JSON error saying what was wrong, keeping what was stored', async () => {
    const failures: string[] = [];
    for (const route of routes()) {
      const first = await send(route.url, route.token, form([route.goodFile, fieldPart('release', '1.0.0')]));
      expect(first.statusCode, `${route.url}: ${first.body}`).toBe(200);
      const storedBefore = await route.stored();
      expect(storedBefore).toBeGreaterThan(0);
      for (const hostile of hostileBodies(route.goodFile, route.noFiles)) {
        const declared = hostile.status === 413 ? 250 * 1024 * 1024 + 1 : undefined;
        const response = await send(route.url, route.token, hostile.body, hostile.contentType, declared);
        const where = `${route.url} with ${hostile.label}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        const isJson = String(response.headers['content-type']).startsWith('application/json');
        const error = isJson ? String(response.json().error ?? '') : '';
        if (response.statusCode !== hostile.status || !hostile.says.test(error)) failures.push(where);
      }
      if ((await route.stored()) !== storedBefore) failures.push(`${route.url}: stored files changed`);
      const again = await send(route.url, route.token, form([route.goodFile, fieldPart('release', '1.0.0')]));
      if (again.statusCode !== 200) failures.push(`${route.url}: a good upload after: ${again.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers an empty file as the spec says of an unrecognized one: skipped, not an error', async () => {
    const symbols = await send('/api/symbols/upload', tokens.uploadToken, form([filePart('empty-arm64.symbols', '')]));
    const maps = await send('/api/sourcemaps/upload', tokens.sourceMapToken, form([filePart('empty.js.map', '')]));
    expect([symbols.statusCode, symbols.json(), maps.statusCode, maps.json()]).toEqual([
      200,
      { uploaded: 0 },
      200,
      { uploaded: 0, skipped: [{ file: 'empty.js.map', reason: expect.any(String) }] },
    ]);
  });
});

/**
 * POST /api/symbols/upload with the real fixture binaries, and every row of the spec's error
 * table. Large bodies are generated while they are sent, over a real socket.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningTestService, registerUser, type ListeningTestService } from '../../support/service.js';

const FIXTURES = path.resolve('test/fixtures/symbols');
const fixture = (relative: string): Buffer => fs.readFileSync(path.join(FIXTURES, relative));
const DART_ARM64 = 'dart/android-arm64-dwarf4/app.android-arm64.symbols';
const DART_ARM64_BUILD = '73a2cdb8fd92d0c20b4186374bff33e3';
const DART_NO_BUILD_ID = 'dart/ios-arm64-nobuildid/app.ios-arm64.symbols';
const DSYM_THIN = 'ios/ios-arm64/ShopApp.app.dSYM/Contents/Resources/DWARF/ShopApp';
const DSYM_FAT = 'ios/ios-fat/ShopKit.framework.dSYM/Contents/Resources/DWARF/ShopKit';
const MiB = 1024 * 1024;

interface Part {
  field: string;
  value?: string;
  fileName?: string;
  content?: Buffer;
}

function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----sightline${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.fileName
      ? `form-data; name="${part.field}"; filename="${part.fileName}"`
      : `form-data; name="${part.field}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.fileName ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
    );
    chunks.push(part.content ?? Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A multipart body with files of `sizes` bytes of zeros, generated while it is sent. */
function streamingMultipart(sizes: number[]): { stream: Readable; contentType: string } {
  const boundary = '----sightlinestream';
  async function* generate(): AsyncGenerator<Buffer> {
    const block = Buffer.alloc(MiB);
    for (const [i, size] of sizes.entries()) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big-${i}-arm64.symbols"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      for (let sent = 0; sent < size; sent += block.length)
        yield block.subarray(0, Math.min(block.length, size - sent));
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { stream: Readable.from(generate()), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('symbol upload', () => {
  let service: ListeningTestService;
  let uploadToken: string;
  let projectId: string;
  let sessionToken: string;
  let ingestToken: string;

  beforeAll(async () => {
    service = await listeningTestService({ SYMBOL_UPLOAD_CONCURRENCY: '1', SYMBOL_UPLOAD_QUEUE_WAIT_MS: '300' });
    const registered = await registerUser(service.app);
    projectId = registered.project.id;
    sessionToken = registered.token;
    ingestToken = registered.project.token;
    const rows = await service.services.meta.query<{ upload_token: string }>(
      'SELECT upload_token FROM projects WHERE id = $1',
      [projectId],
    );
    uploadToken = rows[0]!.upload_token;
  });
  afterAll(async () => service?.close());

  const upload = (parts: Part[], token = uploadToken) => {
    const { body, contentType } = multipart(parts);
    return service.app.inject({
      method: 'POST',
      url: '/api/symbols/upload',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload: body,
    });
  };
  const file = (relative: string, fileName = path.basename(relative)): Part => ({
    field: 'files',
    fileName,
    content: fixture(relative),
  });
  const symbolRows = () =>
    service.services.meta.query<{ kind: string; build_id: string; arch: string; object_key: string }>(
      'SELECT kind, build_id, arch, object_key FROM symbol_files WHERE project_id = $1 ORDER BY kind, build_id',
      [projectId],
    );

  it('stores a Dart symbols file under its build id and the arch of its file name', async () => {
    const response = await upload([file(DART_ARM64)]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ uploaded: 1 });
    const key = `dartsymbols/${projectId}/${DART_ARM64_BUILD}-arm64.symbols`;
    expect(Buffer.from((await service.services.objects.get(key))!).equals(fixture(DART_ARM64))).toBe(true);
    expect(await symbolRows()).toContainEqual({
      kind: 'dart',
      build_id: DART_ARM64_BUILD,
      arch: 'arm64',
      object_key: key,
    });
  });

  it('is idempotent: re-uploading the same build keeps one entry', async () => {
    expect((await upload([file(DART_ARM64)])).json()).toEqual({ uploaded: 1 });
    expect((await symbolRows()).filter((r) => r.build_id === DART_ARM64_BUILD)).toHaveLength(1);
  });

  it('takes the arch field (normalised) and a debug_id for a file without a build-id note, fields after the file', async () => {
    const response = await upload([
      file(DART_NO_BUILD_ID, 'app.symbols'),
      { field: 'arch', value: 'aarch64' },
      { field: 'debug_id', value: '092E6D78-2576-34F8-BC79-49D8D656AF13' },
    ]);
    expect(response.json()).toEqual({ uploaded: 1 });
    expect(await symbolRows()).toContainEqual({
      kind: 'dart',
      build_id: '092e6d78257634f8bc7949d8d656af13',
      arch: 'arm64',
      object_key: `dartsymbols/${projectId}/092e6d78257634f8bc7949d8d656af13-arm64.symbols`,
    });
  });

  it('stores one entry per slice of a fat dSYM, counting the file once, and a thin one', async () => {
    const response = await upload([file(DSYM_FAT), file(DSYM_THIN)]);
    expect(response.json()).toEqual({ uploaded: 2 });
    const ios = (await symbolRows()).filter((r) => r.kind === 'ios');
    expect(ios.map((r) => r.build_id).sort()).toEqual([
      '30ec73f28ed035ccbd3e1f5b3c614ecf',
      '7233f6b5097c3be2b487c90aa14d005e',
      'fb1f31bf712f3200b388cd91c37e2d71',
    ]);
    for (const row of ios) {
      expect(row.object_key).toBe(`iossymbols/${projectId}/${row.build_id}.dsym`);
      expect((await service.services.objects.head(row.object_key))!.size).toBeGreaterThan(0);
    }
  });

  it('recognises an Android mapping file and skips files it does not know', async () => {
    const mapping = Buffer.from(
      '# compiler: R8\n# pg_map_id: 5b46fdc\ncom.example.shop.Cart -> a.a:\n    int size -> a\n    void add(com.example.shop.Item) -> b\n',
    );
    const response = await upload([
      { field: 'files', fileName: 'mapping.txt', content: mapping },
      { field: 'files', fileName: 'notes.txt', content: Buffer.from('just some notes') },
    ]);
    expect(response.json()).toEqual({ uploaded: 1 });
    expect((await symbolRows()).filter((r) => r.kind === 'proguard')).toHaveLength(1);
  });

  it('answers 401 with an empty body to anything but a live upload token', async () => {
    for (const token of [sessionToken, ingestToken, `tpu_${'0'.repeat(40)}`, uploadToken.toUpperCase()]) {
      const response = await upload([file(DART_ARM64)], token);
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('');
    }
    const { body, contentType } = multipart([file(DART_ARM64)]);
    const missing = await service.app.inject({
      method: 'POST',
      url: '/api/symbols/upload',
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(missing.statusCode).toBe(401);
  });

  it('answers 400 for no files, an unknown arch, and a Dart file with neither build-id note nor debug_id', async () => {
    const none = await upload([{ field: 'arch', value: 'arm64' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'no files: send one or more files in the files field' });
    const badArch = await upload([file(DART_ARM64), { field: 'arch', value: 'mips' }]);
    expect(badArch.statusCode).toBe(400);
    expect(badArch.json().error).toMatch(/unknown arch "mips"/);
    const noId = await upload([file(DART_NO_BUILD_ID)]);
    expect(noId.statusCode).toBe(400);
    expect(noId.json().error).toMatch(/has no build-id note: send its debug_id/);
    const notMultipart = await service.app.inject({
      method: 'POST',
      url: '/api/symbols/upload',
      headers: { authorization: `Bearer ${uploadToken}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(notMultipart.statusCode).toBe(400);
  });

  it('answers 422 for an unreadable file, a stripped binary, a contradicting debug_id and too many parts', async () => {
    const truncated = await upload([
      { field: 'files', fileName: 'app-arm64.symbols', content: fixture(DART_ARM64).subarray(0, 200) },
    ]);
    expect(truncated.statusCode).toBe(422);
    expect(truncated.json().error).toMatch(/^"app-arm64.symbols" is not a readable symbol file/);
    const stripped = await upload([file('ios/ios-arm64/ShopApp.app/ShopApp')]);
    expect(stripped.statusCode).toBe(422);
    expect(stripped.json().error).toMatch(/has no DWARF/);
    const contradicts = await upload([
      file(DART_ARM64),
      { field: 'debug_id', value: 'ffffffffffffffffffffffffffffffff' },
    ]);
    expect(contradicts.statusCode).toBe(422);
    expect(contradicts.json().error).toMatch(/contradicts the build-id note 73a2cdb8fd92d0c20b4186374bff33e3/);
    const many = await upload(
      Array.from({ length: 1001 }, (_, i) => ({ field: 'files', fileName: `f${i}.txt`, content: Buffer.from('x') })),
    );
    expect(many.statusCode).toBe(422);
    expect(many.json()).toEqual({ error: 'too many parts in the upload (at most 1000)' });
  });

  function streamUpload(
    stream: Readable,
    contentType: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const url = new URL('/api/symbols/upload', service.url);
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${uploadToken}`, 'content-type': contentType, ...headers },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      stream.on('error', () => request.destroy());
      stream.pipe(request);
    });
  }

  it('answers 400 for a file over 200 MB, streamed without holding it', async () => {
    const rssBefore = process.memoryUsage().rss;
    const { stream, contentType } = streamingMultipart([201 * MiB]);
    const answer = await streamUpload(stream, contentType);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(/over the 200 MB limit per file/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * MiB);
  });

  it('answers 413 for a request over 250 MB, declared or streamed', async () => {
    const declared = await service.app.inject({
      method: 'POST',
      url: '/api/symbols/upload',
      headers: {
        authorization: `Bearer ${uploadToken}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(251 * MiB),
      },
      payload: '--x--\r\n',
    });
    expect(declared.statusCode).toBe(413);
    const { stream, contentType } = streamingMultipart([130 * MiB, 130 * MiB]);
    const streamed = await streamUpload(stream, contentType);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual({
      error: 'request body is over the 250 MB limit (measured after decompression)',
    });
  });

  it('answers 503 with Retry-After when every upload slot stays busy', async () => {
    // One slot (SYMBOL_UPLOAD_CONCURRENCY=1): an upload whose body is still arriving holds it.
    const holder = new Readable({ read() {} });
    holder.push(
      Buffer.from(
        '------sightlinestream\r\nContent-Disposition: form-data; name="files"; filename="slow.symbols"\r\n\r\n',
      ),
    );
    const held = streamUpload(holder, 'multipart/form-data; boundary=----sightlinestream');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await upload([file(DART_ARM64)]);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ error: 'symbol upload is at capacity, retry shortly' });
    holder.push(Buffer.from('not a symbol file\r\n------sightlinestream--\r\n'));
    holder.push(null);
    expect((await held).status).toBe(200);
  });
});

/**
 * The start reads the bucket's `sightline move` mark. A bucket that cannot be read (here a
 * loopback port nothing listens on) does not stop the start: one warning line, /ready reports the
 * bucket as not ready and ingest goes on. Once the bucket answers (s3rver started on that port),
 * the first use that reaches it reads the mark: none, and the bucket is used; a mark, and every
 * use of the bucket is refused for the life of the process (one error line, /ready naming the move).
 */
import net from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createObjectStore, type ObjectStore } from '../../src/store/objects/index.js';
import { objectsMoveMark } from '../../src/store/move-mark.js';
import { startS3rverProcess, type ChildServer } from '../support/child-servers.js';
import { postCrash } from '../support/project-data.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const BUCKET = 'sightline-start';

interface Line {
  level: number;
  msg: string;
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;

/** A loopback port nothing listens on now (the kernel's pick, released at once). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const s3Env = (port: number) => ({
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: `http://127.0.0.1:${port}`,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
});

/** The bucket as another process sees it. */
function bucketAt(port: number): Promise<ObjectStore> {
  const env = s3Env(port);
  return createObjectStore({
    engine: 's3',
    bucket: BUCKET,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  });
}

const unreadable = (port: number) =>
  `the S3 bucket ${BUCKET} could not be read (connect ECONNREFUSED 127.0.0.1:${port}), so whether a sightline move into it did not finish was not checked: starting without it; the check is made when it answers`;

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

/** The service on the bucket at `port`, its log lines captured. */
async function startOn(port: number): Promise<{ service: TestService; lines: Line[] }> {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const service = await startTestService(s3Env(port), { log });
  closing.push(service);
  return { service, lines };
}

async function ready(service: TestService) {
  const response = await service.app.inject({ method: 'GET', url: '/ready' });
  return {
    status: response.statusCode,
    body: response.json() as { stores: Record<string, { ok: boolean; error?: string }> },
  };
}

describe('the bucket move mark at start', () => {
  it('a bucket that cannot be read: the start goes on with one warning, /ready reports the bucket, ingest is taken', async () => {
    const port = await closedPort();
    const { service, lines } = await startOn(port);
    expect(lines.filter((line) => line.level === WARN).map((line) => line.msg)).toEqual([unreadable(port)]);

    const probe = await ready(service);
    expect(probe.status).toBe(503);
    expect(probe.body.stores.objects).toEqual({
      engine: 's3',
      ok: false,
      error: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    expect(probe.body.stores.telemetry?.ok).toBe(true);
    expect(probe.body.stores.meta?.ok).toBe(true);

    // Telemetry needs no bucket.
    const owner = await registerUser(service.app);
    await postCrash(service, owner.project.token, { stackTrace: 'Error: boom\n    at main (app.js:1:1)' });
  }, 120_000);

  it('the bucket answers later, marked: the probe that reaches it reads the mark, and every use of the bucket is refused', async () => {
    const port = await closedPort();
    const { service, lines } = await startOn(port);
    expect(lines.filter((line) => line.level === WARN).map((line) => line.msg)).toEqual([unreadable(port)]);

    const s3: ChildServer = await startS3rverProcess(BUCKET, port);
    closing.push(s3);
    const bucket = await bucketAt(port);
    closing.push(bucket);
    await objectsMoveMark(bucket).set({ dataDir: '/var/lib/sightline' });

    const refusal = `a sightline move into the S3 bucket ${BUCKET} did not finish, so it holds only part of the data: run the move again with this start's server variables (DATA_DIR=/var/lib/sightline npx sightline move), then start (docs/OPERATIONS.md §7)`;
    for (let probeCount = 0; probeCount < 2; probeCount++) {
      const probe = await ready(service);
      expect(probe.status).toBe(503);
      expect(probe.body.stores.objects).toEqual({ engine: 's3', ok: false, error: refusal });
    }
    await expect(service.services.objects.put('recordings/p/s/e/0.json.gz', Buffer.from('x'))).rejects.toThrow(refusal);
    await expect(service.services.objects.get('sightline-move-in-progress')).rejects.toThrow(refusal);
    // Nothing was written next to the half copy; the error said once.
    expect((await bucket.list('')).keys).toEqual(['sightline-move-in-progress']);
    expect(lines.filter((line) => line.level === ERROR && line.msg.includes(BUCKET)).map((line) => line.msg)).toEqual([
      `${refusal}; until then this process stores and reads no objects`,
    ]);
  }, 120_000);

  it('the bucket answers later, unmarked: the probe that reaches it finds no mark, and the bucket is used', async () => {
    const port = await closedPort();
    const { service, lines } = await startOn(port);
    expect((await ready(service)).status).toBe(503);

    const s3: ChildServer = await startS3rverProcess(BUCKET, port);
    closing.push(s3);
    const probe = await ready(service);
    expect(probe.status).toBe(200);
    expect(probe.body.stores.objects).toEqual({ engine: 's3', ok: true });
    expect(lines.filter((line) => line.level === INFO && line.msg.includes(BUCKET)).map((line) => line.msg)).toEqual([
      `the S3 bucket ${BUCKET} answers and holds no unfinished sightline move: objects are stored again`,
    ]);

    await service.services.objects.put('recordings/p/s/e/0.json.gz', Buffer.from('stored'));
    const bucket = await bucketAt(port);
    closing.push(bucket);
    expect(Buffer.from((await bucket.get('recordings/p/s/e/0.json.gz'))!).toString()).toBe('stored');
  }, 120_000);
});

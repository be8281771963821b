import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore, FsObjectStore, InvalidObjectKeyError } from '../../src/store/objects/index.js';
import { S3ObjectStore } from '../../src/store/objects/s3.js';
import { objectStoreContract } from './object-store.contract.js';
import { startS3rverProcess, type ChildServer } from '../support/child-servers.js';

const tempDirs: string[] = [];
async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `sightline-${label}-`));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
});

// ---------------------------------------------------------------- fs

objectStoreContract('fs', async () =>
  createObjectStore({ engine: 'fs', root: join(await tempDir('objects'), 'objects') }),
);

describe('object store: fs (engine specifics)', () => {
  it('fs: a failed put leaves no temp file in the folder', async () => {
    const root = await tempDir('objects');
    const store = new FsObjectStore({ root });
    await store.put('a/b/keep', Buffer.from('x'));
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 1));
        setImmediate(() => this.destroy(new Error('source failed')));
      },
    });
    await expect(store.put('a/b/lost', failing)).rejects.toThrow('source failed');
    expect(await readdir(join(root, 'a/b'))).toEqual(['keep']);
  });

  it('fs: ignores stray temp files left by a crash', async () => {
    const root = await tempDir('objects');
    const store = new FsObjectStore({ root });
    await store.put('a/obj', Buffer.from('x'));
    await writeFile(join(root, 'a/.obj.0123456789ab.tmp'), 'half-written');
    expect((await store.list('')).keys).toEqual(['a/obj']);
  });

  it('fs: a key that is also a folder of other keys is rejected with InvalidObjectKeyError', async () => {
    const store = new FsObjectStore({ root: await tempDir('objects') });
    await store.put('x/y/z', Buffer.from('1'));
    await expect(store.put('x/y', Buffer.from('2'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.put('x/y/z/w', Buffer.from('3'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    expect((await store.list('')).keys).toEqual(['x/y/z']);
  });

  it('fs: delete removes folders it leaves empty', async () => {
    const root = await tempDir('objects');
    const store = new FsObjectStore({ root });
    await store.put('x/y/z', Buffer.from('1'));
    await store.put('x/keep', Buffer.from('1'));
    await store.delete('x/y/z');
    expect(await readdir(join(root, 'x'))).toEqual(['keep']);
    await store.put('x/y', Buffer.from('now a file'));
    expect((await store.list('x/')).keys).toEqual(['x/keep', 'x/y']);
  });
});

// ---------------------------------------------------------------- s3 (s3rver in a child process)

const bucket = 'sightline-test';
let s3rver: ChildServer | undefined;
let endpoint = '';

async function startS3rver(): Promise<void> {
  s3rver = await startS3rverProcess(bucket);
  endpoint = s3rver.url;
}

function s3Store(prefix: string, bucketName = bucket): S3ObjectStore {
  return new S3ObjectStore({
    bucket: bucketName,
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix,
    partSizeBytes: 5 * 1024 * 1024,
  });
}

beforeAll(startS3rver);
afterAll(() => s3rver?.close());

let run = 0;
// Each case gets its own key prefix inside the bucket, which also exercises the prefix option.
objectStoreContract('s3', async () => s3Store(`case-${++run}/`), {
  serverGaps: {
    listOrder: 's3rver lists in the order of its own file names, not byte order',
    concurrentReads: 's3rver writes objects in place; S3 PUT itself is atomic',
  },
});

describe('object store: s3 (engine specifics)', () => {
  it('s3: a missing bucket fails ping and reads instead of looking like a missing key', async () => {
    const store = s3Store('', 'no-such-bucket');
    await expect(store.ping()).rejects.toThrow();
    await expect(store.get('a/b')).rejects.toThrow();
    await store.close();
  });

  it('s3: the prefix option keeps stores apart in one bucket', async () => {
    const one = s3Store('iso-1/');
    const two = s3Store('iso-2/');
    await one.put('same/key', Buffer.from('one'));
    expect(await two.get('same/key')).toBeNull();
    expect((await two.list('')).keys).toEqual([]);
    expect((await one.list('')).keys).toEqual(['same/key']);
    await Promise.all([one.close(), two.close()]);
  });
});

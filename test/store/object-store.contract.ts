import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidObjectKeyError, type ObjectStore } from '../../src/store/objects/types.js';

export interface ObjectStoreContractOptions {
  /** Size of the streamed object of the memory test; must exceed twice what the engine buffers. Default 64 MiB. */
  largeObjectBytes?: number;
  /**
   * Where the server under test is known to fall short of what the real service guarantees; each
   * reason skips that case and appears in its name.
   */
  serverGaps?: {
    /** The server does not list in byte order (S3 does). */
    listOrder?: string;
    /** The server's PUT is not atomic for concurrent readers (S3's is). */
    concurrentReads?: string;
  };
}

const MiB = 1024 * 1024;

/** The cases every ObjectStore engine must pass. `makeStore` gives a fresh, empty store for each case. */
export function objectStoreContract(
  name: string,
  makeStore: () => Promise<ObjectStore>,
  options: ObjectStoreContractOptions = {},
): void {
  const largeBytes = options.largeObjectBytes ?? 64 * MiB;
  const gaps = options.serverGaps ?? {};
  const skipNote = (reason: string | undefined) => (reason === undefined ? '' : ` (skipped: ${reason})`);

  describe(`object store: ${name}`, () => {
    let store: ObjectStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it(`${name}: reports its engine and answers ping`, async () => {
      expect(store.engine).toBe(name);
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it(`${name}: round-trips bytes (put, get, head, getStream)`, async () => {
      const body = new Uint8Array(100_000).map((_, i) => (i * 7) % 251);
      expect(await store.put('sessions/s1/0.json', body, { contentType: 'application/json' })).toEqual({
        size: body.byteLength,
      });
      expect(Buffer.from((await store.get('sessions/s1/0.json'))!)).toEqual(Buffer.from(body));
      expect(await store.head('sessions/s1/0.json')).toEqual({ size: body.byteLength });
      const stream = await store.getStream('sessions/s1/0.json');
      expect(stream).not.toBeNull();
      expect(await readAll(stream!)).toEqual(Buffer.from(body));
    });

    it(`${name}: round-trips an empty object`, async () => {
      expect(await store.put('empty', new Uint8Array(0))).toEqual({ size: 0 });
      expect((await store.get('empty'))?.byteLength).toBe(0);
      expect(await store.head('empty')).toEqual({ size: 0 });
    });

    it(`${name}: round-trips a stream of Buffer and string chunks`, async () => {
      const chunks = [Buffer.from('hello '), 'wörld ', Buffer.alloc(70_000, 0x61), 'end'];
      const expected = Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
      const res = await store.put('iossymbols/7/0123456789abcdef0123456789abcdef.dsym', Readable.from(chunks));
      expect(res.size).toBe(expected.byteLength);
      expect(Buffer.from((await store.get('iossymbols/7/0123456789abcdef0123456789abcdef.dsym'))!)).toEqual(expected);
      expect(await store.head('iossymbols/7/0123456789abcdef0123456789abcdef.dsym')).toEqual({
        size: expected.byteLength,
      });
    });

    it(`${name}: streams a ${largeBytes / MiB} MiB object in and out without holding it in memory`, async () => {
      const putProbe = memoryProbe();
      const source = patternStream(largeBytes, { onChunk: putProbe.sample });
      expect(await store.put('dartsymbols/1/big-arm64.symbols', source.stream)).toEqual({ size: largeBytes });
      expect(await store.head('dartsymbols/1/big-arm64.symbols')).toEqual({ size: largeBytes });
      const getProbe = memoryProbe();
      const hash = createHash('sha256');
      let read = 0;
      for await (const chunk of (await store.getStream('dartsymbols/1/big-arm64.symbols'))!) {
        hash.update(chunk as Buffer);
        read += (chunk as Buffer).byteLength;
        getProbe.sample();
      }
      expect(read).toBe(largeBytes);
      expect(hash.digest('hex')).toBe(source.sha256());
      // Generous bounds: an engine that buffers the object grows by at least its whole size.
      for (const [what, probe] of [
        ['put', putProbe],
        ['getStream', getProbe],
      ] as const) {
        console.info(
          `${name} ${what} of ${largeBytes / MiB} MiB: peak growth ${mib(probe.peakArrayBuffersDelta())} MiB Buffers, ${mib(probe.peakRssDelta())} MiB RSS`,
        );
        expect(probe.peakArrayBuffersDelta(), `${what}: peak growth of Buffer memory`).toBeLessThan(largeBytes / 2);
        expect(probe.peakRssDelta(), `${what}: peak growth of resident memory`).toBeLessThan(largeBytes);
      }
    });

    it(`${name}: overwrite replaces the object`, async () => {
      await store.put('k/over', Buffer.alloc(5000, 1));
      await store.put('k/over', Readable.from([Buffer.alloc(10, 2)]));
      expect(Buffer.from((await store.get('k/over'))!)).toEqual(Buffer.alloc(10, 2));
      expect(await store.head('k/over')).toEqual({ size: 10 });
      expect((await store.list('k/')).keys).toEqual(['k/over']);
    });

    it(`${name}: missing keys give null`, async () => {
      expect(await store.get('missing/key')).toBeNull();
      expect(await store.getStream('missing/key')).toBeNull();
      expect(await store.head('missing/key')).toBeNull();
      await store.put('present/key', Buffer.from('x'));
      expect(await store.get('present/key/below')).toBeNull();
      expect(await store.get('present')).toBeNull();
      expect(await store.head('present')).toBeNull();
    });

    it(`${name}: delete removes the object and is idempotent`, async () => {
      await store.put('d/one', Buffer.from('1'));
      await store.delete('d/one');
      expect(await store.get('d/one')).toBeNull();
      expect((await store.list('d/')).keys).toEqual([]);
      await expect(store.delete('d/one')).resolves.toBeUndefined();
      await expect(store.delete('never/existed')).resolves.toBeUndefined();
      await store.put('d/one', Buffer.from('again'));
      expect(Buffer.from((await store.get('d/one'))!).toString()).toBe('again');
    });

    it(`${name}: lists by prefix`, async () => {
      const keys = [
        'a/b/c',
        'a/x',
        'ab/1',
        'abc',
        'b/z',
        'dartsymbols/42/0a1b-arm64.symbols',
        'dartsymbols/42/0a1b-x64.symbols',
        'dartsymbols/420/ff-x64.symbols',
      ];
      for (const key of [...keys].reverse()) await store.put(key, Buffer.from(key));
      expect((await store.list('')).keys).toEqual(keys);
      expect((await store.list('')).next).toBeUndefined();
      expect((await store.list('a/')).keys).toEqual(['a/b/c', 'a/x']);
      expect((await store.list('a')).keys).toEqual(['a/b/c', 'a/x', 'ab/1', 'abc']);
      expect((await store.list('dartsymbols/42/')).keys).toEqual(keys.slice(5, 7));
      expect((await store.list('zz/')).keys).toEqual([]);
      expect((await store.list('a/b/c')).keys).toEqual(['a/b/c']);
    });

    it.skipIf(gaps.listOrder !== undefined)(
      `${name}: lists in byte order (ab-1 < ab.2 < ab/3 < ab0, x < x-1)${skipNote(gaps.listOrder)}`,
      async () => {
        const keys = ['ab-1', 'ab.2', 'ab/3', 'ab0', 'x', 'x-1'];
        for (const key of [...keys].reverse()) await store.put(key, Buffer.from(key));
        expect((await store.list('')).keys).toEqual(keys);
        expect((await store.list('ab', { after: 'ab-1' })).keys).toEqual(keys.slice(1, 4));
        expect(await store.list('', { limit: 2, after: 'ab.2' })).toEqual({ keys: keys.slice(2, 4), next: 'ab0' });
      },
    );

    it(`${name}: paginates a listing with limit and after`, async () => {
      const keys = Array.from({ length: 7 }, (_, i) => `rec/${String(i).padStart(2, '0')}/events`);
      await store.put('other/x', Buffer.from('x'));
      for (const key of keys) await store.put(key, Buffer.from(key));
      const pages: string[][] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 10; guard++) {
        const page = await store.list('rec/', { limit: 3, ...(after !== undefined && { after }) });
        pages.push(page.keys);
        if (page.next === undefined) break;
        after = page.next;
      }
      expect(pages.flat()).toEqual(keys);
      expect(pages.slice(0, 2).map((p) => p.length)).toEqual([3, 3]);
      expect((await store.list('rec/', { after: 'rec/03/events' })).keys).toEqual(keys.slice(4));
      expect((await store.list('rec/', { after: 'rec/03' })).keys).toEqual(keys.slice(3));
    });

    it(`${name}: lists the keys of objects written before an instant`, async () => {
      await store.put('age/old-1', Buffer.from('1'));
      await store.put('age/old-2', Buffer.from('2'));
      // S3 keeps LastModified to the second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const between = new Date();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await store.put('age/new', Buffer.from('3'));
      await store.put('aged/old-elsewhere', Buffer.from('4'));
      expect((await store.listWrittenBefore('age/', between)).keys).toEqual(['age/old-1', 'age/old-2']);
      expect((await store.listWrittenBefore('age/', new Date(Date.now() + 60_000))).keys).toEqual([
        'age/new',
        'age/old-1',
        'age/old-2',
      ]);
      // Pages are list's pages, filtered: the cursor runs past keys that are kept out.
      const first = await store.listWrittenBefore('age/', between, { limit: 1 });
      expect(first).toEqual({ keys: [], next: 'age/new' });
      const second = await store.listWrittenBefore('age/', between, { limit: 2, after: first.next! });
      expect(second).toEqual({ keys: ['age/old-1', 'age/old-2'] });
    });

    it(`${name}: rejects invalid keys with InvalidObjectKeyError`, async () => {
      const bad = [
        '',
        '/etc/passwd',
        '../x',
        'a/../b',
        'a/./b',
        '..',
        '.hidden',
        'a/.tmp',
        'a//b',
        'a/',
        'a b',
        'a\\b',
        'ä',
        'a\0b',
        'a?b',
        'x'.repeat(1025),
      ];
      for (const key of bad) {
        await expect(store.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.get(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.getStream(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.head(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.delete(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
      for (const prefix of ['../', '/abs/', 'a//', 'a b']) {
        await expect(store.list(prefix), prefix).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
      expect((await store.list('')).keys).toEqual([]);
    });

    for (const [label, total, failAt] of [
      ['small', 256 * 1024, 100 * 1024],
      ['multipart-sized', 24 * MiB, 13 * MiB],
    ] as const) {
      it(`${name}: a put whose ${label} source stream fails halfway leaves nothing behind`, async () => {
        await store.put('atomic/existing', Buffer.from('old'));
        const fresh = patternStream(total, { failAt });
        await expect(store.put('atomic/fresh', fresh.stream)).rejects.toThrow('source failed');
        const over = patternStream(total, { failAt });
        await expect(store.put('atomic/existing', over.stream)).rejects.toThrow('source failed');
        expect(await store.get('atomic/fresh')).toBeNull();
        expect(await store.head('atomic/fresh')).toBeNull();
        expect(Buffer.from((await store.get('atomic/existing'))!).toString()).toBe('old');
        expect((await store.list('')).keys).toEqual(['atomic/existing']);
      });
    }

    it.skipIf(gaps.concurrentReads !== undefined)(
      `${name}: concurrent readers see the old or the new object, never a part${skipNote(gaps.concurrentReads)}`,
      async () => {
        const oldBody = Buffer.alloc(3 * MiB, 0x41);
        const newSize = 5 * MiB;
        await store.put('race/obj', oldBody);
        let writing = true;
        const writer = store
          .put(
            'race/obj',
            Readable.from(
              (async function* () {
                for (let sent = 0; sent < newSize; sent += 256 * 1024) {
                  await new Promise((r) => setTimeout(r, 2));
                  yield Buffer.alloc(256 * 1024, 0x42);
                }
              })(),
            ),
          )
          .finally(() => {
            writing = false;
          });
        const seen = { old: 0, new: 0 };
        const reader = async () => {
          do {
            const body = Buffer.from((await store.get('race/obj'))!);
            if (body.byteLength === oldBody.byteLength && body.every((b) => b === 0x41)) seen.old++;
            else if (body.byteLength === newSize && body.every((b) => b === 0x42)) seen.new++;
            else throw new Error(`reader saw a partial object of ${body.byteLength} bytes`);
          } while (writing);
        };
        await Promise.all([writer, reader(), reader(), reader()]);
        expect(seen.old + seen.new).toBeGreaterThan(3);
        expect(await store.head('race/obj')).toEqual({ size: newSize });
      },
    );
  });
}

const mib = (bytes: number) => (bytes / MiB).toFixed(1);

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A deterministic generated byte stream; each chunk is a fresh Buffer, so nothing is kept by the generator. */
function patternStream(total: number, opts: { failAt?: number; onChunk?: () => void } = {}) {
  const chunkSize = 64 * 1024;
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      opts.onChunk?.();
      if (opts.failAt !== undefined && sent >= opts.failAt) {
        this.destroy(new Error('source failed'));
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = Buffer.allocUnsafe(Math.min(chunkSize, total - sent));
      for (let i = 0; i + 4 <= chunk.length; i += 4) chunk.writeUInt32LE(((sent + i) * 2654435761) >>> 0, i);
      hash.update(chunk);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

/** Peak growth of live Buffer (arrayBuffers) and resident memory from a baseline taken after a full GC. */
function memoryProbe() {
  const gc = exposeGc();
  gc();
  const base = process.memoryUsage();
  let peakArrayBuffers = base.arrayBuffers;
  let peakRss = base.rss;
  let calls = 0;
  return {
    // Every 16th chunk (1 MiB): collect garbage first, so the peak is memory still held, not chunks awaiting GC.
    sample: () => {
      if (calls++ % 16 !== 0) return;
      gc();
      const now = process.memoryUsage();
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
      peakRss = Math.max(peakRss, now.rss);
    },
    peakArrayBuffersDelta: () => peakArrayBuffers - base.arrayBuffers,
    peakRssDelta: () => peakRss - base.rss,
  };
}

function exposeGc(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}

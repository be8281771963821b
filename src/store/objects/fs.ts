import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { validateKey, validatePrefix } from './keys.js';
import { InvalidObjectKeyError, listLimit, type ListOptions, type ObjectStore } from './types.js';

export interface FsObjectStoreOptions {
  /** Folder holding the objects, e.g. `<DATA_DIR>/objects`; created when missing. Key `a/b` is file `<root>/a/b`. */
  root: string;
}

/**
 * Objects as plain files under a root folder. A put streams into a hidden temp file in the target
 * folder, fsyncs it, renames it over the key and fsyncs the folder, so a reader sees the old or the
 * new object, never a partial one, and an acknowledged put survives a crash. Temp files start with
 * `.`, which no key segment may, so they never show in `list`.
 * On this engine a key cannot also be a folder of other keys (`a/b` and `a/b/c`): such a put throws
 * InvalidObjectKeyError.
 */
export class FsObjectStore implements ObjectStore {
  readonly engine = 'fs' as const;
  private readonly root: string;

  constructor(options: FsObjectStoreOptions) {
    this.root = resolve(options.root);
  }

  async put(key: string, body: Uint8Array | NodeJS.ReadableStream): Promise<{ size: number }> {
    validateKey(key);
    const path = this.path(key);
    const dir = dirname(path);
    const tmp = join(dir, `.${key.slice(key.lastIndexOf('/') + 1)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await this.openTemp(key, dir, tmp);
    let size = 0;
    try {
      if (body instanceof Uint8Array) {
        await handle.writeFile(body);
        size = body.byteLength;
      } else {
        for await (const chunk of body) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          await handle.write(bytes);
          size += bytes.byteLength;
        }
      }
      await handle.sync();
      await handle.close();
      await rename(tmp, path).catch((err: unknown) => {
        if (hasCode(err, 'EISDIR', 'ENOTEMPTY', 'EEXIST'))
          throw new InvalidObjectKeyError(key, 'a folder of other keys has this name');
        throw err;
      });
    } catch (err) {
      await handle.close().catch(() => {});
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await fsyncDir(dir);
    return { size };
  }

  async get(key: string): Promise<Uint8Array | null> {
    validateKey(key);
    try {
      return await readFile(this.path(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    validateKey(key);
    let handle: FileHandle;
    try {
      handle = await open(this.path(key), 'r');
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return null;
      }
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    return handle.createReadStream();
  }

  async head(key: string): Promise<{ size: number } | null> {
    validateKey(key);
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    try {
      await unlink(this.path(key));
    } catch (err) {
      if (isMissing(err) || hasCode(err, 'EISDIR', 'EPERM')) return;
      throw err;
    }
    // Remove folders left empty, so the tree does not fill with empty folders; stops at the first non-empty one.
    for (let dir = dirname(this.path(key)); dir !== this.root; dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
    }
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<{ keys: string[]; next?: string }> {
    validatePrefix(prefix);
    if (opts.after !== undefined) validatePrefix(opts.after);
    const limit = listLimit(opts.limit);
    const slash = prefix.lastIndexOf('/');
    const keys: string[] = [];
    for await (const key of this.walk(prefix.slice(0, slash + 1), prefix.slice(slash + 1), opts.after)) {
      keys.push(key);
      if (keys.length > limit) break;
    }
    if (keys.length <= limit) return { keys };
    keys.length = limit;
    return { keys, next: keys[limit - 1] };
  }

  async listWrittenBefore(
    prefix: string,
    before: Date,
    opts: ListOptions = {},
  ): Promise<{ keys: string[]; next?: string }> {
    const page = await this.list(prefix, opts);
    const keys: string[] = [];
    for (const key of page.keys) {
      const info = await stat(this.path(key)).catch((err: unknown) => {
        if (isMissing(err)) return null; // deleted since the listing
        throw err;
      });
      if (info !== null && info.mtimeMs < before.getTime()) keys.push(key);
    }
    return page.next === undefined ? { keys } : { keys, next: page.next };
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const probe = join(this.root, `.ping.${randomBytes(6).toString('hex')}.tmp`);
    await (await open(probe, 'wx')).close();
    await unlink(probe);
  }

  async close(): Promise<void> {}

  private path(key: string): string {
    return join(this.root, key);
  }

  /** Creates the key's folder and an exclusive temp file in it; retries when a concurrent delete removes the empty folder in between. */
  private async openTemp(key: string, dir: string, tmp: string): Promise<FileHandle> {
    for (let attempt = 0; ; attempt++) {
      try {
        const created = await mkdir(dir, { recursive: true });
        if (created !== undefined) await fsyncNewDirs(dir, created);
        return await open(tmp, 'wx');
      } catch (err) {
        if (hasCode(err, 'ENOTDIR', 'EEXIST'))
          throw new InvalidObjectKeyError(key, 'a parent folder of this key is itself an object');
        if (!hasCode(err, 'ENOENT') || attempt >= 3) throw err;
      }
    }
  }

  /**
   * Yields the keys below folder `dirKey` ('' or ending in '/') whose next segment starts with
   * `nameStart`, in ascending key order, skipping keys <= `after` (and folders holding only such keys).
   */
  private async *walk(dirKey: string, nameStart: string, after: string | undefined): AsyncGenerator<string> {
    let entries: Dirent[];
    try {
      entries = await readdir(join(this.root, dirKey), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    const items = entries
      .filter((e) => !e.name.startsWith('.') && e.name.startsWith(nameStart) && (e.isFile() || e.isDirectory()))
      // A folder sorts as `name/` so the walk yields keys in plain string order (`a-b` < `a.c` < `a/x`).
      .map((e) => ({ key: dirKey + e.name + (e.isDirectory() ? '/' : ''), isDir: e.isDirectory() }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const item of items) {
      if (item.isDir) {
        const allBefore = after !== undefined && item.key <= after && !after.startsWith(item.key);
        if (!allBefore) yield* this.walk(item.key, '', after);
      } else if (after === undefined || item.key > after) {
        yield item.key;
      }
    }
  }
}

function hasCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: string }).code ?? '');
}

function isMissing(err: unknown): boolean {
  return hasCode(err, 'ENOENT', 'ENOTDIR', 'EISDIR');
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** After `mkdir -p` created `first` and possibly folders below it down to `dir`, makes their entries durable. */
async function fsyncNewDirs(dir: string, first: string): Promise<void> {
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first || dirname(d) === d) return;
  }
}

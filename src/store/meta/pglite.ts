/**
 * PGlite engine: PostgreSQL 18 compiled to WASM, in-process, data under a folder.
 *
 * PGlite has one connection. It serialises statements itself: `query` and `transaction` share a
 * mutex, so a statement from outside waits until a running transaction has committed or rolled
 * back, and two transactions never interleave. Consequence: calling `db.query` from inside a
 * transaction callback would wait forever, so it is refused (see shared.ts).
 *
 * Memory: an empty folder is a copy of the build's template, or initialised in a short-lived
 * child process (pglite-template.ts), because initdb leaves about 0.5 GB of WebAssembly memory
 * behind that a process cannot give back; and shared_buffers is small (PostgreSQL's default of 128 MB is resident once touched,
 * and the metadata of one installation is a few MB). Measured in docs/PERFORMANCE.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, TransactionAbortedError, type Transaction } from '@electric-sql/pglite';
import {
  abortedTransactionError,
  assertNotInTx,
  closedError,
  closedTransactionError,
  identity,
  OID,
  parseInt8,
  runInTxScope,
  toMetaDbError,
} from './shared.js';
import { initialiseFromTemplate, type InitdbSettings } from './pglite-template.js';
import { MetaDbError, type MetaDb, type MetaTx, type PgliteMetaDbOptions } from './types.js';

/** Data folders open in this process: two PGlite instances on one folder would corrupt it. */
const openFolders = new Set<string>();

export async function openPgliteMetaDb(options: Omit<PgliteMetaDbOptions, 'kind'>): Promise<MetaDb> {
  const folder = options.path === null ? null : path.resolve(options.path);
  if (folder !== null) {
    if (openFolders.has(folder)) {
      throw new MetaDbError(`the PGlite data folder ${folder} is already open in this process`, { code: null });
    }
    openFolders.add(folder);
  }
  const settings = engineOptions(options.sharedBuffersMb ?? DEFAULT_SHARED_BUFFERS_MB);
  let pg: PGlite;
  try {
    if (folder !== null) await initialiseFolder(folder, settings, options.templates);
    pg = await PGlite.create({
      ...(folder === null ? {} : { dataDir: folder }),
      ...settings,
      relaxedDurability: options.relaxedDurability ?? false,
      parsers: { [OID.int8]: parseInt8, [OID.date]: identity },
    });
  } catch (error) {
    if (folder !== null) openFolders.delete(folder);
    throw toMetaDbError(error, `cannot open PGlite data folder ${folder ?? '(memory)'}`);
  }
  return new PgliteMetaDb(pg, folder);
}

export const DEFAULT_SHARED_BUFFERS_MB = 16;

/** Server settings, given at every start (they override the folder's postgresql.conf) and to initdb (which writes them there). */
export function engineOptions(sharedBuffersMb: number): InitdbSettings {
  const settings = ['-c', `shared_buffers=${sharedBuffersMb}MB`];
  return { startParams: [...PGlite.defaultStartParams, ...settings], initDbStartParams: settings };
}

/**
 * Initialises a missing or empty folder (pglite-template.ts: a copy of the build's template, else
 * initdb in a child process) into a sibling folder renamed into place when complete: a start
 * killed mid-way leaves no half-initialised folder behind. A non-empty folder without PG_VERSION
 * is left to PGlite, which reports it.
 */
async function initialiseFolder(folder: string, settings: InitdbSettings, templates?: string): Promise<void> {
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) return;
  const staging = `${folder}.initdb`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  try {
    await initialiseFromTemplate(staging, settings, templates);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new MetaDbError(`cannot initialise the PGlite data folder ${folder}: ${(error as Error).message}`, {
      code: null,
    });
  }
  fs.rmSync(folder, { recursive: true, force: true });
  fs.renameSync(staging, folder);
}

/**
 * A consistent copy of an open PGlite's data folder, as an uncompressed tar (`sightline backup`).
 * PGlite runs in this thread and the dump reads every file under its statement lock, so no write
 * lands in between; the CHECKPOINT first writes the shared buffers out, so the copy opens without
 * replaying WAL. A transaction open at that moment is simply not in it.
 */
export async function dumpPglite(db: MetaDb): Promise<Uint8Array> {
  if (!(db instanceof PgliteMetaDb)) throw new MetaDbError('only the embedded PGlite can be dumped', { code: null });
  return db.dump();
}

/**
 * Unpacks a dump of dumpPglite into `folder`, which must be missing or empty, through PGlite's own
 * loader (it keeps the files' modes and times); openMetaDb then opens it as any folder.
 */
export async function loadPgliteDump(folder: string, dump: Uint8Array, sharedBuffersMb?: number): Promise<void> {
  const target = path.resolve(folder);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new MetaDbError(`the PGlite data folder ${target} is not empty`, { code: null });
  fs.mkdirSync(target, { recursive: true });
  try {
    const pg = await PGlite.create({
      dataDir: target,
      loadDataDir: new Blob([dump as Uint8Array<ArrayBuffer>], { type: 'application/x-tar' }),
      ...engineOptions(sharedBuffersMb ?? DEFAULT_SHARED_BUFFERS_MB),
    });
    await pg.close();
  } catch (error) {
    throw toMetaDbError(error, `cannot load the PGlite dump into ${target}`);
  }
}

class PgliteMetaDb implements MetaDb {
  readonly engine = 'pglite' as const;
  #closing: Promise<void> | null = null;

  constructor(
    private readonly pg: PGlite,
    private readonly folder: string | null,
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    this.#check();
    try {
      return (await this.pg.query<T>(sql, params as unknown[])).rows;
    } catch (error) {
      throw toMetaDbError(error);
    }
  }

  async transaction<R>(fn: (tx: MetaTx) => Promise<R>): Promise<R> {
    this.#check();
    let thrownByFn: { error: unknown } | null = null;
    try {
      return await this.pg.transaction((raw) =>
        runInTxScope(this, async () => {
          try {
            return await fn(wrapTx(raw));
          } catch (error) {
            thrownByFn = { error };
            throw error;
          }
        }),
      );
    } catch (error) {
      // The callback's own errors (domain errors included) pass through unchanged, after ROLLBACK.
      if (thrownByFn !== null && (thrownByFn as { error: unknown }).error === error) throw error;
      // COMMIT of a transaction in which a statement failed answers ROLLBACK; PGlite raises this then.
      if (error instanceof TransactionAbortedError) throw abortedTransactionError();
      throw toMetaDbError(error);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async dump(): Promise<Uint8Array> {
    this.#check();
    try {
      await this.pg.query('CHECKPOINT');
      const tar = await this.pg.dumpDataDir('none');
      return new Uint8Array(await tar.arrayBuffer());
    } catch (error) {
      throw toMetaDbError(error, 'dumping PGlite');
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.pg.close();
      } catch (error) {
        throw toMetaDbError(error, 'closing PGlite');
      } finally {
        if (this.folder !== null) openFolders.delete(this.folder);
      }
    })();
    return this.#closing;
  }

  #check(): void {
    if (this.#closing) throw closedError('pglite');
    assertNotInTx(this);
  }
}

function wrapTx(raw: Transaction): MetaTx {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      if (raw.closed) throw closedTransactionError();
      try {
        return (await raw.query<T>(sql, params as unknown[])).rows;
      } catch (error) {
        if (error instanceof Error && error.message === 'Transaction is closed') throw closedTransactionError();
        throw toMetaDbError(error);
      }
    },
  };
}

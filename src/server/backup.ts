/**
 * `sightline backup`: one archive (tar.gz) of an embedded installation, taken while the service
 * runs. Each store is copied by its own consistent means, never by reading files another thread
 * is writing: chDB's `BACKUP DATABASE` (each table's parts as of one instant, while inserts and
 * merges go on), PGlite's dump (its whole folder read under its statement lock), the objects as
 * hard links (a put renames a whole new file over the key, so a link is a frozen copy; a copy
 * with the same modification time where links cannot be made), and `session-secret`. The
 * manifest names the version, both stores' migrations and the rows of every telemetry table as
 * the backup holds them (read back from chDB's backup itself), which `sightline restore` checks.
 *
 * The service takes the backup on its control socket (control-socket.ts: the data folder is
 * locked to it, so no other process could open the engines); with no service running, the
 * command takes the lock and opens the engines itself. Either way the archive is written as
 * `<archive>.partial` and renamed when whole, so a backup cut short never looks like one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as createTar } from 'tar';
import { BACKUP_STAGING_FOLDER, type Config } from '../config.js';
import { openMetaDb } from '../store/meta/index.js';
import { dumpPglite } from '../store/meta/pglite.js';
import type { MetaDb } from '../store/meta/types.js';
import { openTelemetryEngine, type TelemetryEngine } from '../store/telemetry/index.js';
import { checkIdentifier } from '../store/telemetry/chdb.js';
import { quoteString } from '../store/telemetry/literals.js';
import { migrateTelemetry } from '../store/telemetry/migrate.js';
import { packageVersion } from './version.js';
import { lockDataFolder } from './data-folder-lock.js';
import { StartError } from './start-error.js';

/** Names inside the archive (and the staging folder it is packed from). */
export const ARCHIVE = {
  manifest: 'manifest.json',
  metadata: 'metadata.tar',
  telemetry: 'telemetry',
  objects: 'objects',
  sessionSecret: 'session-secret',
} as const;

export interface BackupManifest {
  sightline: 'backup';
  format: 1;
  /** Version of the Sightline that took it. */
  version: string;
  createdAt: string;
  metadata: { migrations: number[] };
  telemetry: { database: string; migrations: number[]; rows: Record<string, number> };
  objects: { files: number; bytes: number };
  /** False when the secret came from SESSION_SECRET, which the operator keeps. */
  sessionSecret: boolean;
}

/** The stores a backup reads, open in this process (the service's own, or opened by the command). */
export interface BackupSources {
  dataDir: string;
  meta: MetaDb;
  telemetry: TelemetryEngine;
  objectsRoot: string;
  /** Rows accepted but not yet inserted are flushed first (the service's writer). */
  flush?: () => Promise<void>;
}

/** A backup staged on disk, ready to pack; `remove` deletes the staging folder. */
export interface StagedBackup {
  folder: string;
  manifest: BackupManifest;
  remove(): void;
}

/** Fails a step once the one who asked has gone (the client closed the socket). */
export interface Cancellation {
  readonly cancelled: boolean;
}

export const SERVER_ENGINES_REFUSAL =
  "backup and restore cover the embedded engines only; with DATABASE_URL, CLICKHOUSE_URL or S3_BUCKET set use the servers' own tools (pg_dump, ClickHouse BACKUP, bucket versioning: docs/OPERATIONS.md §4)";

/** Is every store embedded (the only installation backup and restore handle)? */
export function allEmbedded(config: Config): boolean {
  return config.meta.kind === 'pglite' && config.telemetry.kind === 'chdb' && config.objects.kind === 'fs';
}

/** The staging folder of the data folder; one left by a backup that was killed is removed by the next start or backup. */
export function stagingRoot(dataDir: string): string {
  return path.join(path.resolve(dataDir), BACKUP_STAGING_FOLDER);
}

export function removeStaleStaging(dataDir: string): void {
  fs.rmSync(stagingRoot(dataDir), { recursive: true, force: true });
}

/** Stages every store's copy in a fresh folder under the staging root, step by step. */
export async function stageBackup(
  sources: BackupSources,
  progress: (line: string) => void,
  cancellation: Cancellation = { cancelled: false },
): Promise<StagedBackup> {
  const createdAt = new Date().toISOString();
  const folder = path.join(
    stagingRoot(sources.dataDir),
    `${createdAt.replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`,
  );
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const remove = () => {
    fs.rmSync(folder, { recursive: true, force: true });
    // The staging root too, unless another backup is staged there: the folder is left as it was.
    try {
      fs.rmdirSync(stagingRoot(sources.dataDir));
    } catch {}
  };
  const step = () => {
    if (cancellation.cancelled) throw new Error('the backup was cancelled');
  };
  try {
    if (sources.flush) {
      progress('writing the rows accepted so far');
      await sources.flush();
    }
    step();
    progress('metadata: dumping PGlite');
    const dump = await dumpPglite(sources.meta);
    fs.writeFileSync(path.join(folder, ARCHIVE.metadata), dump, { mode: 0o600 });
    const metadataMigrations = (
      await sources.meta.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    ).map((row) => Number(row.version));
    progress(`metadata: ${(dump.byteLength / 1048576).toFixed(1)} MB`);
    step();

    progress('telemetry: BACKUP DATABASE');
    await dropBackupReaders(sources.telemetry);
    const telemetryFolder = path.join(folder, ARCHIVE.telemetry);
    await sources.telemetry.command(
      `BACKUP DATABASE ${checkIdentifier(sources.telemetry.database)} TO File(${quoteString(`${telemetryFolder}/`)})`,
    );
    const telemetry = await readBackupContents(sources.telemetry, sources.telemetry.database, telemetryFolder);
    const total = Object.values(telemetry.rows).reduce((sum, rows) => sum + rows, 0);
    progress(`telemetry: ${total.toLocaleString('en-US')} rows in ${Object.keys(telemetry.rows).length} tables`);
    step();

    progress('objects: linking');
    const objects = await linkObjects(sources.objectsRoot, path.join(folder, ARCHIVE.objects), cancellation);
    progress(`objects: ${objects.files.toLocaleString('en-US')} (${(objects.bytes / 1048576).toFixed(1)} MB)`);
    step();

    const secretFile = path.join(sources.dataDir, 'session-secret');
    const sessionSecret = fs.existsSync(secretFile);
    if (sessionSecret) fs.copyFileSync(secretFile, path.join(folder, ARCHIVE.sessionSecret));

    const manifest: BackupManifest = {
      sightline: 'backup',
      format: 1,
      version: packageVersion(),
      createdAt,
      metadata: { migrations: metadataMigrations },
      telemetry: { database: sources.telemetry.database, ...telemetry },
      objects,
      sessionSecret,
    };
    fs.writeFileSync(path.join(folder, ARCHIVE.manifest), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return { folder, manifest, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Names of the read-only databases that read a backup's counts; the prefix is Sightline's alone. */
const BACKUP_READER_PREFIX = 'sightline_backup_';

/**
 * Drops reader databases a killed backup left behind: chDB keeps them across restarts (pointing
 * into a staging folder that is gone), and `sightline move` would take one for a second database.
 */
export async function dropBackupReaders(engine: TelemetryEngine): Promise<void> {
  const leftovers = await engine.query<{ name: string }>(
    'SELECT name FROM system.databases WHERE startsWith(name, {prefix:String})',
    { prefix: BACKUP_READER_PREFIX },
  );
  for (const { name } of leftovers) await engine.command(`DROP DATABASE IF EXISTS ${checkIdentifier(name)}`);
}

/**
 * Migrations and rows per table of a chDB backup, read from the backup itself through a
 * read-only database of the Backup engine: counting the live tables instead would race the
 * inserts, merges and deletes that go on during the BACKUP.
 */
export async function readBackupContents(
  engine: TelemetryEngine,
  database: string,
  folder: string,
): Promise<{ migrations: number[]; rows: Record<string, number> }> {
  const reader = `${BACKUP_READER_PREFIX}${randomBytes(6).toString('hex')}`;
  await engine.command(
    `CREATE DATABASE ${reader} ENGINE = Backup(${quoteString(database)}, File(${quoteString(`${folder}/`)}))`,
  );
  try {
    return await contentsOf(engine, reader);
  } finally {
    await engine.command(`DROP DATABASE IF EXISTS ${reader}`);
  }
}

/** Migrations and rows per table (MergeTree tables but the migrations') of a database. */
export async function contentsOf(
  engine: TelemetryEngine,
  database: string,
): Promise<{ migrations: number[]; rows: Record<string, number> }> {
  const db = checkIdentifier(database);
  const tables = await engine.query<{ name: string }>(
    "SELECT name FROM system.tables WHERE database = {db:String} AND engine LIKE '%MergeTree' AND name != 'schema_migrations' ORDER BY name",
    { db },
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [count] = await engine.query<{ rows: string }>(`SELECT count() AS rows FROM ${db}.${checkIdentifier(name)}`);
    rows[name] = Number(count?.rows ?? 0);
  }
  const migrations = (
    await engine.query<{ version: number }>(`SELECT DISTINCT version FROM ${db}.schema_migrations ORDER BY version`)
  ).map((row) => Number(row.version));
  return { migrations, rows };
}

/**
 * Hard links every object under `root` into `target`, keeping the folder layout. Temp files of
 * puts in flight (names starting with '.') are skipped, as are objects deleted while walking.
 */
async function linkObjects(
  root: string,
  target: string,
  cancellation: Cancellation,
): Promise<{ files: number; bytes: number }> {
  const counted = { files: 0, bytes: 0 };
  fs.mkdirSync(target, { recursive: true });
  const walk = async (relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (cancellation.cancelled) return;
      if (entry.name.startsWith('.')) continue;
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        await fs.promises.mkdir(path.join(target, name), { recursive: true });
        await walk(name);
      } else if (entry.isFile()) {
        const size = await frozenCopy(path.join(root, name), path.join(target, name));
        if (size === null) continue;
        counted.files++;
        counted.bytes += size;
      }
    }
  };
  await walk('');
  return counted;
}

/** Links `from` at `to` (or copies it, keeping its modification time); null when it is gone. */
async function frozenCopy(from: string, to: string): Promise<number | null> {
  try {
    await fs.promises.link(from, to);
    return (await fs.promises.stat(to)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
  }
  try {
    await fs.promises.copyFile(from, to);
    const info = await fs.promises.stat(from);
    await fs.promises.utimes(to, info.atime, info.mtime);
    return info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The staged folder as a tar.gz stream; entries keep their modification times. */
export function packStaged(staged: StagedBackup): Readable {
  const names: string[] = [ARCHIVE.manifest, ARCHIVE.metadata, ARCHIVE.telemetry, ARCHIVE.objects];
  if (staged.manifest.sessionSecret) names.push(ARCHIVE.sessionSecret);
  return Readable.from(createTar({ gzip: true, portable: true, cwd: staged.folder }, names));
}

export interface CommandOutput {
  write(line: string): void;
}

/**
 * Writes `archive` from a stream of its bytes: into `<archive>.partial` (owner-only: it holds
 * the session secret), renamed over `archive` once every byte is on disk; removed when the
 * stream fails (only a process killed mid-way leaves it).
 */
export async function writeArchive(archive: string, bytes: AsyncIterable<Uint8Array> | Readable): Promise<number> {
  const partial = `${archive}.partial`;
  try {
    // flush: fsync before the stream closes, so the rename below never exposes unwritten bytes.
    await pipeline(bytes, fs.createWriteStream(partial, { mode: 0o600, flush: true }));
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  const { size } = await fs.promises.stat(partial);
  await fs.promises.rename(partial, archive);
  return size;
}

/** Checks the archive's folder before anything is staged: one line and exit 73 instead of a failure at the end. */
export function checkArchivePath(archive: string): void {
  const folder = path.dirname(archive);
  try {
    if (!fs.statSync(folder).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    fs.accessSync(folder, fs.constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such folder'
        : code === 'ENOTDIR'
          ? 'not a folder'
          : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
            ? 'this user may not write there'
            : (error as Error).message;
    throw new StartError(`cannot write the archive into ${folder}: ${reason}`, 73);
  }
  if (fs.existsSync(archive) && fs.statSync(archive).isDirectory())
    throw new StartError(`${archive} is a folder: name the archive file to write`, 73);
}

/**
 * The backup of a data folder no service runs on: take its lock, open the engines (migrated
 * first if an older version wrote it, as a start would), stage, pack, close.
 */
export async function backupStoppedFolder(config: Config, archive: string, out: CommandOutput): Promise<number> {
  if (config.meta.kind !== 'pglite' || config.telemetry.kind !== 'chdb' || config.objects.kind !== 'fs')
    throw new StartError(SERVER_ENGINES_REFUSAL, 64);
  for (const store of ['pglite', 'chdb'])
    if (!fs.existsSync(path.join(config.dataDir, store)))
      throw new StartError(
        `${path.resolve(config.dataDir)} is no Sightline data folder (no ${store} in it): is DATA_DIR right?`,
        66,
      );
  const lock = lockDataFolder(config.dataDir);
  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    removeStaleStaging(config.dataDir);
    out.write(`no service runs on ${path.resolve(config.dataDir)}: opening its engines`);
    const meta = await openMetaDb(config.meta);
    opened.push(meta);
    const telemetry = await openTelemetryEngine(config.telemetry);
    opened.push(telemetry);
    await migrateTelemetry(telemetry);
    const staged = await stageBackup(
      { dataDir: config.dataDir, meta, telemetry, objectsRoot: config.objects.root },
      out.write,
    );
    try {
      out.write('archive: writing');
      return await writeArchive(archive, packStaged(staged));
    } finally {
      staged.remove();
    }
  } finally {
    for (const store of opened.reverse()) await store.close().catch(() => undefined);
    await lock.close();
  }
}

/**
 * `sightline move`: copies an embedded installation's data (the data folder's PGlite, chDB and
 * objects/) onto the server engines the environment names (DATABASE_URL, CLICKHOUSE_URL,
 * S3_BUCKET), each store only when its server is configured. The service must be stopped (the
 * data folder's lock is taken) and each target empty, so nothing is merged or overwritten; the
 * data folder keeps its data (migrated first if an older version wrote it, as a start would), and
 * the service started with the same variables then runs on the servers. Progress goes to stderr,
 * a line per table or page of objects. Every target carries the move's mark (store/move-mark.ts)
 * from before the first write until all are copied and verified; a target holding a move cut
 * short is emptied of Sightline's rows (a bucket: of the objects the data folder no longer has)
 * and copied again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CHDB_CACHE_MB } from '../store/telemetry/chdb.js';
import { BACKUP_STAGING_FOLDER, shownValue, type Config } from '../config.js';
import { openMetaDb } from '../store/meta/index.js';
import { copyMetadata, emptyMetaTables, metaTables, nonEmptyMetaTables } from '../store/meta/copy.js';
import type { MetaDb } from '../store/meta/types.js';
import { createObjectStore } from '../store/objects/index.js';
import { copyObjects, removeObjectsNotIn } from '../store/objects/copy.js';
import { openTelemetryEngine, type TelemetryEngine } from '../store/telemetry/index.js';
import { migrateTelemetry } from '../store/telemetry/migrate.js';
import { copyTelemetry, emptyTables, nonEmptyTables, telemetryTables } from '../store/telemetry/copy.js';
import {
  metadataMoveMark,
  objectsMoveMark,
  telemetryMoveMark,
  type MoveMark,
  type MoveMarkStore,
} from '../store/move-mark.js';
import { lockDataFolder } from './data-folder-lock.js';
import { s3Options } from './services.js';
import { StartError } from './start-error.js';

export interface MoveOutput {
  /** Progress and the closing summary. */
  write(line: string): void;
}

interface Closable {
  close(): Promise<void>;
}

/** A store the move writes to, and what redoing a move cut short into it takes. */
interface Target {
  mark: MoveMarkStore;
  /** The mark an earlier move left, if it did not finish. */
  unfinished: MoveMark | null;
  /** Said before a redo: what is emptied and how. */
  redo: string;
  /** Removes what an earlier move wrote (Sightline's own rows or keys only) that the copy would not replace. */
  empty(): Promise<void>;
}

/** Runs the move; a condition the operator can fix is a StartError with its exit code. */
export async function moveToServers(config: Config, out: MoveOutput): Promise<void> {
  const moves = {
    metadata: config.meta.kind === 'postgres',
    telemetry: config.telemetry.kind === 'clickhouse-http',
    objects: config.objects.kind === 's3',
  };
  if (!moves.metadata && !moves.telemetry && !moves.objects)
    throw new StartError(
      'nothing to move onto: set DATABASE_URL, CLICKHOUSE_URL and/or S3_BUCKET (see docs/OPERATIONS.md §7) to the servers the data goes to',
      64,
    );
  const folders = {
    metadata: path.join(config.dataDir, 'pglite'),
    telemetry: path.join(config.dataDir, 'chdb'),
    objects: path.join(config.dataDir, 'objects'),
  };
  for (const store of ['metadata', 'telemetry'] as const)
    if (moves[store] && !fs.existsSync(folders[store]))
      throw new StartError(`no embedded ${store} in ${config.dataDir} (no ${folders[store]}): is DATA_DIR right?`, 66);
  // objects/ appears with the first object, so a data folder may lack it; a folder with none of
  // Sightline's entries is a wrong DATA_DIR (before: "0 copied", exit 0, and the folder created).
  const secretFile = path.join(config.dataDir, 'session-secret');
  if (
    moves.objects &&
    ![folders.objects, folders.metadata, folders.telemetry, secretFile].some((p) => fs.existsSync(p))
  )
    throw new StartError(
      `${config.dataDir} is no Sightline data folder (no objects, pglite, chdb nor session-secret in it): is DATA_DIR right?`,
      66,
    );

  const lock = lockDataFolder(config.dataDir);
  const opened: Closable[] = [];
  const open = async <T extends Closable>(store: Promise<T>): Promise<T> => {
    const value = await store;
    opened.push(value);
    return value;
  };
  try {
    // Open everything and check every target before copying anything: empty, or holding only a
    // move cut short (marked), which is emptied and copied again.
    const targets: Target[] = [];
    let metadata: { from: MetaDb; to: MetaDb } | null = null;
    if (moves.metadata && config.meta.kind === 'postgres') {
      const from = await open(openMetaDb({ kind: 'pglite', path: folders.metadata }).catch(notOpened('metadata')));
      const url = config.meta.url;
      const to = await open(
        openMetaDb({ kind: 'postgres', url }).catch(
          unusable('the PostgreSQL database', shownValue('DATABASE_URL', url)),
        ),
      );
      const ownTables = await metaTables(from);
      const mark = metadataMoveMark(to);
      const unfinished = await mark.read();
      // A table that is not Sightline's was not written by a move: its rows are refused, never emptied.
      const filled = (await nonEmptyMetaTables(to, await metaTables(to))).filter(
        (table) => unfinished === null || !ownTables.includes(table),
      );
      if (filled.length > 0)
        throw new StartError(
          `the PostgreSQL database of DATABASE_URL is not empty (rows in ${filled.join(', ')}): move into an empty database`,
          65,
        );
      targets.push({
        mark,
        unfinished,
        redo: `metadata: the PostgreSQL database of DATABASE_URL holds a move that did not finish${fromFolder(unfinished)}: emptying its ${ownTables.length} Sightline tables and copying again`,
        empty: () => emptyMetaTables(to, ownTables),
      });
      metadata = { from, to };
    }
    let telemetry: { from: TelemetryEngine; to: TelemetryEngine } | null = null;
    if (moves.telemetry && config.telemetry.kind === 'clickhouse-http') {
      const from = await open(
        openTelemetryEngine({
          kind: 'chdb',
          path: folders.telemetry,
          database: embeddedDatabase(folders.telemetry, config.telemetry.database),
          maxMemoryMb: null,
          cacheMb: DEFAULT_CHDB_CACHE_MB,
          backupDir: path.join(config.dataDir, BACKUP_STAGING_FOLDER),
        }).catch(notOpened('telemetry')),
      );
      await migrateTelemetry(from);
      const notUsable = unusable(
        `the ClickHouse database ${config.telemetry.database}`,
        shownValue('CLICKHOUSE_URL', config.telemetry.url),
      );
      const to = await open(openTelemetryEngine(config.telemetry).catch(notUsable));
      await migrateTelemetry(to).catch(notUsable);
      const ownTables = await telemetryTables(from);
      const mark = telemetryMoveMark(to);
      const unfinished = await mark.read();
      const filled = unfinished === null ? await nonEmptyTables(to, ownTables) : [];
      if (filled.length > 0)
        throw new StartError(
          `the ClickHouse database ${config.telemetry.database} is not empty (rows in ${filled.join(', ')}): move into an empty database`,
          65,
        );
      targets.push({
        mark,
        unfinished,
        redo: `telemetry: the ClickHouse database ${config.telemetry.database} holds a move that did not finish${fromFolder(unfinished)}: emptying its ${ownTables.length} Sightline tables and copying again`,
        empty: () => emptyTables(to, ownTables),
      });
      telemetry = { from, to };
    }
    const objects =
      moves.objects && config.objects.kind === 's3'
        ? {
            from: await open(createObjectStore({ engine: 'fs', root: folders.objects })),
            to: await open(createObjectStore({ engine: 's3', ...s3Options(config.objects) })),
          }
        : null;
    // The bucket is only used after the metadata is copied: find out now that it answers.
    if (objects && config.objects.kind === 's3') {
      await objects.to
        .ping()
        .catch(
          unusable(
            `the S3 bucket ${config.objects.bucket}`,
            config.objects.endpoint ? shownValue('S3_ENDPOINT', config.objects.endpoint) : 'AWS',
          ),
        );
      const mark = objectsMoveMark(objects.to);
      const unfinished = await mark.read();
      targets.push({
        mark,
        unfinished,
        // A put is atomic, so every object there is whole; the copy skips those of the same size.
        redo: `objects: the S3 bucket ${config.objects.bucket} holds a move that did not finish${fromFolder(unfinished)}: copying again (objects already there whole are kept, those the data folder no longer has are removed)`,
        // Objects deleted from the folder since the run cut short would stay in the bucket, never read.
        empty: async () => {
          const removed = await removeObjectsNotIn(objects.from, objects.to);
          out.write(
            `objects: ${removed.toLocaleString('en-US')} removed from the bucket that the data folder no longer has`,
          );
        },
      });
    }

    async function copyStores() {
      if (metadata) {
        out.write('metadata: copying into PostgreSQL');
        const tables = await copyMetadata(metadata.from, metadata.to);
        const rows = tables.reduce((sum, t) => sum + t.rows, 0);
        out.write(`metadata: ${rows.toLocaleString('en-US')} rows in ${tables.length} tables copied`);
      }
      if (objects) {
        out.write('objects: copying into the S3 bucket');
        // A line per page but the last, whose figures the closing line gives (before: both).
        let previous: string | null = null;
        const done = await copyObjects(objects.from, objects.to, (p) => {
          if (previous !== null) out.write(previous);
          previous = `objects: ${p.copied.toLocaleString('en-US')} copied, ${p.skipped} already there`;
        });
        out.write(
          `objects: ${done.copied.toLocaleString('en-US')} copied (${(done.bytes / 1048576).toFixed(1)} MB), ${done.skipped} already there`,
        );
      }
      if (telemetry) {
        out.write('telemetry: copying into ClickHouse');
        let last = '';
        const tables = await copyTelemetry(telemetry.from, telemetry.to, {
          onProgress: ({ table, copied, total }) => {
            const line = `telemetry: ${table} ${copied.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`;
            if (line !== last) out.write(line);
            last = line;
          },
        });
        const rows = tables.reduce((sum, t) => sum + t.rows, 0);
        out.write(`telemetry: ${rows.toLocaleString('en-US')} rows in ${tables.length} tables copied and verified`);
      }
    }

    for (const target of targets) if (target.unfinished) out.write(target.redo);
    // Every mark before the first write, none cleared before every store is verified: a store
    // holding a finished copy next to one cut short would be refused as not empty by the redo.
    for (const target of targets) await target.mark.set({ dataDir: path.resolve(config.dataDir) });
    await copyMarked(async () => {
      for (const target of targets) if (target.unfinished) await target.empty();
      await copyStores();
      for (const target of targets) await target.mark.clear();
    });

    out.write(
      `done. Start Sightline with the same variables; ${config.dataDir} still holds its data.` +
        (fs.existsSync(secretFile)
          ? ` A process without this data folder needs SESSION_SECRET set to the content of ${secretFile} to keep sessions and alert channel secrets.`
          : ''),
    );
  } finally {
    for (const store of opened.reverse()) await store.close().catch(() => undefined);
    await lock.close();
  }
}

/**
 * A copy that fails once the targets are marked (a lost connection, a count that does not match)
 * leaves them marked: one line saying so and how to go on, exit 1, instead of a stack trace.
 */
async function copyMarked(copy: () => Promise<void>): Promise<void> {
  try {
    await copy();
  } catch (error) {
    if (error instanceof StartError) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new StartError(
      `the move stopped before it finished (${cause.split('\n')[0]}): the targets keep its mark, so the service will not start on them; fix the cause and run the same move again, which empties what this one wrote and copies again (docs/OPERATIONS.md §7)`,
      1,
    );
  }
}

function fromFolder(mark: MoveMark | null): string {
  return mark?.dataDir ? ` (from ${mark.dataDir})` : '';
}

/**
 * The database the embedded service kept its telemetry in: CLICKHOUSE_DATABASE names the
 * server's here, and the embedded one had the default unless that variable was set then too.
 * chDB keeps a `metadata/<database>.sql` per database.
 */
function embeddedDatabase(folder: string, serverDatabase: string): string {
  const builtIn = new Set(['system', 'default', 'information_schema', 'INFORMATION_SCHEMA']);
  const metadata = path.join(folder, 'metadata');
  const databases = (fs.existsSync(metadata) ? fs.readdirSync(metadata) : [])
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.slice(0, -'.sql'.length))
    .filter((name) => !builtIn.has(name));
  if (databases.includes(serverDatabase)) return serverDatabase;
  if (databases.length === 1) return databases[0]!;
  throw new StartError(
    databases.length === 0
      ? `no embedded telemetry database in ${folder}`
      : `${folder} holds several databases (${databases.join(', ')}) and none is CLICKHOUSE_DATABASE (${serverDatabase}): name the one to move in CLICKHOUSE_DATABASE`,
    66,
  );
}

/** A target server that cannot be reached or used: one line naming it, before anything is copied. */
function unusable(target: string, where: string) {
  return (error: unknown): never => {
    // A database another version migrated, or whose migration was edited: the refusal says it all (exit 1, as serve).
    if ((error as Error).name === 'MigrationError') throw new StartError((error as Error).message, 1);
    // HeadBucket answers a missing bucket with a bare 404, which the AWS SDK calls "UnknownError".
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason = status === 404 ? 'no such bucket (create it first)' : (error as Error).message;
    throw new StartError(
      `cannot use ${target} (${where}): ${reason}; nothing was copied`,
      69, // EX_UNAVAILABLE
    );
  };
}

function notOpened(store: string) {
  return (error: unknown): never => {
    throw new StartError(`the embedded ${store} could not be opened: ${(error as Error).message}`, 74);
  };
}

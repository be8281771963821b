/**
 * The mark `sightline move` leaves on each server store while it writes to it: a
 * `sightline_move_in_progress` table in the PostgreSQL schema and in the ClickHouse database, a
 * `sightline-move-in-progress` object in the bucket. It is set before the first write and cleared
 * once every store's copy is verified, so a move cut short (killed, a lost connection) leaves it
 * behind: the service refuses to start on a marked store, and the next move empties the store's
 * Sightline tables and copies again instead of refusing a target that is not empty. The mark
 * names the data folder the move came from, for the command that redoes it.
 */
import type { MetaDb } from './meta/types.js';
import type { ObjectStore } from './objects/types.js';
import type { TelemetryEngine } from './telemetry/engine.js';

/** The name of the mark's table in both databases (never copied, never counted as data). */
export const MOVE_MARK_TABLE = 'sightline_move_in_progress';
const MOVE_MARK_KEY = 'sightline-move-in-progress';

export interface MoveMark {
  /** DATA_DIR of the move; null when a move was cut short between creating the mark and filling it in. */
  dataDir: string | null;
}

export interface MoveMarkStore {
  read(): Promise<MoveMark | null>;
  set(mark: { dataDir: string }): Promise<void>;
  clear(): Promise<void>;
}

export function metadataMoveMark(db: MetaDb): MoveMarkStore {
  return {
    async read() {
      const [table] = await db.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relname = $1) AS found`,
        [MOVE_MARK_TABLE],
      );
      if (!table?.found) return null;
      const [row] = await db.query<{ data_dir: string }>(`SELECT data_dir FROM ${MOVE_MARK_TABLE} LIMIT 1`);
      return { dataDir: row?.data_dir ?? null };
    },
    async set({ dataDir }) {
      // DDL is transactional here: the table appears with its row.
      await db.transaction(async (tx) => {
        await tx.query(`CREATE TABLE IF NOT EXISTS ${MOVE_MARK_TABLE} (data_dir text NOT NULL)`);
        await tx.query(`DELETE FROM ${MOVE_MARK_TABLE}`);
        await tx.query(`INSERT INTO ${MOVE_MARK_TABLE} (data_dir) VALUES ($1)`, [dataDir]);
      });
    },
    async clear() {
      await db.query(`DROP TABLE IF EXISTS ${MOVE_MARK_TABLE}`);
    },
  };
}

export function telemetryMoveMark(engine: TelemetryEngine): MoveMarkStore {
  return {
    async read() {
      const tables = await engine.query<{ name: string }>(
        'SELECT name FROM system.tables WHERE database = currentDatabase() AND name = {name:String}',
        { name: MOVE_MARK_TABLE },
      );
      if (tables.length === 0) return null;
      const [row] = await engine.query<{ data_dir: string }>(`SELECT data_dir FROM ${MOVE_MARK_TABLE} LIMIT 1`);
      return { dataDir: row?.data_dir ?? null };
    },
    async set({ dataDir }) {
      // The table is the mark; its row only names the folder.
      await engine.command(
        `CREATE TABLE IF NOT EXISTS ${MOVE_MARK_TABLE} (data_dir String) ENGINE = MergeTree ORDER BY tuple()`,
      );
      await engine.command(`TRUNCATE TABLE ${MOVE_MARK_TABLE}`);
      await engine.command(`INSERT INTO ${MOVE_MARK_TABLE} (data_dir) VALUES ({dataDir:String})`, { dataDir });
    },
    async clear() {
      await engine.command(`DROP TABLE IF EXISTS ${MOVE_MARK_TABLE}`);
    },
  };
}

export function objectsMoveMark(objects: ObjectStore): MoveMarkStore {
  return {
    async read() {
      const body = await objects.get(MOVE_MARK_KEY);
      if (body === null) return null;
      // The object is the mark; a body that is not the move's JSON only loses the folder's name.
      try {
        const { dataDir } = JSON.parse(Buffer.from(body).toString('utf8')) as { dataDir?: unknown };
        return { dataDir: typeof dataDir === 'string' ? dataDir : null };
      } catch {
        return { dataDir: null };
      }
    },
    async set({ dataDir }) {
      await objects.put(MOVE_MARK_KEY, Buffer.from(JSON.stringify({ dataDir })), { contentType: 'application/json' });
    },
    async clear() {
      await objects.delete(MOVE_MARK_KEY);
    },
  };
}

/**
 * A bucket whose mark could not be read when the service started (the bucket did not answer):
 * every use of it reads the mark first, until a read succeeds. `found` decides on what was read:
 * null, and the bucket is used as it is from then on; an error, and every use fails with it for
 * the life of the process, so nothing is written into (or read from) a half-copied bucket. A read
 * that fails fails that use, as the bucket's outage would, and the next use reads again.
 */
export function objectsCheckedOnFirstAnswer(
  objects: ObjectStore,
  found: (mark: MoveMark | null) => Error | null,
): ObjectStore {
  const mark = objectsMoveMark(objects);
  /** undefined until a read succeeds; then null (no mark) or the refusal. */
  let refusal: Error | null | undefined;
  let reading: Promise<void> | null = null;
  const checked = async (): Promise<void> => {
    if (refusal === undefined) {
      // Concurrent uses share one read.
      reading ??= mark
        .read()
        .then((read) => {
          refusal = found(read);
        })
        .finally(() => {
          reading = null;
        });
      await reading;
    }
    if (refusal) throw refusal;
  };
  /** The store's own call, made once the mark is known not to refuse it. */
  const afterCheck =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await checked();
      return call(...args);
    };
  return {
    engine: objects.engine,
    async put(key, body, opts) {
      try {
        await checked();
      } catch (error) {
        // A stream the put will never read would hold its file open.
        if (!(body instanceof Uint8Array)) (body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        throw error;
      }
      return objects.put(key, body, opts);
    },
    get: afterCheck((key) => objects.get(key)),
    getStream: afterCheck((key) => objects.getStream(key)),
    head: afterCheck((key) => objects.head(key)),
    delete: afterCheck((key) => objects.delete(key)),
    list: afterCheck((prefix, opts) => objects.list(prefix, opts)),
    listWrittenBefore: afterCheck((prefix, before, opts) => objects.listWrittenBefore(prefix, before, opts)),
    ping: afterCheck(() => objects.ping()),
    close: () => objects.close(),
  };
}

/**
 * Metadata store: users, organizations, projects, tokens, device codes, billing, symbol files,
 * saved dashboards. One PostgreSQL schema (./migrations), two engines:
 * PGlite under the data folder (default) and a PostgreSQL server (DATABASE_URL).
 */
import { migrateMeta } from './migrate.js';
import { openPgliteMetaDb } from './pglite.js';
import type { MetaDb, MetaDbOptions } from './types.js';

export * from './types.js';
export {
  META_MIGRATIONS_DIR,
  MigrationError,
  migrateMeta,
  readMetaMigrations,
  type MetaMigrationReport,
} from './migrate.js';

export type OpenMetaDbOptions = MetaDbOptions & {
  /** Apply pending migrations before returning. Default true. */
  migrate?: boolean;
};

/** Opens the configured engine (`config.meta` fits) and, unless `migrate: false`, migrates it. */
export async function openMetaDb(options: OpenMetaDbOptions): Promise<MetaDb> {
  // The PostgreSQL client is loaded only for a PostgreSQL server.
  const db =
    options.kind === 'pglite'
      ? await openPgliteMetaDb(options)
      : await (await import('./postgres.js')).openPostgresMetaDb(options);
  if (options.migrate ?? true) {
    try {
      await migrateMeta(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
  }
  return db;
}

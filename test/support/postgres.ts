/**
 * The PostgreSQL server the suites use (127.0.0.1:5432, trust auth): statements as its admin, and
 * scratch databases, for tests that point a whole service or command at a database of its own.
 */
import pg from 'pg';

export const POSTGRES_ADDRESS = '127.0.0.1:5432';

/** The URL of `database` on the suites' server. */
export const postgresUrl = (database = 'test') => `postgres://postgres@${POSTGRES_ADDRESS}/${database}`;

/** Runs one statement on `database` (default `test`), on a connection of its own. */
export async function postgresQuery(sql: string, database = 'test'): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl(database), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Null when the server answers; otherwise why not (for a skip message). */
export function postgresUnavailable(): Promise<string | null> {
  return postgresQuery('SELECT 1').then(
    () => null,
    (error: Error) => error.message,
  );
}

/** Makes `database` look migrated by a newer Sightline: its schema_migrations has a migration 9999_future. */
export async function markMigratedByNewerBuild(database: string): Promise<void> {
  await postgresQuery(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    database,
  );
  await postgresQuery(
    "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'future', repeat('a', 64))",
    database,
  );
}

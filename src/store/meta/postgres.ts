/**
 * PostgreSQL server engine through a `pg` Pool. Each transaction holds one pooled connection for
 * its whole life; outside statements use any free connection.
 *
 * `schema` puts every connection's search_path on that schema alone (startup option
 * `-c search_path=...`, so it holds from the first statement on), which is how tests run in a
 * scratch schema and how an operator can share one database between installations.
 */
import pg from 'pg';
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
import { MetaDbError, type MetaDb, type MetaTx, type PostgresMetaDbOptions } from './types.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === OID.int8) return parseInt8;
    if (oid === OID.date) return identity;
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

export async function openPostgresMetaDb(options: Omit<PostgresMetaDbOptions, 'kind'>): Promise<MetaDb> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new MetaDbError(
      `invalid schema name ${JSON.stringify(options.schema)}: lowercase letters, digits and _ only`,
      { code: null },
    );
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 60_000,
    application_name: options.applicationName ?? 'sightline',
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    types: typeParsers,
  });
  // An idle connection that dies must not take the process with it: the pool drops it and reconnects.
  pool.on('error', (error) => options.onBackgroundError?.(toMetaDbError(error, 'idle PostgreSQL connection')));
  return new PostgresMetaDb(pool);
}

class PostgresMetaDb implements MetaDb {
  readonly engine = 'postgres' as const;
  #closing: Promise<void> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    this.#check();
    try {
      return (await this.pool.query(sql, params as unknown[])).rows as T[];
    } catch (error) {
      throw toMetaDbError(error);
    }
  }

  async transaction<R>(fn: (tx: MetaTx) => Promise<R>): Promise<R> {
    this.#check();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toMetaDbError(error, 'cannot connect to PostgreSQL');
    }
    let open = true;
    let broken: Error | undefined;
    // One statement at a time on the connection, in the order issued: the contract lets a
    // transaction's callback issue statements concurrently, and pg queues overlapping calls on a
    // client only through a path it deprecates (removed in pg 9).
    let last: Promise<unknown> = Promise.resolve();
    const inOrder = <T>(run: () => Promise<T>): Promise<T> => {
      const result = last.then(run, run);
      last = result.catch(() => undefined);
      return result;
    };
    const statement = (sql: string, params: readonly unknown[] = []) =>
      inOrder(() => client.query(sql, params as unknown[]));
    const tx: MetaTx = {
      query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
        if (!open) return Promise.reject(closedTransactionError());
        return inOrder(async () => {
          if (!open) throw closedTransactionError();
          try {
            return (await client.query(sql, params as unknown[])).rows as T[];
          } catch (error) {
            throw toMetaDbError(error);
          }
        });
      },
    };
    try {
      try {
        await statement('BEGIN');
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        throw toMetaDbError(error);
      }
      let result: R;
      try {
        result = await runInTxScope(this, () => fn(tx));
      } catch (error) {
        open = false;
        await statement('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error; // the callback's own error, unchanged (tx.query errors are MetaDbErrors already)
      }
      open = false;
      let commit: pg.QueryResult;
      try {
        commit = await statement('COMMIT');
      } catch (error) {
        // A failed COMMIT ends the transaction on the server; make sure, then report the cause.
        await statement('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw toMetaDbError(error);
      }
      // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK and no error.
      if (commit.command === 'ROLLBACK') throw abortedTransactionError();
      return result;
    } finally {
      open = false;
      client.release(broken);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  close(): Promise<void> {
    this.#closing ??= this.pool.end().catch((error: unknown) => {
      throw toMetaDbError(error, 'closing the PostgreSQL pool');
    });
    return this.#closing;
  }

  #check(): void {
    if (this.#closing) throw closedError('postgres');
    assertNotInTx(this);
  }
}

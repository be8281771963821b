/**
 * The metadata store's engine interface: PostgreSQL SQL, two implementations (PGlite in-process,
 * PostgreSQL server through `pg`). One schema, one migration set, one set of queries.
 *
 * Rules for callers (repositories in ./repositories/*.ts):
 * - Values travel only as parameters (`$1`, `$2`, ...), never interpolated into the SQL text.
 * - Pass json/jsonb parameters as `JSON.stringify(value)` (the two drivers serialise JS arrays
 *   differently: `pg` turns them into PostgreSQL array literals). Pass text[]/uuid[] parameters as
 *   JS arrays (`= ANY($1::uuid[])`).
 * - Result types are the same on both engines: uuid/text -> string, int2/int4/float -> number,
 *   int8 (including `count(*)`) -> number (bigint beyond 2^53), numeric -> string,
 *   timestamptz -> Date, date -> 'YYYY-MM-DD' string, json/jsonb -> parsed value, bool -> boolean.
 * - Inside `transaction(fn)` use only `tx`: calling the outer `db.query` from inside the callback is
 *   refused with a MetaDbError (on PGlite it would wait forever for the connection the transaction
 *   holds; on PostgreSQL it would silently run outside the transaction).
 * - A statement that fails inside a transaction aborts it: catching the error and carrying on is
 *   refused at COMMIT with SQLSTATE 25P02. Use `INSERT ... ON CONFLICT` instead of catch-and-retry.
 */

export type MetaEngineName = 'pglite' | 'postgres';

/** The query surface shared by the database and an open transaction. */
export interface MetaTx {
  /** Runs one statement with positional parameters and returns its rows (empty for DDL/DML without RETURNING). */
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface MetaDb extends MetaTx {
  readonly engine: MetaEngineName;
  /**
   * Runs `fn` inside BEGIN ... COMMIT on one connection; rolls back and rethrows when `fn` throws.
   * Transactions and outside queries never interleave on PGlite's single connection.
   */
  transaction<R>(fn: (tx: MetaTx) => Promise<R>): Promise<R>;
  /** Resolves when the database answers `SELECT 1`. */
  ping(): Promise<void>;
  /** Closes the engine; idempotent. Later calls are refused. */
  close(): Promise<void>;
}

/** SQLSTATE codes callers are expected to test for. */
export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
  exclusionViolation: '23P01',
  invalidTextRepresentation: '22P02',
  stringDataRightTruncation: '22001',
  inFailedTransaction: '25P02',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  queryCanceled: '57014',
  undefinedTable: '42P01',
} as const;

export interface MetaDbErrorDetails {
  /** SQLSTATE of the engine error; null when the failure is not a database error (connection, closed, misuse). */
  code: string | null;
  constraint?: string | undefined;
  table?: string | undefined;
  column?: string | undefined;
  /** PostgreSQL's DETAIL text; may quote key values, so it is not part of `message`. */
  detail?: string | undefined;
  cause?: unknown;
}

/** Every failure of the metadata store, on either engine. */
export class MetaDbError extends Error {
  override name = 'MetaDbError';
  readonly code: string | null;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly column: string | undefined;
  readonly detail: string | undefined;

  constructor(message: string, details: MetaDbErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.constraint = details.constraint;
    this.table = details.table;
    this.column = details.column;
    this.detail = details.detail;
  }
}

/** SQLSTATE 23505: a UNIQUE constraint or unique index refused the row. `constraint` names it. */
export class UniqueViolationError extends MetaDbError {
  override name = 'UniqueViolationError';
}

export function isMetaDbError(error: unknown, code?: string): error is MetaDbError {
  return error instanceof MetaDbError && (code === undefined || error.code === code);
}

/** True for a unique violation, optionally of one named constraint or unique index. */
export function isUniqueViolation(error: unknown, constraint?: string): error is UniqueViolationError {
  return error instanceof UniqueViolationError && (constraint === undefined || error.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown, constraint?: string): error is MetaDbError {
  return (
    isMetaDbError(error, SqlState.foreignKeyViolation) && (constraint === undefined || error.constraint === constraint)
  );
}

export function isCheckViolation(error: unknown, constraint?: string): error is MetaDbError {
  return isMetaDbError(error, SqlState.checkViolation) && (constraint === undefined || error.constraint === constraint);
}

export interface PgliteMetaDbOptions {
  kind: 'pglite';
  /** Data folder (created when missing); null keeps the database in memory (tests only). */
  path: string | null;
  /** Skip the file-system flush after each statement (faster, loses the last writes on a crash). Default false. */
  relaxedDurability?: boolean;
  /** PostgreSQL's shared_buffers in MB (PGLITE_SHARED_BUFFERS_MB). Default 16. */
  sharedBuffersMb?: number;
  /** Folder of initialised-folder templates (pglite-template.ts); default the build's, under dist/. */
  templates?: string;
}

export interface PostgresMetaDbOptions {
  kind: 'postgres';
  /** postgres:// connection URL. */
  url: string;
  /** Schema every connection uses (search_path is set to it alone); default: the server's search_path. */
  schema?: string;
  /** Pool size. Default 10. */
  poolMax?: number;
  /** Give up connecting after this long. Default 10 000 ms. */
  connectionTimeoutMs?: number;
  /** Server-side statement timeout; 0 disables it. Default 30 000 ms (migrations lift it). */
  statementTimeoutMs?: number;
  /** Server ends a session left idle inside a transaction this long. Default 60 000 ms. */
  idleInTransactionTimeoutMs?: number;
  /** Default 'sightline'. */
  applicationName?: string;
  /** Errors of idle pooled connections (server restart, network); the pool replaces the connection. */
  onBackgroundError?: (error: MetaDbError) => void;
}

export type MetaDbOptions = PgliteMetaDbOptions | PostgresMetaDbOptions;

/** Pieces both engines share: error mapping, the in-transaction guard, result parsers. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MetaDbError, SqlState, UniqueViolationError } from './types.js';

interface EngineErrorShape {
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  detail?: unknown;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Maps an error of `pg` or PGlite (both raise pg-protocol's DatabaseError, which carries the
 * SQLSTATE in `code` and a `severity`) to a MetaDbError. Parameters are never copied into the
 * message: they may hold secrets.
 */
export function toMetaDbError(error: unknown, context?: string): MetaDbError {
  if (error instanceof MetaDbError) return error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as EngineErrorShape;
  const message = str(shape.message) ?? String(error);
  const code =
    typeof shape.code === 'string' && /^[0-9A-Z]{5}$/.test(shape.code) && str(shape.severity) ? shape.code : null;
  const details = {
    code,
    constraint: str(shape.constraint),
    table: str(shape.table),
    column: str(shape.column),
    detail: str(shape.detail),
    cause: error,
  };
  const text = context ? `${context}: ${message}` : message;
  return code === SqlState.uniqueViolation ? new UniqueViolationError(text, details) : new MetaDbError(text, details);
}

export function closedError(engine: string): MetaDbError {
  return new MetaDbError(`the ${engine} metadata store is closed`, { code: null });
}

export function closedTransactionError(): MetaDbError {
  return new MetaDbError(
    'the transaction is already finished: use tx only inside its callback, and await every query',
    {
      code: null,
    },
  );
}

export function abortedTransactionError(): MetaDbError {
  return new MetaDbError(
    'the transaction was rolled back instead of committed: a statement inside it failed (do not catch and continue; use ON CONFLICT)',
    { code: SqlState.inFailedTransaction },
  );
}

interface TxScope {
  owner: object;
  active: boolean;
}

const txScope = new AsyncLocalStorage<TxScope>();

/** Runs `fn` marked as the transaction callback of `owner`; the mark ends with the transaction. */
export async function runInTxScope<R>(owner: object, fn: () => Promise<R>): Promise<R> {
  const scope: TxScope = { owner, active: true };
  try {
    return await txScope.run(scope, fn);
  } finally {
    scope.active = false;
  }
}

/** Refuses `db.query`/`db.transaction` from inside a transaction callback of the same database. */
export function assertNotInTx(owner: object): void {
  const scope = txScope.getStore();
  if (scope?.active && scope.owner === owner) {
    throw new MetaDbError('db.query or db.transaction called inside a transaction callback: use the tx argument', {
      code: null,
    });
  }
}

/** int8 -> number when exact, bigint beyond 2^53 (the same rule as PGlite's default). */
export function parseInt8(text: string): number | bigint {
  const value = BigInt(text);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

export const identity = (text: string): string => text;

/** Type OIDs whose parsing is pinned so both engines return the same JS values. */
export const OID = { int8: 20, date: 1082 } as const;

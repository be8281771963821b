import type { Readable } from 'node:stream';

/**
 * Blob storage for session-recording events, symbol files and AI conversations.
 * Keys are validated by `validateKey` (keys.ts) identically in every engine.
 * A `put` is atomic: readers see the previous object or the complete new one, never a part.
 */
export interface ObjectStore {
  readonly engine: 'fs' | 's3';
  /** Stores `body` under `key`, replacing any previous object. Streams are never buffered whole. */
  put(key: string, body: Uint8Array | NodeJS.ReadableStream, opts?: PutOptions): Promise<{ size: number }>;
  /** The whole object, or null when the key does not exist. */
  get(key: string): Promise<Uint8Array | null>;
  /** The object as a stream (for large objects), or null when the key does not exist. */
  getStream(key: string): Promise<Readable | null>;
  head(key: string): Promise<{ size: number } | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Keys starting with `prefix`, in ascending byte order, at most `limit` (default and maximum 1000).
   * `next` is set when more keys may follow; pass it back as `after` for the next page.
   */
  list(prefix: string, opts?: ListOptions): Promise<{ keys: string[]; next?: string }>;
  /**
   * Like list, keeping only keys of objects last written before `before`. The page is list's
   * page filtered, so it may hold fewer keys than the limit, or none, while `next` says more
   * may follow.
   */
  listWrittenBefore(prefix: string, before: Date, opts?: ListOptions): Promise<{ keys: string[]; next?: string }>;
  /** Throws when the storage is not usable (missing bucket, unreachable server, unwritable folder). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
}

export interface ListOptions {
  limit?: number;
  after?: string;
}

/** A key (or list prefix/cursor) outside the allowed shape, or one the fs engine cannot place. */
export class InvalidObjectKeyError extends Error {
  readonly code = 'INVALID_OBJECT_KEY';
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key.slice(0, 200))}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

export const LIST_LIMIT_MAX = 1000;

export function listLimit(limit: number | undefined): number {
  if (limit === undefined) return LIST_LIMIT_MAX;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`list limit must be a positive integer, got ${limit}`);
  return Math.min(limit, LIST_LIMIT_MAX);
}

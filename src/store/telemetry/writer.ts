/**
 * Group-commit writer: concurrent ingest requests share one insert per table.
 *
 * A request hands over its rows and waits; each request is resolved only after every one of its
 * rows is stored, so a 200 means durable. While an insert into a table is in flight, new rows
 * for that table accumulate and go in the next insert, started as soon as the previous one
 * lands: under load the batches grow instead of the inserts multiplying. Rows that find the
 * table idle linger up to `flushMs` (or until `maxRows` are pending) to gather company; rows that
 * arrive just after an insert landed (typically the next requests of the clients it answered)
 * go out on the next turn of the event loop instead, since traffic is already flowing.
 *
 * A failed insert rejects every request that had rows in it (the route answers 503 and the
 * client re-sends the frame). Rows the same request had in other tables may already be stored;
 * that is safe because every table deduplicates re-sent records by id or content key, except
 * the summed usage rows, which ingest/commit.ts writes only once the rest is stored.
 *
 * A request's records are encoded (RowBinary, rows.ts) as it hands them over, into the bytes
 * its table's next insert will carry; the writer keeps bytes, never records. Records kept until
 * their insert (tens of requests' worth under load) outlived the young generation and were
 * copied and promoted by every scavenge, then marked: that garbage collection was a fifth of the
 * main thread's time (docs/PERFORMANCE.md). A record its column types refuse fails its own
 * request at once (nothing of it is kept, in any table), not the insert it would have joined.
 * Each table has two buffers, reused: the one filling with the next insert's rows and the one
 * of the insert in flight, swapped when that insert starts.
 */
import type { RowBatch, RowFormat, RowLayout } from './rows.js';
import { RowBinaryBuffer } from './rowbinary.js';

export interface RowSink {
  insertRows(layout: RowLayout, rows: Buffer): Promise<void>;
}

export interface WriterOptions {
  maxRows: number;
  flushMs: number;
  /** Pending rows beyond which new writes are refused at once (bounded memory). */
  maxPendingRows?: number;
  onFlush?: (event: FlushEvent) => void;
}

export interface FlushEvent {
  table: string;
  rows: number;
  requests: number;
  durationMs: number;
  error?: unknown;
}

/** The store did not take the rows; the caller should answer 503 with Retry-After. */
export class WriteFailedError extends Error {
  override name = 'WriteFailedError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A table's reused buffer is dropped after an insert that grew it past this. */
const KEPT_BUFFER_BYTES = 32 * 1024 * 1024;

interface TableQueue {
  format: RowFormat<never>;
  /** The rows of the next insert, encoded as they were handed over. */
  pending: RowBinaryBuffer;
  pendingRows: number;
  /** The buffer of the insert in flight (or, between inserts, the one the next swap takes). */
  spare: RowBinaryBuffer;
  waiters: Waiter[];
  /** Cancels the scheduled flush, if one is scheduled. */
  cancelScheduled: (() => void) | null;
  inFlight: Promise<void> | null;
  /** performance.now() when the last insert landed. */
  lastLandedAt: number;
}

export class GroupCommitWriter {
  private readonly queues = new Map<string, TableQueue>();
  private pendingRows = 0;
  private closed = false;
  private readonly maxPendingRows: number;

  constructor(
    private readonly sink: RowSink,
    private readonly options: WriterOptions,
  ) {
    this.maxPendingRows = options.maxPendingRows ?? options.maxRows * 20;
  }

  /** Resolves once every row is stored; rejects with WriteFailedError otherwise. */
  write(tables: readonly RowBatch[]): Promise<void> {
    if (this.closed) return Promise.reject(new WriteFailedError('the writer is shutting down', true));
    const rowCount = tables.reduce((sum, [, records]) => sum + records.length, 0);
    if (rowCount === 0) return Promise.resolve();
    if (this.pendingRows + rowCount > this.maxPendingRows && this.pendingRows > 0) {
      return Promise.reject(new WriteFailedError('the write queue is full', true));
    }
    // Encode every table's rows first, so a refused record leaves no row of its request behind.
    const appended: Array<[queue: TableQueue, start: number, rows: number]> = [];
    for (const [format, records] of tables) {
      if (records.length === 0) continue;
      const queue = this.queueOf(format);
      appended.push([queue, queue.pending.pos, records.length]);
      try {
        format.encode(records as readonly never[], queue.pending);
      } catch (error) {
        // Latest first: a table named twice returns to where this request began.
        for (const [encoded, start] of appended.reverse()) encoded.pending.pos = start;
        return Promise.reject(
          new WriteFailedError(`a ${format.table} record does not fit its columns`, false, { cause: error }),
        );
      }
    }
    this.pendingRows += rowCount;
    const stored: Promise<void>[] = [];
    for (const [queue, , rows] of appended) {
      queue.pendingRows += rows;
      stored.push(new Promise<void>((resolve, reject) => queue.waiters.push({ resolve, reject })));
      this.schedule(queue);
    }
    return stored.length === 1 ? stored[0]! : Promise.all(stored).then(() => undefined);
  }

  get pending(): number {
    return this.pendingRows;
  }

  /** Flushes everything pending and waits for in-flight inserts; later writes are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }

  /** Flushes everything pending now and waits until nothing is in flight. */
  async drain(): Promise<void> {
    for (;;) {
      const busy = [...this.queues.values()].filter((q) => q.pendingRows > 0 || q.inFlight);
      if (busy.length === 0) return;
      for (const queue of busy) if (!queue.inFlight) this.flush(queue);
      await Promise.allSettled(busy.map((q) => q.inFlight));
    }
  }

  private queueOf(format: RowFormat<never>): TableQueue {
    let queue = this.queues.get(format.table);
    if (!queue) {
      queue = {
        format,
        pending: new RowBinaryBuffer(),
        pendingRows: 0,
        spare: new RowBinaryBuffer(),
        waiters: [],
        cancelScheduled: null,
        inFlight: null,
        lastLandedAt: -Infinity,
      };
      this.queues.set(format.table, queue);
    }
    return queue;
  }

  private schedule(queue: TableQueue): void {
    if (queue.inFlight) return; // picked up when the insert in flight lands
    if (queue.pendingRows >= this.options.maxRows) this.flush(queue);
    else if (!queue.cancelScheduled) {
      if (performance.now() - queue.lastLandedAt < this.options.flushMs) {
        const immediate = setImmediate(() => this.flush(queue));
        queue.cancelScheduled = () => clearImmediate(immediate);
      } else {
        const timer = setTimeout(() => this.flush(queue), this.options.flushMs);
        queue.cancelScheduled = () => clearTimeout(timer);
      }
    }
  }

  private flush(queue: TableQueue): void {
    queue.cancelScheduled?.();
    queue.cancelScheduled = null;
    if (queue.inFlight || queue.pendingRows === 0) return;
    const { format } = queue;
    const rows = queue.pendingRows;
    const waiters = queue.waiters;
    const bytes = queue.pending;
    queue.pending = queue.spare.capacity > KEPT_BUFFER_BYTES ? new RowBinaryBuffer() : queue.spare;
    queue.pending.reset();
    queue.spare = bytes;
    queue.pendingRows = 0;
    queue.waiters = [];
    const started = performance.now();
    queue.inFlight = this.sink
      .insertRows(format, bytes.bytes())
      .then(
        () => {
          this.report(format.table, rows, waiters.length, started);
          for (const waiter of waiters) waiter.resolve();
        },
        (error: unknown) => {
          this.report(format.table, rows, waiters.length, started, error);
          const failure = new WriteFailedError(`insert into ${format.table} failed`, true, { cause: error });
          for (const waiter of waiters) waiter.reject(failure);
        },
      )
      .finally(() => {
        this.pendingRows -= rows;
        queue.inFlight = null;
        queue.lastLandedAt = performance.now();
        if (queue.pendingRows > 0) this.flush(queue);
      });
  }

  private report(table: string, rows: number, requests: number, started: number, error?: unknown): void {
    this.options.onFlush?.({ table, rows, requests, durationMs: performance.now() - started, error });
  }
}

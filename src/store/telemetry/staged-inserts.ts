/**
 * Staged inserts for the embedded engine: rows are durable once written to a file in the data
 * folder, and go into chDB later, many writes' files in one insert.
 *
 * Every insert into a MergeTree table makes a part (a dozen files) that background merges rewrite
 * later; on the report route's load about half of chDB's CPU was those per-insert costs, not the
 * rows (docs/PERFORMANCE.md, "Staged inserts"). So a write is answered once its rows are in a
 * file of the table's open batch (a folder), which survives the process being killed as the
 * engine's own unsynced parts do; the batch is inserted as one `file('<batch>/*')` read when it
 * is `flushMs` old or `maxBatchBytes` large, or at once when a read needs it.
 *
 * Reads see every write answered before they started: the engine calls `settle()` before each
 * statement, which inserts what is staged (nothing to do when nothing is). A batch's insert
 * carries its folder name as `insert_deduplication_token`, so a batch inserted again after a
 * crash between its insert and its removal adds nothing (the tables keep a deduplication window,
 * telemetry migration 0004). At open, batches a dead process left are inserted before anything
 * else runs, and half-written files (never answered) are removed.
 *
 * A batch whose insert fails stays on disk and is tried again (with a growing pause), and
 * writes into its table are refused meanwhile, as they are while more than `maxWaitingBytes`
 * wait: the backlog stays bounded. After `maxAttempts` the batch's files are tried one by one;
 * one that fails while others go in is moved to `failed/` and reported, so one bad write cannot
 * hold up the table.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How a batch's rows go in: its table and what else its insert needs (columns, settings), stored with it. */
export interface BatchTarget {
  table: string;
  [detail: string]: unknown;
}

/** Inserts files of rows: `files` is a path or a glob of a batch's files, `token` the batch's identity. */
export type InsertFiles = (target: BatchTarget, files: string, token: string) => Promise<void>;

export interface StagedInsertOptions {
  /** The folder of batches (inside the data folder; created). */
  folder: string;
  insert: InsertFiles;
  /** A batch is inserted this long after its first write. */
  flushMs: number;
  /** ... or as soon as it holds this many bytes. */
  maxBatchBytes: number;
  /**
   * Bytes a table may have in batches waiting for their insert (default 4 × maxBatchBytes): past
   * it the engine is slower than the traffic, and writes are refused until it catches up.
   */
  maxWaitingBytes?: number;
  /** Failed inserts of a batch before its files are tried one by one. */
  maxAttempts?: number;
  /** A batch insert failed (it is kept and tried again) or a file was set aside in failed/. */
  onError?: (error: unknown, what: { table: string; batch: string; setAside?: string }) => void;
}

interface Batch {
  name: string;
  target: BatchTarget;
  folder: string;
  files: number;
  bytes: number;
  /** Writes into this batch still on their way to disk. */
  writing: Set<Promise<void>>;
  /** Resolves once the batch is in the table. */
  inserted: Promise<void>;
  markInserted: () => void;
}

interface TableStage {
  key: string;
  target: BatchTarget;
  open: Batch | null;
  /** Closed batches waiting for their insert, oldest first. */
  closed: Batch[];
  timer: NodeJS.Timeout | null;
  /** The insert loop of this table, while it runs. */
  running: Promise<void> | null;
  /** Set while the oldest batch's last insert failed: writes are refused until one succeeds. */
  failing: unknown;
  attempts: number;
  /** Told when an insert attempt fails (settle stops waiting then), or the pause before the next should end. */
  onFailure: Array<() => void>;
  wake: (() => void) | null;
}

/** Writes into a table whose staged inserts fail or lag behind: the caller answers 503, the client retries. */
export class StagedInsertsRefused extends Error {
  override name = 'StagedInsertsRefused';
}

/** Batch folders of this process's stores, by path: another open of the same store must not take them as leftovers. */
const liveBatches = new Set<string>();
let batchSequence = 0;

const FILE_SUFFIX = '.rowbinary';
const TARGET_FILE = 'target.json';
const PARTIAL_SUFFIX = '.partial';
const FAILED_FOLDER = 'failed';
/** Pauses between a failing batch's attempts: 0.1 s, growing fourfold, at most 5 s. */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 5_000;

export class StagedInserts {
  private readonly tables = new Map<string, TableStage>();
  private readonly maxAttempts: number;
  private readonly maxWaitingBytes: number;
  private closed = false;

  private constructor(private readonly options: StagedInsertOptions) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.maxWaitingBytes = options.maxWaitingBytes ?? 4 * options.maxBatchBytes;
  }

  /**
   * Opens the folder and inserts what a process that died left in it, oldest first: batch
   * folders are `<table>-<time>-<pid>-<n>`. Files never finished (`.partial`) were never
   * answered and are removed.
   */
  static async open(options: StagedInsertOptions): Promise<StagedInserts> {
    const stage = new StagedInserts(options);
    await fs.promises.mkdir(options.folder, { recursive: true });
    const names = (await fs.promises.readdir(options.folder)).filter((name) => name !== FAILED_FOLDER).sort();
    for (const name of names) {
      const folder = path.join(options.folder, name);
      if (liveBatches.has(folder)) continue;
      const files = await fs.promises.readdir(folder).catch(() => [] as string[]);
      for (const file of files) {
        if (file.endsWith(PARTIAL_SUFFIX)) await fs.promises.rm(path.join(folder, file), { force: true });
      }
      const target = await readTarget(folder);
      if (target === null || !files.some((file) => file.endsWith(FILE_SUFFIX))) {
        await fs.promises.rm(folder, { recursive: true, force: true });
        continue;
      }
      liveBatches.add(folder);
      const batch = newBatch(name, target, folder);
      batch.files = files.length;
      stage.stageOf(`recovered\0${name}`, target).closed.push(batch);
    }
    await stage.settle();
    return stage;
  }

  /**
   * Resolves once `rows` are in a file of the open batch for `target`: durable, not yet readable.
   * Writes with equal targets share batches; `key` names the target (equal keys, equal targets).
   * Refused (StagedInsertsRefused) while the target's inserts fail, or while more than
   * `maxWaitingBytes` of it wait for their insert, so the backlog stays bounded when the engine
   * refuses rows or takes them slower than they arrive.
   */
  async write(key: string, target: BatchTarget, rows: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('staged inserts are closed');
    const stage = this.stageOf(key, target);
    if (stage.failing !== undefined) {
      throw new StagedInsertsRefused(`inserts into ${target.table} are failing; they are retried`, {
        cause: stage.failing,
      });
    }
    const waiting = stage.closed.reduce((sum, closed) => sum + closed.bytes, 0);
    if (waiting >= this.maxWaitingBytes) {
      throw new StagedInsertsRefused(
        `${Math.round(waiting / 1024 / 1024)} MB of ${target.table} rows wait for their insert; retry shortly`,
      );
    }
    const batch = stage.open ?? this.openBatch(stage);
    const file = path.join(batch.folder, `${String(++batch.files).padStart(8, '0')}${FILE_SUFFIX}`);
    // Written under another name and renamed when whole: a file cut short by a crash is never read.
    const written = fs.promises
      .writeFile(file + PARTIAL_SUFFIX, rows)
      .then(() => fs.promises.rename(file + PARTIAL_SUFFIX, file));
    batch.writing.add(written);
    batch.bytes += rows.byteLength;
    if (batch.bytes >= this.options.maxBatchBytes) this.closeBatch(stage);
    try {
      await written;
    } finally {
      batch.writing.delete(written);
    }
  }

  /**
   * Inserts every batch that holds a write answered before this call, and waits for those
   * inserts; a table whose insert fails is not waited for (its rows stay staged and are retried).
   */
  settle(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const stage of this.tables.values()) {
      this.closeBatch(stage);
      const last = stage.closed.at(-1);
      if (!last || stage.failing !== undefined) continue;
      waits.push(
        new Promise<void>((resolve) => {
          stage.onFailure.push(resolve);
          void last.inserted.then(resolve);
        }),
      );
    }
    return waits.length === 0 ? Promise.resolve() : Promise.all(waits).then(() => undefined);
  }

  /** Tries failing tables again now instead of after their pause (the engine's schema changed). */
  retryNow(): void {
    for (const stage of this.tables.values()) stage.wake?.();
  }

  /** Inserts everything staged (what fails stays on disk for the next start); later writes are refused. */
  async close(): Promise<void> {
    await this.settle();
    this.closed = true;
    this.retryNow();
    await Promise.all([...this.tables.values()].map((stage) => stage.running));
  }

  private stageOf(key: string, target: BatchTarget): TableStage {
    let stage = this.tables.get(key);
    if (!stage) {
      stage = {
        key,
        target,
        open: null,
        closed: [],
        timer: null,
        running: null,
        failing: undefined,
        attempts: 0,
        onFailure: [],
        wake: null,
      };
      this.tables.set(key, stage);
    }
    return stage;
  }

  private openBatch(stage: TableStage): Batch {
    const name = `${stage.target.table}-${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${++batchSequence}`;
    const folder = path.join(this.options.folder, name);
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, TARGET_FILE), JSON.stringify(stage.target));
    liveBatches.add(folder);
    const batch = newBatch(name, stage.target, folder);
    stage.open = batch;
    stage.timer = setTimeout(() => this.closeBatch(stage), this.options.flushMs);
    return batch;
  }

  /** Closes the open batch (later writes start another) and makes sure the table's insert loop runs. */
  private closeBatch(stage: TableStage): void {
    if (stage.timer) clearTimeout(stage.timer);
    stage.timer = null;
    if (stage.open) stage.closed.push(stage.open);
    stage.open = null;
    if (!stage.running && stage.closed.length > 0 && !this.closed) {
      stage.running = this.insertClosed(stage).finally(() => {
        stage.running = null;
      });
    }
  }

  /** Inserts the table's closed batches in order, including those closed meanwhile; a failing one is retried after a pause. */
  private async insertClosed(stage: TableStage): Promise<void> {
    while (stage.closed.length > 0) {
      const batch = stage.closed[0]!;
      await Promise.allSettled([...batch.writing]);
      const error = await this.attempt(stage, batch);
      if (error === undefined) {
        stage.closed.shift();
        stage.failing = undefined;
        stage.attempts = 0;
        batch.markInserted();
        continue;
      }
      stage.failing = error;
      for (const tell of stage.onFailure.splice(0)) tell();
      if (this.closed) return;
      const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 4 ** (stage.attempts - 1));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        stage.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      stage.wake = null;
    }
  }

  /** One insert of the batch; its error, or undefined once it is in (and its folder removed). */
  private async attempt(stage: TableStage, batch: Batch): Promise<unknown> {
    const { table } = batch.target;
    stage.attempts++;
    try {
      if (stage.attempts > this.maxAttempts) await this.insertFileByFile(batch);
      else await this.options.insert(batch.target, path.join(batch.folder, `*${FILE_SUFFIX}`), batch.name);
    } catch (error) {
      this.options.onError?.(error, { table, batch: batch.name });
      return error;
    }
    await fs.promises.rm(batch.folder, { recursive: true, force: true });
    liveBatches.delete(batch.folder);
    return undefined;
  }

  /**
   * The batch has failed whole `maxAttempts` times: each file alone, as its write's own insert
   * would have gone. When some go in and others do not, those are refused for what they hold and
   * are moved to failed/; when none goes in, the engine is what fails, and the batch is kept.
   */
  private async insertFileByFile(batch: Batch): Promise<void> {
    const { table } = batch.target;
    const files = (await fs.promises.readdir(batch.folder)).filter((file) => file.endsWith(FILE_SUFFIX)).sort();
    const refused: Array<[file: string, error: unknown]> = [];
    for (const file of files) {
      try {
        await this.options.insert(batch.target, path.join(batch.folder, file), `${batch.name}-${file}`);
        await fs.promises.rm(path.join(batch.folder, file));
      } catch (error) {
        refused.push([file, error]);
      }
    }
    if (refused.length === 0) return;
    if (refused.length === files.length) throw refused[0]![1];
    const failed = path.join(this.options.folder, FAILED_FOLDER);
    await fs.promises.mkdir(failed, { recursive: true });
    for (const [file, error] of refused) {
      const setAside = path.join(failed, `${batch.name}-${file}`);
      await fs.promises.rename(path.join(batch.folder, file), setAside);
      this.options.onError?.(error, { table, batch: batch.name, setAside });
    }
  }
}

function newBatch(name: string, target: BatchTarget, folder: string): Batch {
  let markInserted!: () => void;
  const inserted = new Promise<void>((resolve) => {
    markInserted = resolve;
  });
  return { name, target, folder, files: 0, bytes: 0, writing: new Set(), inserted, markInserted };
}

/** A batch folder's target; null when it has none (a crash before the batch's first write). */
async function readTarget(folder: string): Promise<BatchTarget | null> {
  try {
    const target = JSON.parse(await fs.promises.readFile(path.join(folder, TARGET_FILE), 'utf8')) as BatchTarget;
    return typeof target?.table === 'string' ? target : null;
  } catch {
    return null;
  }
}

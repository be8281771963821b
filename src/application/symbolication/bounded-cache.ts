/**
 * The bounded LRU the symbolication caches (symbol tables, source maps) keep their tables in.
 * Each entry counts its table's bytes plus ENTRY_BYTES against the bound, so remembered misses
 * count too; a table larger than the whole bound is handed out and not kept. A miss is asked
 * for again after MISSING_TTL_MS (its file may be uploaded meanwhile); a table is checked against
 * its file's row after REVALIDATE_MS and kept when the file's content hash is unchanged, so a
 * re-upload with other content takes effect within that time on every process.
 */
import type { MetaDb } from '../../store/meta/types.js';
import type { ObjectStore } from '../../store/objects/types.js';

/** What every entry costs beyond its table (its key, source hash, record and map slot). */
export const ENTRY_BYTES = 512;
const MISSING_TTL_MS = 60_000;
const REVALIDATE_MS = 60_000;

interface Entry<Table> {
  table: Table | null;
  bytes: number;
  /** Content hash of the file the table was built from; '' for a miss. */
  source: string;
  expiresAt: number;
}

export class BoundedCache<Table> {
  private readonly entries = new Map<string, Entry<Table>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number,
  ) {}

  /** Entries held and the bytes they count against the bound. */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** A live entry (its table, or null for a remembered miss), now the most recently used; undefined when absent or expired. */
  fresh(id: string): { table: Table | null } | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    this.entries.delete(id); // re-insert: Map order is the LRU order
    this.entries.set(id, entry);
    return entry;
  }

  /** The table built from this content, renewed for another REVALIDATE_MS; undefined when the entry holds other content or none. */
  renewIfUnchanged(id: string, source: string): Table | undefined {
    const entry = this.entries.get(id);
    if (!entry?.table || entry.source !== source) return undefined;
    return this.remember(id, entry.table, entry.bytes, source);
  }

  /** Keeps a table built from the file with content hash `source`, evicting the least recently used; answers the table. */
  remember(id: string, table: Table, bytes: number, source: string): Table {
    this.put(id, { table, bytes, source, expiresAt: this.now() + REVALIDATE_MS });
    return table;
  }

  /** Remembers that `id` has no table for a while; answers null. */
  rememberMissing(id: string): null {
    this.put(id, { table: null, bytes: 0, source: '', expiresAt: this.now() + MISSING_TTL_MS });
    return null;
  }

  private put(id: string, entry: Entry<Table>): void {
    const previous = this.entries.get(id);
    if (previous) this.bytes -= previous.bytes + ENTRY_BYTES;
    this.entries.delete(id);
    if (entry.bytes + ENTRY_BYTES > this.maxBytes) return;
    this.entries.set(id, entry);
    this.bytes += entry.bytes + ENTRY_BYTES;
    for (const [oldest, evicted] of this.entries) {
      if (this.bytes <= this.maxBytes || oldest === id) break;
      this.entries.delete(oldest);
      this.bytes -= evicted.bytes + ENTRY_BYTES;
    }
  }
}

/** What a table cache is built with: its bound, a clock (tests set one) and where load failures are told. */
export interface TableCacheOptions {
  maxBytes: number;
  now?: () => number;
  onError?: (what: string, error: unknown) => void;
}

/** What the symbolication caches share: the stores they load from and a BoundedCache of the tables. */
export abstract class TableCache<Table> {
  protected readonly cache: BoundedCache<Table>;

  constructor(
    protected readonly meta: MetaDb,
    protected readonly objects: ObjectStore,
    protected readonly options: TableCacheOptions,
  ) {
    this.cache = new BoundedCache(options.maxBytes, options.now ?? Date.now);
  }

  /** Entries held and the bytes they count against `maxBytes`. */
  get usage(): { entries: number; bytes: number } {
    return this.cache.usage;
  }
}

/**
 * Lookup tables per build, three levels deep: a bounded in-memory LRU, each entry checked
 * against its symbol file row every REVALIDATE_MS; the serialized table in the object store,
 * keyed by the file's content hash (so a restart does not re-parse DWARF); and the uploaded
 * symbol file, parsed in a worker. Concurrent requests for the same build share one load.
 */
import { deserializeTable, SymbolFileError, TABLE_FORMAT_VERSION, type LookupTable } from '../../symbols/index.js';
import type { MetaDb } from '../../store/meta/types.js';
import type { ObjectStore } from '../../store/objects/types.js';
import { findSymbolFile, type SymbolFileKind } from '../../store/meta/repositories/symbol-files.js';
import type { TableBuilder } from './table-builder.js';

export interface TableKey {
  projectId: string;
  kind: Extract<SymbolFileKind, 'dart' | 'ios'>;
  buildId: string;
  arch: string;
}

interface CachedTable {
  table: LookupTable | null;
  bytes: number;
  /** contentSha256 of the symbol file the table was built from; '' for a missing build. */
  source: string;
}

/** A missing build is asked for again after this long: its symbols may be uploaded meanwhile. */
const MISSING_TTL_MS = 60_000;
/**
 * A cached table is checked against its symbol file row after this long (one small query; the
 * table is kept when the file is unchanged), so a re-upload of a build with other content
 * takes effect within this time on every process.
 */
const REVALIDATE_MS = 60_000;

export class SymbolTables {
  private readonly cache = new Map<string, CachedTable & { expiresAt: number }>();
  private readonly loading = new Map<string, Promise<LookupTable | null>>();
  private cachedBytes = 0;

  constructor(
    private readonly meta: MetaDb,
    private readonly objects: ObjectStore,
    private readonly builder: TableBuilder,
    private readonly options: { maxBytes: number; now?: () => number; onError?: (key: TableKey, error: unknown) => void },
  ) {}

  /** The table of one build, or null when no symbols were uploaded for it (or they cannot be read). */
  async get(key: TableKey): Promise<LookupTable | null> {
    const id = `${key.projectId}/${key.kind}/${key.buildId}-${key.arch}`;
    const cached = this.cache.get(id);
    if (cached && cached.expiresAt > this.now()) {
      this.cache.delete(id); // re-insert: Map order is the LRU order
      this.cache.set(id, cached);
      return cached.table;
    }
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.load(key).finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  private async load(key: TableKey): Promise<LookupTable | null> {
    const id = `${key.projectId}/${key.kind}/${key.buildId}-${key.arch}`;
    try {
      const file = await findSymbolFile(this.meta, key.projectId, key.kind, key.buildId, key.arch);
      if (!file) return this.remember(id, null, 0, '', MISSING_TTL_MS);
      const sha = file.contentSha256;
      const previous = this.cache.get(id);
      if (previous?.table && previous.source === sha) return this.remember(id, previous.table, previous.bytes, sha, REVALIDATE_MS);
      const artifactPrefix = `symboltables/v${TABLE_FORMAT_VERSION}/${id}.`;
      const artifactKey = `${artifactPrefix}${sha.slice(0, 16)}.table`;
      const artifact = await this.objects.get(artifactKey);
      const cachedTable = artifact ? readArtifact(artifact) : null;
      if (artifact && cachedTable) return this.remember(id, cachedTable, artifact.byteLength, sha, REVALIDATE_MS);
      const source = await this.objects.get(file.objectKey);
      if (!source) return this.remember(id, null, 0, '', MISSING_TTL_MS);
      const serialized = await this.builder.build({ bytes: source, fileName: file.objectKey, ...(key.kind === 'ios' ? { uuid: key.buildId } : {}) });
      const table = deserializeTable(serialized);
      await this.objects.put(artifactKey, serialized);
      // Tables built from an earlier upload of this build are of no further use.
      for (const stale of (await this.objects.list(artifactPrefix)).keys) if (stale !== artifactKey) await this.objects.delete(stale);
      return this.remember(id, table, serialized.byteLength, sha, REVALIDATE_MS);
    } catch (error) {
      this.options.onError?.(key, error);
      return this.remember(id, null, 0, '', MISSING_TTL_MS);
    }
  }

  private remember(id: string, table: LookupTable | null, bytes: number, source: string, ttlMs: number): LookupTable | null {
    const previous = this.cache.get(id);
    if (previous) this.cachedBytes -= previous.bytes;
    this.cache.delete(id);
    this.cache.set(id, { table, bytes, source, expiresAt: this.now() + ttlMs });
    this.cachedBytes += bytes;
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= this.options.maxBytes || oldest === id) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.bytes;
    }
    return table;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}

/** A cached artifact of an older format (or a damaged one) is rebuilt, not trusted. */
function readArtifact(bytes: Uint8Array): LookupTable | null {
  try {
    return deserializeTable(bytes);
  } catch (error) {
    if (error instanceof SymbolFileError) return null;
    throw error;
  }
}

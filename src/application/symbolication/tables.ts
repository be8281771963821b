/**
 * Lookup tables per build, three levels deep: a bounded in-memory LRU (`BoundedCache`), each
 * entry checked against its symbol file row once a minute; the serialized table in the object
 * store, keyed by the file's content hash (so a restart does not re-parse DWARF); and the
 * uploaded symbol file, parsed in a worker. The symbol file rows of all the builds a request
 * needs are read in one query. Concurrent requests for the same build share one load.
 */
import {
  deserializeTable,
  RetraceMapping,
  SymbolFileError,
  TABLE_FORMAT_VERSION,
  type LookupTable,
} from '../../symbols/index.js';
import type { MetaDb } from '../../store/meta/types.js';
import type { ObjectStore } from '../../store/objects/types.js';
import { findSymbolFiles, type SymbolBuild, type SymbolFile } from '../../store/meta/repositories/symbol-files.js';
import { TableCache, type TableCacheOptions } from './bounded-cache.js';
import type { TableBuilder } from './table-builder.js';

export type Build = SymbolBuild;

/** What a build's symbols load as: a DWARF lookup table (Dart, iOS) or an Android mapping. */
export type SymbolTable = LookupTable | RetraceMapping;

/** Version of the compact mapping artifact (RetraceMapping.toCompactText); bump when it changes. */
export const MAPPING_ARTIFACT_VERSION = 1;

/** A build's key in the maps of tables handed out. */
export function buildKey(build: SymbolBuild): string {
  return `${build.kind}/${build.buildId}-${build.arch}`;
}

export class SymbolTables extends TableCache<SymbolTable> {
  private readonly loading = new Map<string, Promise<SymbolTable | null>>();

  constructor(
    meta: MetaDb,
    objects: ObjectStore,
    private readonly builder: TableBuilder,
    options: TableCacheOptions,
  ) {
    super(meta, objects, options);
  }

  /**
   * The tables of those of a project's builds that have symbols, by buildKey. Builds neither
   * cached nor being loaded are looked up with one metadata query between them.
   */
  async forBuilds(projectId: string, builds: readonly Build[]): Promise<Map<string, SymbolTable>> {
    const pending = new Map<string, Promise<SymbolTable | null>>();
    const unknown: Build[] = [];
    for (const build of builds) {
      const key = buildKey(build);
      if (pending.has(key)) continue;
      const id = `${projectId}/${key}`;
      const cached = this.cache.fresh(id);
      if (cached) {
        pending.set(key, Promise.resolve(cached.table));
        continue;
      }
      const loading = this.loading.get(id);
      if (loading) pending.set(key, loading);
      else unknown.push(build);
    }
    if (unknown.length > 0) {
      const files = findSymbolFiles(this.meta, projectId, unknown).then(
        (found) => new Map(found.map((file) => [buildKey(file), file])),
        (error: unknown) => {
          this.options.onError?.(`symbol files of project ${projectId}`, error);
          return null;
        },
      );
      for (const build of unknown) {
        const key = buildKey(build);
        const id = `${projectId}/${key}`;
        const loading = files.then((found) => this.load(id, build, found)).finally(() => this.loading.delete(id));
        this.loading.set(id, loading);
        pending.set(key, loading);
      }
    }
    const tables = new Map<string, SymbolTable>();
    await Promise.all(
      [...pending].map(async ([key, table]) => {
        const loaded = await table;
        if (loaded) tables.set(key, loaded);
      }),
    );
    return tables;
  }

  /** `files`: the symbol files found for the request's builds, null when looking them up failed. */
  private async load(id: string, build: Build, files: Map<string, SymbolFile> | null): Promise<SymbolTable | null> {
    try {
      const file = files?.get(buildKey(build));
      if (!file) return this.cache.rememberMissing(id);
      const sha = file.contentSha256;
      const unchanged = this.cache.renewIfUnchanged(id, sha);
      if (unchanged) return unchanged;
      const mapping = build.kind === 'proguard';
      const artifactPrefix = mapping
        ? `symboltables/m${MAPPING_ARTIFACT_VERSION}/${id}.`
        : `symboltables/v${TABLE_FORMAT_VERSION}/${id}.`;
      const artifactKey = `${artifactPrefix}${sha.slice(0, 16)}.table`;
      const artifact = await this.objects.get(artifactKey);
      const cachedTable = artifact ? readArtifact(artifact, mapping) : null;
      if (artifact && cachedTable)
        return this.cache.remember(id, cachedTable, memoryCost(artifact.byteLength, mapping), sha);
      const source = await this.objects.get(file.objectKey);
      if (!source) return this.cache.rememberMissing(id);
      const serialized = await this.builder.build({
        bytes: source,
        fileName: file.objectKey,
        mapping,
        ...(build.kind === 'ios' ? { uuid: build.buildId } : {}),
      });
      const table = readArtifact(serialized, mapping);
      if (!table) throw new SymbolFileError('corrupt', `${file.objectKey}: the built table does not read back`);
      await this.objects.put(artifactKey, serialized);
      // Tables built from an earlier upload of this build are of no further use.
      for (const stale of (await this.objects.list(artifactPrefix)).keys)
        if (stale !== artifactKey) await this.objects.delete(stale);
      return this.cache.remember(id, table, memoryCost(serialized.byteLength, mapping), sha);
    } catch (error) {
      this.options.onError?.(`symbol table ${id}`, error);
      return this.cache.rememberMissing(id);
    }
  }
}

/**
 * A parsed mapping holds its names as strings and its ranges as objects: about
 * MAPPING_MEMORY_FACTOR times its compact text (measured by bench/symbols.ts); a lookup table's
 * typed arrays are its serialized size.
 */
export const MAPPING_MEMORY_FACTOR = 8;

function memoryCost(artifactBytes: number, mapping: boolean): number {
  return mapping ? artifactBytes * MAPPING_MEMORY_FACTOR : artifactBytes;
}

/** A cached artifact of an older format (or a damaged one) is rebuilt, not trusted. */
function readArtifact(bytes: Uint8Array, mapping: boolean): SymbolTable | null {
  try {
    return mapping ? RetraceMapping.parse(new TextDecoder().decode(bytes)) : deserializeTable(bytes);
  } catch (error) {
    if (error instanceof SymbolFileError) return null;
    throw error;
  }
}

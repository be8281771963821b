/**
 * Android retrace on ingest (report route and OTLP), for projects of the android framework:
 * Java/Kotlin crash traces find their R8/ProGuard mapping — by the `r8-map-id-<id>` R8 writes
 * into frames' source files when the trace has one, else by the app version the record reports
 * (the version an upload named) — and are retraced. The mappings of all of a request's traces are
 * found in one metadata query and loaded through the same bounded cache as the symbol tables.
 * The grouping hash is computed on the retraced text; the text as received is kept beside it.
 */
import { exceptionHash } from '../../core/grouping.js';
import type { ExceptionRecord } from '../../core/records.js';
import { parseJavaTrace, retraceJava, RetraceMapping } from '../../symbols/index.js';
import { findMappings } from '../../store/meta/repositories/symbol-files.js';
import type { MetaDb } from '../../store/meta/types.js';
import { buildKey, type SymbolTables } from './tables.js';

export const RETRACED_FRAMEWORKS = new Set(['android']);
/** Distinct map ids and app versions looked up for one request; traces past them stay as received. */
export const MAX_MAPPING_KEYS_PER_REQUEST = 64;

type Want = { mapId: string } | { appVersion: string };

/** Retraces the batch's Java/Kotlin exceptions in place; answers how many traces changed. */
export async function retraceExceptions(
  exceptions: ExceptionRecord[],
  projectId: string,
  meta: MetaDb,
  tables: SymbolTables,
): Promise<number> {
  const mapIds = new Set<string>();
  const versions = new Set<string>();
  const wants = exceptions.map((exception): Want | null => {
    if (exception.isMessage) return null;
    const trace = parseJavaTrace(exception.stackTrace);
    if (trace.frameCount === 0) return null;
    // A map id names the exact build: a trace that has one never falls back to its app version.
    const want: Want | null =
      trace.mapIds[0] !== undefined
        ? { mapId: trace.mapIds[0] }
        : exception.appVersion !== ''
          ? { appVersion: exception.appVersion }
          : null;
    if (!want) return null;
    const keys = 'mapId' in want ? mapIds : versions;
    const key = 'mapId' in want ? want.mapId : want.appVersion;
    if (!keys.has(key) && mapIds.size + versions.size >= MAX_MAPPING_KEYS_PER_REQUEST) return null;
    keys.add(key);
    return want;
  });
  if (mapIds.size + versions.size === 0) return 0;

  const matches = await findMappings(meta, projectId, [...mapIds], [...versions]);
  const buildOf = (want: Want): string | undefined =>
    ('mapId' in want
      ? matches.find((m) => m.buildId.startsWith(want.mapId))
      : matches.find((m) => m.appVersion === want.appVersion)
    )?.buildId;
  const builds = [...new Set(wants.flatMap((want) => (want ? [buildOf(want)] : [])).filter((id) => id !== undefined))];
  if (builds.length === 0) return 0;
  const loaded = await tables.forBuilds(
    projectId,
    builds.map((buildId) => ({ kind: 'proguard' as const, buildId, arch: '' })),
  );

  let changed = 0;
  exceptions.forEach((exception, i) => {
    const buildId = wants[i] ? buildOf(wants[i]) : undefined;
    const mapping = buildId === undefined ? undefined : loaded.get(buildKey({ kind: 'proguard', buildId, arch: '' }));
    if (!(mapping instanceof RetraceMapping)) return;
    const text = exception.stackTrace;
    const retraced = retraceJava(text, mapping);
    if (retraced === text) return;
    exception.rawStackTrace = text;
    exception.stackTrace = retraced;
    exception.hash = exceptionHash(retraced, false);
    changed++;
  });
  return changed;
}

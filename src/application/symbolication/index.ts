/**
 * Symbolication on the report route, for Flutter and iOS projects: finds the builds a batch's
 * crash traces need, loads their tables, rewrites the traces, and regroups them (the grouping
 * hash is computed on the symbolicated text; the text as received is kept beside it).
 */
import { exceptionHash } from '../../core/grouping.js';
import type { ExceptionRecord } from '../../core/records.js';
import {
  detectTraceFlavor,
  LookupTable,
  parseDartTrace,
  parseIosTrace,
  symbolicateDart,
  symbolicateIos,
} from '../../symbols/index.js';
import { buildKey, type Build, type SymbolTables } from './tables.js';

export const SYMBOLICATED_FRAMEWORKS = new Set(['flutter', 'ios']);

/**
 * Distinct builds looked up for one trace: an iOS crash names tens of images, a Dart trace one
 * build. Images past it keep their raw frames, as frames of a build without symbols do.
 */
export const MAX_BUILDS_PER_TRACE = 64;
/** Distinct builds looked up for one request (in one metadata query); the rest keep raw frames. */
export const MAX_BUILDS_PER_REQUEST = 256;

/** Symbolicates the batch's exceptions in place; answers how many traces changed. */
export async function symbolicateExceptions(
  exceptions: ExceptionRecord[],
  projectId: string,
  tables: SymbolTables,
): Promise<number> {
  const buildsPerTrace: Build[][] = [];
  const flavors = exceptions.map((exception) => {
    if (exception.isMessage) return null;
    const flavor = detectTraceFlavor(exception.stackTrace);
    if (flavor === 'dart') {
      const trace = parseDartTrace(exception.stackTrace);
      if (trace.buildId && trace.arch)
        buildsPerTrace.push([{ kind: 'dart', buildId: trace.buildId, arch: trace.arch }]);
    } else if (flavor === 'ios') {
      const trace = parseIosTrace(exception.stackTrace);
      buildsPerTrace.push(
        trace.uuids.slice(0, MAX_BUILDS_PER_TRACE).map((uuid) => ({ kind: 'ios', buildId: uuid, arch: trace.arch })),
      );
    }
    return flavor;
  });
  const needed = fairShare(buildsPerTrace, MAX_BUILDS_PER_REQUEST);
  if (needed.length === 0) return 0;

  const loaded = await tables.forBuilds(projectId, needed);
  let changed = 0;
  exceptions.forEach((exception, i) => {
    const flavor = flavors[i];
    if (!flavor) return;
    const kind = flavor === 'dart' ? 'dart' : 'ios';
    const resolve = (buildId: string, arch: string) => {
      const table = loaded.get(buildKey({ kind, buildId, arch }));
      return table instanceof LookupTable ? table : undefined;
    };
    const text = exception.stackTrace;
    const symbolicated = flavor === 'dart' ? symbolicateDart(text, resolve) : symbolicateIos(text, resolve);
    if (symbolicated === text) return;
    exception.rawStackTrace = text;
    exception.stackTrace = symbolicated;
    exception.hash = exceptionHash(symbolicated, false);
    changed++;
  });
  return changed;
}

/**
 * At most `limit` distinct builds, taken round-robin across the traces (every trace's first
 * build, then every trace's second, ...), so traces naming many builds cannot crowd out the
 * few builds of the others.
 */
function fairShare(buildsPerTrace: readonly Build[][], limit: number): Build[] {
  const picked = new Map<string, Build>();
  let remaining = buildsPerTrace.filter((builds) => builds.length > 0);
  for (let round = 0; remaining.length > 0; round++) {
    for (const builds of remaining) {
      picked.set(buildKey(builds[round]!), builds[round]!);
      if (picked.size === limit) return [...picked.values()];
    }
    remaining = remaining.filter((builds) => builds.length > round + 1);
  }
  return [...picked.values()];
}

/**
 * Symbolication on the report route, for Flutter and iOS projects: finds the builds a batch's
 * crash traces need, loads their tables, rewrites the traces, and regroups them (the grouping
 * hash is computed on the symbolicated text; the text as received is kept beside it).
 */
import { exceptionHash } from '../../core/grouping.js';
import type { ExceptionRecord } from '../../core/records.js';
import { detectTraceFlavor, parseDartTrace, parseIosTrace, symbolicateDart, symbolicateIos, type LookupTable } from '../../symbols/index.js';
import type { SymbolTables, TableKey } from './tables.js';

export const SYMBOLICATED_FRAMEWORKS = new Set(['flutter', 'ios']);

/** Symbolicates the batch's exceptions in place; answers how many traces changed. */
export async function symbolicateExceptions(exceptions: ExceptionRecord[], projectId: string, tables: SymbolTables): Promise<number> {
  const needed = new Map<string, TableKey>();
  const flavors = exceptions.map((exception) => {
    if (exception.isMessage) return null;
    const flavor = detectTraceFlavor(exception.stackTrace);
    if (flavor === 'dart') {
      const trace = parseDartTrace(exception.stackTrace);
      if (trace.buildId && trace.arch) need(needed, { projectId, kind: 'dart', buildId: trace.buildId, arch: trace.arch });
    } else if (flavor === 'ios') {
      const trace = parseIosTrace(exception.stackTrace);
      for (const uuid of trace.uuids) need(needed, { projectId, kind: 'ios', buildId: uuid, arch: trace.arch });
    }
    return flavor;
  });
  if (needed.size === 0) return 0;

  const loaded = new Map<string, LookupTable>();
  await Promise.all(
    [...needed.entries()].map(async ([id, key]) => {
      const table = await tables.get(key);
      if (table) loaded.set(id, table);
    }),
  );
  let changed = 0;
  exceptions.forEach((exception, i) => {
    const flavor = flavors[i];
    if (!flavor) return;
    const kind = flavor === 'dart' ? 'dart' : 'ios';
    const resolve = (buildId: string, arch: string) => loaded.get(tableId({ projectId, kind, buildId, arch }));
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

function tableId(key: TableKey): string {
  return `${key.kind}/${key.buildId}-${key.arch}`;
}

function need(needed: Map<string, TableKey>, key: TableKey): void {
  needed.set(tableId(key), key);
}

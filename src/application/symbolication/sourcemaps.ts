/**
 * Source-map symbolication on ingest, for every project and both routes (report and OTLP
 * exception events): chosen by the shape of each trace (Chrome/V8, Node, Firefox and Safari
 * frames), not by the project's framework. The maps a request's traces need are found in one
 * metadata query, by (release = the occurrence's app version, served path) or by the debug id an
 * SDK sent for the script (`sightline.debug_ids` attribute: a JSON object of script URL to debug
 * id), and decoded into lookup tables held in a bounded LRU (`SOURCE_MAP_CACHE_MB`). Misses are
 * remembered a minute; a cached table is checked against its row every minute, so a re-upload
 * takes effect within a minute. The trace is rewritten, the text as received kept in
 * `rawStackTrace`, the grouping hash recomputed on the mapped text, and the mapped frames with
 * their source context recorded in the `sightline.frames` attribute for the dashboard.
 */
import { exceptionHash } from '../../core/grouping.js';
import type { ExceptionRecord } from '../../core/records.js';
import {
  findSourceMapFiles,
  type SourceMapFile,
  type SourceMapWanted,
} from '../../store/meta/repositories/source-map-files.js';
import {
  normalizeJsDebugId,
  parseJsTrace,
  scriptPath,
  SourceMapError,
  SourceMapTable,
  symbolicateJs,
} from '../../symbols/index.js';
import { TableCache } from './bounded-cache.js';

/** Attribute an SDK may send: `{"<script url>": "<debug id>"}`. */
export const DEBUG_IDS_ATTRIBUTE = 'sightline.debug_ids';
/** Attribute the service writes: the mapped frames and their source context, JSON. */
export const FRAMES_ATTRIBUTE = 'sightline.frames';
/** Distinct scripts looked up for one trace, and for one request (the rest keep their frames). */
export const MAX_SCRIPTS_PER_TRACE = 32;
export const MAX_SCRIPTS_PER_REQUEST = 256;

const keyOf = (w: SourceMapWanted): string => (w.debugId !== '' ? `id:${w.debugId}` : `rel:${w.release}\n${w.path}`);

export class SourceMapTables extends TableCache<SourceMapTable> {
  /** Tables of the wanted scripts that have maps, by keyOf; the ones not cached are found with one query. */
  async forScripts(projectId: string, wanted: readonly SourceMapWanted[]): Promise<Map<string, SourceMapTable>> {
    const tables = new Map<string, SourceMapTable>();
    const unknown: SourceMapWanted[] = [];
    for (const w of wanted) {
      const cached = this.cache.fresh(`${projectId}/${keyOf(w)}`);
      if (cached) {
        if (cached.table) tables.set(keyOf(w), cached.table);
      } else unknown.push(w);
    }
    if (unknown.length === 0) return tables;
    let rows: SourceMapFile[];
    try {
      rows = await findSourceMapFiles(this.meta, projectId, unknown);
    } catch (error) {
      this.options.onError?.(`source maps of project ${projectId}`, error);
      return tables;
    }
    for (const w of unknown) {
      const row = rows.find((r) =>
        w.debugId !== '' ? r.debugId === w.debugId : r.release === w.release && r.path === w.path,
      );
      const table = await this.load(`${projectId}/${keyOf(w)}`, row);
      if (table) tables.set(keyOf(w), table);
    }
    return tables;
  }

  private async load(id: string, row: SourceMapFile | undefined): Promise<SourceMapTable | null> {
    if (!row) return this.cache.rememberMissing(id);
    const unchanged = this.cache.renewIfUnchanged(id, row.contentSha256);
    if (unchanged) return unchanged;
    try {
      const bytes = await this.objects.get(row.objectKey);
      if (!bytes) return this.cache.rememberMissing(id);
      const table = new SourceMapTable(Buffer.from(bytes).toString('utf8'));
      return this.cache.remember(id, table, table.bytes, row.contentSha256);
    } catch (error) {
      if (!(error instanceof SourceMapError)) this.options.onError?.(`source map ${row.objectKey}`, error);
      return this.cache.rememberMissing(id);
    }
  }
}

function debugIdsOf(exception: ExceptionRecord): Map<string, string> {
  const ids = new Map<string, string>();
  const json = exception.attributes[DEBUG_IDS_ATTRIBUTE];
  if (typeof json !== 'string' || json.length > 64 * 1024) return ids;
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return ids;
    for (const [url, id] of Object.entries(parsed as Record<string, unknown>)) {
      const path = scriptPath(url);
      const debugId = normalizeJsDebugId(id);
      if (path !== null && debugId !== null) ids.set(path, debugId);
    }
  } catch {
    // Not JSON: no debug ids, the release decides.
  }
  return ids;
}

/** Maps the JavaScript frames of a batch's exceptions in place; answers how many traces changed. */
export async function symbolicateJsExceptions(
  exceptions: ExceptionRecord[],
  projectId: string,
  tables: SourceMapTables,
): Promise<number> {
  const perTrace = exceptions.map((exception) => {
    if (exception.isMessage) return null;
    const trace = parseJsTrace(exception.stackTrace);
    if (!trace) return null;
    const debugIds = debugIdsOf(exception);
    const wanted = new Map<string, SourceMapWanted>();
    for (const frame of trace.frames) {
      const path = scriptPath(frame.url);
      if (path === null) continue;
      const w = { release: exception.appVersion, path, debugId: debugIds.get(path) ?? '' };
      if (w.release === '' && w.debugId === '') continue;
      if (wanted.size >= MAX_SCRIPTS_PER_TRACE && !wanted.has(keyOf(w))) break;
      wanted.set(keyOf(w), w);
    }
    return wanted.size > 0 ? { wanted, debugIds } : null;
  });
  const needed = new Map<string, SourceMapWanted>();
  for (const trace of perTrace) {
    if (!trace) continue;
    for (const [key, w] of trace.wanted)
      if (needed.size < MAX_SCRIPTS_PER_REQUEST || needed.has(key)) needed.set(key, w);
  }
  if (needed.size === 0) return 0;
  const loaded = await tables.forScripts(projectId, [...needed.values()]);
  if (loaded.size === 0) return 0;
  let changed = 0;
  exceptions.forEach((exception, i) => {
    const trace = perTrace[i];
    if (!trace) return;
    const text = exception.stackTrace;
    const result = symbolicateJs(text, (frame) => {
      const path = scriptPath(frame.url);
      if (path === null) return undefined;
      return loaded.get(keyOf({ release: exception.appVersion, path, debugId: trace.debugIds.get(path) ?? '' }));
    });
    if (result.frames.length === 0) return;
    if (exception.rawStackTrace === '') exception.rawStackTrace = text;
    exception.stackTrace = result.text;
    exception.hash = exceptionHash(result.text, false);
    exception.attributes[FRAMES_ATTRIBUTE] = JSON.stringify(result.frames);
    changed++;
  });
  return changed;
}

/**
 * A JavaScript source map (revision 3, plain or indexed) read into a lookup table: generated
 * line and column to original source, line, column and name, with the source's lines when the
 * map carries `sourcesContent`. Decoding and lookup are @jridgewell/trace-mapping's; this module
 * checks the shape first and bounds what a hostile map can cost (a map is text anyone holding
 * the project's source-map token can upload).
 */
import {
  FlattenMap,
  GREATEST_LOWER_BOUND,
  LEAST_UPPER_BOUND,
  originalPositionFor,
  type TraceMap,
} from '@jridgewell/trace-mapping';

export class SourceMapError extends Error {
  override name = 'SourceMapError';
}

export const SOURCE_MAP_LIMITS = {
  /** Mapping segments of one map: the decoded table costs about 64 bytes a segment. */
  segments: 4_000_000,
  /** Sections of an indexed map. */
  sections: 10_000,
  /** Sources and names of one map. */
  sources: 100_000,
  /** Lines of source context on each side of a mapped line, and the characters kept of each. */
  contextLines: 5,
  contextLineChars: 240,
} as const;

export interface OriginalPosition {
  source: string;
  /** 1-based. */
  line: number;
  /** 1-based, as browsers print columns. */
  column: number;
  name: string | null;
}

export interface SourceContext {
  /** 1-based line number of `lines[0]`. */
  start: number;
  lines: string[];
}

/** What an uploaded map says about itself, read without decoding its mappings. */
export interface SourceMapInfo {
  /** Normalised debug id (32 lowercase hex) from `debugId` or `debug_id`, or null. */
  debugId: string | null;
  /** The generated file the map describes (`file`), or null. */
  file: string | null;
  segments: number;
}

type RawMap = Record<string, unknown>;

/** A debug id in any case, with or without dashes (a UUID, possibly with an appendix), as 32 lowercase hex; null when it is not one. */
export function normalizeJsDebugId(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const hex = value.trim().toLowerCase().replace(/-/g, '');
  const head = hex.slice(0, 32);
  return /^[0-9a-f]{32}$/.test(head) ? head : null;
}

function parseJsonMap(text: string): RawMap {
  let parsed: unknown;
  try {
    // A map may start with the XSSI guard `)]}'` on its own line (the spec allows it).
    parsed = JSON.parse(text.startsWith(")]}'") ? text.slice(text.indexOf('\n') + 1) : text);
  } catch (error) {
    throw new SourceMapError(`not JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SourceMapError('not a JSON object');
  return parsed as RawMap;
}

/** Shape checks of a map and its sections; answers the mapping segments it would decode to (at most). */
function checkShape(map: RawMap, depth = 0): number {
  if (map.version !== 3) throw new SourceMapError(`version is ${JSON.stringify(map.version) ?? 'missing'}, not 3`);
  if (Array.isArray(map.sections)) {
    if (depth > 0) throw new SourceMapError('a section holds sections');
    if (map.sections.length > SOURCE_MAP_LIMITS.sections)
      throw new SourceMapError(`more than ${SOURCE_MAP_LIMITS.sections} sections`);
    let segments = 0;
    for (const section of map.sections as unknown[]) {
      const s = section as RawMap | null;
      if (s === null || typeof s !== 'object') throw new SourceMapError('a section is not an object');
      const offset = s.offset as RawMap | undefined;
      if (
        !offset ||
        !Number.isSafeInteger(offset.line) ||
        !Number.isSafeInteger(offset.column) ||
        (offset.line as number) < 0 ||
        (offset.column as number) < 0
      ) {
        throw new SourceMapError('a section has no valid offset');
      }
      if (s.map === null || typeof s.map !== 'object')
        throw new SourceMapError('a section has no map (url sections are not supported)');
      segments += checkShape(s.map as RawMap, depth + 1);
    }
    return segments;
  }
  if (typeof map.mappings !== 'string') throw new SourceMapError('mappings is not a string');
  if (!Array.isArray(map.sources) || map.sources.length > SOURCE_MAP_LIMITS.sources)
    throw new SourceMapError('sources is not a list (or is over 100000 long)');
  if (map.names !== undefined && (!Array.isArray(map.names) || map.names.length > SOURCE_MAP_LIMITS.sources))
    throw new SourceMapError('names is not a list');
  if (map.sourcesContent !== undefined && map.sourcesContent !== null && !Array.isArray(map.sourcesContent))
    throw new SourceMapError('sourcesContent is not a list');
  if (!/^[A-Za-z0-9+/,;]*$/.test(map.mappings))
    throw new SourceMapError('mappings holds characters outside base64 VLQ');
  // Every segment but the last of a line ends at a comma; each line at a semicolon.
  let segments = 1;
  for (let i = 0; i < map.mappings.length; i++) {
    const c = map.mappings.charCodeAt(i);
    if (c === 44 || c === 59) segments++;
  }
  return segments;
}

/** Reads and checks an uploaded map without decoding its mappings (SourceMapError when unusable). */
export function inspectSourceMap(text: string): SourceMapInfo {
  const map = parseJsonMap(text);
  const segments = checkShape(map);
  if (segments > SOURCE_MAP_LIMITS.segments)
    throw new SourceMapError(`${segments} mapping segments, over the limit of ${SOURCE_MAP_LIMITS.segments}`);
  return {
    debugId: normalizeJsDebugId(map.debugId ?? map.debug_id),
    file: typeof map.file === 'string' && map.file.length <= 1024 ? map.file : null,
    segments,
  };
}

/** `webpack://app/./src/a.ts`, `../../src/a.ts`, `/abs/src/a.ts` → a project-relative looking path: `src/a.ts`. */
export function displaySource(source: string): string {
  let s = source.replace(/^[a-z][a-z0-9+.-]*:\/\/\/?[^/]*\//i, '');
  s = s.replace(/^(?:\.\.?\/)+/, '');
  return s === '' ? source : s;
}

/** A decoded map: original positions for generated ones, and source context. */
export class SourceMapTable {
  private readonly map: TraceMap;
  private readonly contentLines = new Map<number, string[]>();
  /** Source (as lookups name it) to its index, built at the first context asked for. */
  private sourceIndexes: Map<string, number> | null = null;
  /** Heap the table holds, estimated: what the cache counts it for. */
  readonly bytes: number;
  readonly debugId: string | null;

  constructor(text: string) {
    const raw = parseJsonMap(text);
    const segments = checkShape(raw);
    if (segments > SOURCE_MAP_LIMITS.segments)
      throw new SourceMapError(`${segments} mapping segments, over the limit of ${SOURCE_MAP_LIMITS.segments}`);
    try {
      this.map = new FlattenMap(raw as never);
      // Decode now, under the caller's try, rather than at the first lookup.
      originalPositionFor(this.map, { line: 1, column: 0 });
    } catch (error) {
      if (error instanceof SourceMapError) throw error;
      throw new SourceMapError(`unreadable mappings (${(error as Error).message})`);
    }
    this.debugId = normalizeJsDebugId(raw.debugId ?? raw.debug_id);
    const content = (this.map.sourcesContent ?? []).reduce(
      (sum, s) => sum + (typeof s === 'string' ? s.length * 2 : 0),
      0,
    );
    this.bytes = segments * 64 + content + text.length;
  }

  /** The original position of a 1-based generated line and column, or null when the map has none there. */
  lookup(line: number, column: number): OriginalPosition | null {
    if (!Number.isSafeInteger(line) || !Number.isSafeInteger(column) || line < 1 || column < 1) return null;
    let found = originalPositionFor(this.map, { line, column: column - 1, bias: GREATEST_LOWER_BOUND });
    // A column before the line's first segment (columns that point at leading whitespace).
    if (found.source === null)
      found = originalPositionFor(this.map, { line, column: column - 1, bias: LEAST_UPPER_BOUND });
    // A hostile map can decode to negative lines and columns, or name a source or name that is no string.
    if (typeof found.source !== 'string' || found.source === '' || !(found.line >= 1) || !(found.column >= 0))
      return null;
    return {
      source: found.source,
      line: found.line,
      column: found.column + 1,
      name: typeof found.name === 'string' && found.name !== '' ? found.name : null,
    };
  }

  /** Lines around a 1-based line of a source, from `sourcesContent`; null when the map has none. */
  context(source: string, line: number): SourceContext | null {
    if (this.sourceIndexes === null) {
      this.sourceIndexes = new Map();
      this.map.resolvedSources.forEach((resolved, i) => {
        if (!this.sourceIndexes!.has(resolved)) this.sourceIndexes!.set(resolved, i);
      });
    }
    const sourceIndex = this.sourceIndexes.get(source);
    if (sourceIndex === undefined) return null;
    let lines = this.contentLines.get(sourceIndex);
    if (!lines) {
      const content = this.map.sourcesContent?.[sourceIndex];
      if (typeof content !== 'string') return null;
      lines = content.split(/\r\n?|\n/);
      this.contentLines.set(sourceIndex, lines);
    }
    if (line < 1 || line > lines.length) return null;
    const start = Math.max(1, line - SOURCE_MAP_LIMITS.contextLines);
    const end = Math.min(lines.length, line + SOURCE_MAP_LIMITS.contextLines);
    return {
      start,
      lines: lines.slice(start - 1, end).map((text) => text.slice(0, SOURCE_MAP_LIMITS.contextLineChars)),
    };
  }
}

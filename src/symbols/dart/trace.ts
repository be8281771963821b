import { normalizeArch, type DartArch } from '../ids.js';
import type { LookupTable, SymbolFrame } from '../table/lookup-table.js';
import {
  archTokenOf,
  frameLines,
  isLineOf,
  parseHex,
  rewriteTrace,
  splitTraceLines,
  type TableResolver,
} from '../trace/text.js';

/** The spec's cap on emitted Dart frames, inline expansions and raw lines included. */
export const DART_FRAME_CAP = 50;

/**
 * `#00 abs 0000007a1c5ee6ab virt 000000000030a6ab _kDartIsolateSnapshotInstructions+0x1e1dab` (the
 * VM's non-symbolic frame), read from a `traceLine`; group 1 is the location, if any.
 */
const DART_FRAME = /^#\d+\s+abs\s+[0-9a-fA-F]+(?:\s+virt\s+[0-9a-fA-F]+)?(?:\s+(\S.*))?$/;
const SYMBOL_OFFSET = /^(\S+)\+0x([0-9a-fA-F]+)$/;
const BUILD_ID = /\bbuild_id(?::\s*|=)'([0-9a-fA-F]+)'/;

export interface DartTraceFrame {
  /** The frame line exactly as received. */
  readonly raw: string;
  /** Section symbol the offset is relative to, e.g. `_kDartIsolateSnapshotInstructions`; null if the line has none. */
  readonly symbol: string | null;
  readonly offset: number | null;
}

export interface DartTrace {
  /** From the `build_id: '…'` line, lowercase; null when absent. */
  readonly buildId: string | null;
  /** From the `arch:` token of the `os:` line, normalized; null when absent or not a Dart arch. */
  readonly arch: DartArch | null;
  readonly frames: readonly DartTraceFrame[];
}

/** What a caller needs before symbolicateDart: which table to load (build id + arch) and whether there is anything to do. */
export function parseDartTrace(text: string): DartTrace {
  return parseLines(splitTraceLines(text).lines);
}

/**
 * Rewrites a non-symbolic Dart trace: the preamble verbatim, then one line
 * per frame, resolved frames expanded to their inline chains (`#N function
 * (file:line:col)`), unresolved ones copied raw, at most DART_FRAME_CAP lines.
 * Header lines after the separator and `<asynchronous suspension>` are
 * dropped. A trace without non-symbolic frames comes back unchanged.
 */
export function symbolicateDart(text: string, resolve: TableResolver): string {
  const split = splitTraceLines(text);
  const trace = parseLines(split.lines);
  if (trace.frames.length === 0) return text;
  const table = trace.buildId && trace.arch ? resolve(trace.buildId, trace.arch) : undefined;
  const usable = table && isExactBuild(table, trace) ? table : undefined;
  return rewriteTrace(
    split,
    trace.frames,
    (frame) => (usable ? resolveFrame(usable, frame) : undefined),
    DART_FRAME_CAP,
  );
}

export function isDartFrame(line: string): boolean {
  return isLineOf(DART_FRAME, line);
}

function parseLines(lines: readonly string[]): DartTrace {
  let buildId: string | null = null;
  let arch: DartArch | null = null;
  const frames: DartTraceFrame[] = [];
  for (const { line, text } of frameLines(lines)) {
    const frame = DART_FRAME.exec(text);
    if (frame) {
      const location = SYMBOL_OFFSET.exec(frame[1] ?? '');
      frames.push({
        raw: line,
        symbol: location ? location[1]! : null,
        offset: location ? parseHex(location[2]!) : null,
      });
      continue;
    }
    buildId ??= BUILD_ID.exec(text)?.[1]?.toLowerCase() ?? null;
    const archToken = archTokenOf(text);
    if (archToken !== undefined) arch ??= normalizeArch(archToken);
  }
  return { buildId, arch, frames };
}

/** The resolver is keyed by build id and arch; the table's own identity must agree (a null debugId is an Apple build keyed by UUID). */
function isExactBuild(table: LookupTable, trace: DartTrace): boolean {
  return table.meta.arch === trace.arch && (table.meta.debugId === null || table.meta.debugId === trace.buildId);
}

function resolveFrame(table: LookupTable, frame: DartTraceFrame): SymbolFrame[] | undefined {
  if (frame.symbol === null || frame.offset === null) return undefined;
  const base = table.anchors.get(frame.symbol);
  return base === undefined ? undefined : table.lookup(base + frame.offset);
}

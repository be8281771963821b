import { normalizeArch } from '../ids.js';
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
import { TEXT_SEGMENT_ANCHOR } from './anchor.js';

/** `#00 fb1f31bf712f3200b388cd91c37e2d71 0x41a3 ShopApp` (traceway-ios wire format), read from a `traceLine`. */
const IOS_FRAME = /^#\d+\s+([0-9a-fA-F]{32})\s+0x([0-9a-fA-F]+)\s+(\S.*)$/;
const ZERO_UUID = '0'.repeat(32);
/** The spec's slice when the `os:` line names no arch. */
const DEFAULT_ARCH = 'arm64';

export interface IosTraceFrame {
  /** The frame line exactly as received. */
  readonly raw: string;
  /** Image LC_UUID, lowercase; all zeros for an address outside every image. */
  readonly uuid: string;
  /** Offset from the image's mach header; null if it does not fit a number. */
  readonly offset: number | null;
  readonly image: string;
}

export interface IosTrace {
  /** Slice to use: the `arch:` token (Dart names, x86_64 → x64), arm64 when absent. */
  readonly arch: string;
  /** Distinct image UUIDs worth loading (the zero UUID left out). */
  readonly uuids: readonly string[];
  readonly frames: readonly IosTraceFrame[];
}

/** What a caller needs before symbolicateIos: the image UUIDs and the slice arch to load. */
export function parseIosTrace(text: string): IosTrace {
  return parseLines(splitTraceLines(text).lines);
}

/**
 * Rewrites an iOS trace: the preamble (above the first separator) verbatim,
 * then one line per frame: resolved frames expanded to their inline chains,
 * the rest copied raw. Without a separator the whole raw text is the preamble,
 * so frames appear twice (spec). No frames: returned unchanged.
 */
export function symbolicateIos(text: string, resolve: TableResolver): string {
  const split = splitTraceLines(text);
  const trace = parseLines(split.lines);
  if (trace.frames.length === 0) return text;
  const tables = new Map<string, LookupTable | undefined>();
  const tableFor = (uuid: string): LookupTable | undefined => {
    if (!tables.has(uuid)) {
      const table = resolve(uuid, trace.arch);
      tables.set(uuid, table && table.meta.debugId === uuid && table.meta.arch === trace.arch ? table : undefined);
    }
    return tables.get(uuid);
  };
  return rewriteTrace(split, trace.frames, (frame) =>
    frame.uuid === ZERO_UUID ? undefined : resolveFrame(tableFor(frame.uuid), frame),
  );
}

export function isIosFrame(line: string): boolean {
  return isLineOf(IOS_FRAME, line);
}

function parseLines(lines: readonly string[]): IosTrace {
  let arch: string | null = null;
  const frames: IosTraceFrame[] = [];
  for (const { line, text } of frameLines(lines)) {
    const frame = IOS_FRAME.exec(text);
    if (frame) {
      frames.push({ raw: line, uuid: frame[1]!.toLowerCase(), offset: parseHex(frame[2]!), image: frame[3]! });
      continue;
    }
    const archToken = archTokenOf(text);
    if (archToken !== undefined) arch ??= normalizeArch(archToken) ?? archToken.toLowerCase();
  }
  const uuids = [...new Set(frames.map((frame) => frame.uuid))].filter((uuid) => uuid !== ZERO_UUID);
  return { arch: arch ?? DEFAULT_ARCH, uuids, frames };
}

function resolveFrame(table: LookupTable | undefined, frame: IosTraceFrame): SymbolFrame[] | undefined {
  const base = table?.anchors.get(TEXT_SEGMENT_ANCHOR);
  if (!table || base === undefined || frame.offset === null) return undefined;
  return table.lookup(base + frame.offset);
}

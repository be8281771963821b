/**
 * Stack-trace text as frames, for the dashboard's issue page and the CLI's `issues show` (so both
 * mark the same frame as the top one of the app): the layouts the ingest accepts (V8/Node and
 * browser JS, Firefox/Safari `fn@url`, Python, Java and .NET, Go and the reference client's
 * `fn()` + indented `path:line` pairs, Ruby, Dart/Flutter `#N`, iOS `#N uuid 0x… image` and Apple
 * crash-report lines), each frame marked as the app's own or a library's. Pure TypeScript without
 * imports, bundled by Vite and esbuild (the server's grouping module imports node:crypto, so the
 * clients keep their own small reader).
 * Lines that are not frames (the `Type: message` header, `Caused by:`, `<asynchronous
 * suspension>`, preambles) stay as text, in order, so nothing the client sent is hidden.
 */

export interface StackFrame {
  /** The line (or, for two-line layouts, lines) as received. */
  raw: string;
  function: string | null;
  file: string | null;
  line: number | null;
  column: number | null;
  /** Code of the application rather than of a dependency, the runtime or the system. */
  inApp: boolean;
  /** The source line some layouts print under the frame (Python). */
  source?: string;
  /** Index of the frame's (first) line in the trace text. */
  lineIndex?: number;
  /** Set when the service mapped this frame through an uploaded source map. */
  mapped?: MappedFrameInfo;
}

/** A frame the service mapped through a source map (the `sightline.frames` attribute of the occurrence). */
export interface MappedFrameInfo {
  /** Index of the frame's line in the symbolicated trace. */
  line: number;
  source: string;
  lineNumber: number;
  column: number;
  /** Lines of the original source around lineNumber, when the map carried sourcesContent. */
  context?: { start: number; lines: string[] };
}

/** The attribute the service writes beside a source-mapped trace. */
export const MAPPED_FRAMES_ATTRIBUTE = 'sightline.frames';

/** The mapped frames of an occurrence by trace line; anything malformed is ignored (the frames then show unmarked). */
export function mappedFramesOf(attributes: Record<string, string> | undefined): Map<number, MappedFrameInfo> {
  const out = new Map<number, MappedFrameInfo>();
  const json = attributes?.[MAPPED_FRAMES_ATTRIBUTE];
  if (!json) return out;
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!Array.isArray(parsed)) return out;
    for (const item of parsed as MappedFrameInfo[]) {
      if (item === null || typeof item !== 'object' || !Number.isInteger(item.line) || typeof item.source !== 'string')
        continue;
      const context = item.context;
      const validContext =
        context &&
        Number.isInteger(context.start) &&
        Array.isArray(context.lines) &&
        context.lines.every((l) => typeof l === 'string');
      out.set(item.line, {
        line: item.line,
        source: item.source,
        lineNumber: Number(item.lineNumber),
        column: Number(item.column),
        ...(validContext ? { context } : {}),
      });
    }
  } catch {
    // Not JSON: no marks.
  }
  return out;
}

export type StackEntry = { kind: 'frame'; frame: StackFrame } | { kind: 'text'; text: string };

export interface ParsedStackTrace {
  /** The first line: `Type: message`, or the message of a captured message. */
  title: string;
  entries: StackEntry[];
  frameCount: number;
}

/** Lines longer than this are no frame (the server bounds its frame patterns the same way). */
const MAX_FRAME_LINE = 4096;

/** `path:line[:column]` at the end of a location (the path may itself contain colons: URLs, `node:net`). */
const LOCATION = /^(.*?):(\d+)(?::(\d+))?$/;

/** V8 / Node / Chromium: `at fn (location)`, `at location`, `at async fn (location)`. */
const V8_FRAME = /^at (?:(.+?) \((.+)\)|(.+))$/;
/** Java / Kotlin `at pkg.Class.method(File.java:42)` and .NET `at Ns.Class.Method(String name)`: no blank before the parenthesis. */
const CALL_FRAME = /^at ([^\s(]+)\(([^)]*)\)$/;
/** What Java puts in the parentheses: a source file with an optional line, or the JVM's placeholders. */
const JAVA_SOURCE = /^([\w$.-]+\.\w+|Native Method|Unknown Source)(?::(\d+))?$/;
/** .NET with its source: `at Ns.Class.Method(Args) in C:\path\File.cs:line 42`. */
const DOTNET_LOCATED_FRAME = /^at (\S[^(]*\([^)]*\)) in (.+):line (\d+)$/;
/** Firefox and Safari: `fn@url:line:col`, `@url:line:col`. */
const GECKO_FRAME = /^([^@\s]*)@(\S+:\d+(?::\d+)?)$/;
/** Python: `File "path", line 12, in fn`. */
const PYTHON_FRAME = /^File "([^"]+)", line (\d+)(?:, in (.+))?$/;
/** Dart, Flutter and symbolicated iOS: `#0      fn (location)`. */
const HASH_FRAME = /^#(\d+)\s+(\S(?:.*\S)?) \((\S.*)\)$/;
/** Dart non-symbolic: `#00 abs <hex> virt <hex> _kDart…Instructions+0x…`. */
const DART_RAW_FRAME = /^#\d+\s+abs\s+[0-9a-f]+(?:\s+virt\s+[0-9a-f]+)?\s+(_kDart\w+\+0x[0-9a-f]+)$/i;
/** iOS non-symbolic: `#00 <32-hex image uuid> 0x<offset> <image name>`. */
const IOS_RAW_FRAME = /^#\d+\s+[0-9a-f]{32}\s+(0x[0-9a-f]+)\s+(\S.*)$/i;
/** Apple crash report: `3   UIKitCore   0x00000001a1b2c3d4 -[UIApplication sendEvent:] + 312`. */
const APPLE_FRAME = /^\d+\s+(\S+)\s+(0x[0-9a-f]+)\s+(\S.*?)(?: \+ \d+)?$/i;
/** Ruby: `path:12:in 'method'` (backtick or quote). */
const RUBY_FRAME = /^(.+?):(\d+):in [`'](.+)'$/;
/** Go and the reference client: a `fn(...)` line followed by an indented `path:line [+0x..]` line. */
const CALL_LINE = /^\S.*\)$/;
const PATH_LINE = /^(\S+):(\d+)(?: \+0x[0-9a-f]+)?$/;

const SYSTEM_IMAGES = new Set([
  'UIKit',
  'UIKitCore',
  'Foundation',
  'CoreFoundation',
  'GraphicsServices',
  'QuartzCore',
  'CoreGraphics',
  'SwiftUI',
  'Combine',
  'WebKit',
  'CFNetwork',
  'Flutter',
  'dyld',
  'libobjc.A.dylib',
]);

/** Whether a frame belongs to a library, the runtime or the system (anything not the app's own). */
export function isLibraryFrame(file: string | null, fn: string | null): boolean {
  const path = file ?? '';
  const name = fn ?? '';
  if (path === '' && name === '') return false;
  if (
    /(^|[/\\])node_modules[/\\]/.test(path) ||
    path === '<anonymous>' ||
    path === 'native' ||
    path.startsWith('node:') ||
    /^internal[/\\]/.test(path) ||
    /(^|[/\\])(site|dist)-packages[/\\]/.test(path) ||
    /[/\\]lib[/\\]python\d/.test(path) ||
    path.startsWith('<frozen ') ||
    path.startsWith('dart:') ||
    path.startsWith('package:flutter/') ||
    /(^|\/)go\/pkg\/mod\//.test(path) ||
    /(^|\/)go\/src\//.test(path) ||
    /^(Native Method|Unknown Source)$/.test(path) ||
    /\.dylib$/.test(path) ||
    SYSTEM_IMAGES.has(path) ||
    /(^|[/\\])(gems|vendor\/bundle)[/\\]/.test(path)
  ) {
    return true;
  }
  if (
    /^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|android|androidx|dalvik)\./.test(name) ||
    /^java\.\w+\//.test(name)
  )
    return true;
  if (/^(System|Microsoft)\./.test(name)) return true;
  if (/^_kDartVmSnapshotInstructions/.test(name)) return true;
  if (/^runtime\./.test(name) && (path === '' || /runtime/.test(path))) return true;
  return false;
}

function frame(raw: string, fn: string | null, location: string | null, extra: Partial<StackFrame> = {}): StackFrame {
  let file = location;
  let line: number | null = null;
  let column: number | null = null;
  const match = location === null ? null : LOCATION.exec(location);
  if (match) {
    file = match[1] ?? null;
    line = Number(match[2]);
    column = match[3] === undefined ? null : Number(match[3]);
  }
  const built = { raw, function: fn, file, line, column, ...extra };
  return { ...built, inApp: !isLibraryFrame(built.file, built.function) };
}

/** One trimmed line as a frame, or null when it is not one (the two-line layouts are read by the caller). */
function frameOfLine(raw: string, text: string): StackFrame | null {
  let match: RegExpExecArray | null;
  if ((match = DART_RAW_FRAME.exec(text))) return frame(raw, match[1] ?? null, null);
  if ((match = IOS_RAW_FRAME.exec(text))) return frame(raw, match[1] ?? null, match[2] ?? null);
  if ((match = HASH_FRAME.exec(text))) return frame(raw, match[2] ?? null, match[3] ?? null);
  if ((match = PYTHON_FRAME.exec(text)))
    return frame(raw, match[3] ?? null, null, { file: match[1] ?? null, line: Number(match[2]) });
  if ((match = DOTNET_LOCATED_FRAME.exec(text)))
    return frame(raw, match[1] ?? null, null, { file: match[2] ?? null, line: Number(match[3]) });
  if ((match = CALL_FRAME.exec(text))) {
    const inside = match[2] ?? '';
    // Java names a source file (`File.java:42`, `Native Method`); .NET lists the parameter types.
    const java = JAVA_SOURCE.exec(inside);
    if (!java) return frame(raw, text.slice(3), null);
    return frame(raw, match[1] ?? null, null, {
      file: java[1] ?? null,
      line: java[2] === undefined ? null : Number(java[2]),
    });
  }
  if ((match = V8_FRAME.exec(text))) {
    if (match[3] !== undefined) return frame(raw, null, match[3]);
    return frame(raw, match[1] ?? null, match[2] ?? null);
  }
  if ((match = GECKO_FRAME.exec(text))) return frame(raw, match[1] || null, match[2] ?? null);
  if ((match = RUBY_FRAME.exec(text)))
    return frame(raw, match[3] ?? null, null, { file: match[1] ?? null, line: Number(match[2]) });
  if ((match = APPLE_FRAME.exec(text))) return frame(raw, match[3] ?? null, null, { file: match[1] ?? null });
  return null;
}

export function parseStackTrace(
  text: string,
  mapped: ReadonlyMap<number, MappedFrameInfo> = new Map(),
): ParsedStackTrace {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const entries: StackEntry[] = [];
  let frameCount = 0;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    const text = raw.length > MAX_FRAME_LINE ? null : raw.trim();
    const previous = entries[entries.length - 1];
    if (text === null || text === '' || index === 0) {
      entries.push({ kind: 'text', text: raw });
      continue;
    }
    const single = frameOfLine(raw, text);
    if (single) {
      single.lineIndex = index;
      const info = mapped.get(index);
      if (info) single.mapped = info;
      entries.push({ kind: 'frame', frame: single });
      frameCount++;
      continue;
    }
    // Go / reference client: `fn(...)` then an indented `path:line`.
    const next = lines[index + 1];
    const nextText = next !== undefined && next.length <= MAX_FRAME_LINE && /^\s/.test(next) ? next.trim() : null;
    const path = nextText === null ? null : PATH_LINE.exec(nextText);
    if (CALL_LINE.test(text) && path) {
      entries.push({
        kind: 'frame',
        frame: frame(`${raw}\n${next}`, text, null, { file: path[1] ?? null, line: Number(path[2]) }),
      });
      frameCount++;
      index++;
      continue;
    }
    // Python prints the source line indented under its frame.
    if (
      previous?.kind === 'frame' &&
      PYTHON_FRAME.test(previous.frame.raw.trim()) &&
      previous.frame.source === undefined &&
      /^\s/.test(raw)
    ) {
      previous.frame.source = text;
      previous.frame.raw += `\n${raw}`;
      continue;
    }
    entries.push({ kind: 'text', text: raw });
  }
  return { title: lines[0]?.trim() ?? '', entries, frameCount };
}

/**
 * Runs of consecutive library frames, for "show N library frames": the entries grouped so a
 * page can collapse each run of two or more library frames into one toggle.
 */
export type StackBlock = { kind: 'entry'; entry: StackEntry } | { kind: 'library'; frames: StackFrame[] };

export function stackBlocks(entries: readonly StackEntry[]): StackBlock[] {
  const blocks: StackBlock[] = [];
  for (const entry of entries) {
    const last = blocks[blocks.length - 1];
    if (entry.kind === 'frame' && !entry.frame.inApp) {
      if (last?.kind === 'library') last.frames.push(entry.frame);
      else blocks.push({ kind: 'library', frames: [entry.frame] });
    } else {
      blocks.push({ kind: 'entry', entry });
    }
  }
  return blocks;
}

/**
 * Java/Kotlin stack traces (Throwable.printStackTrace, as the JVM and Android print them) read and
 * retraced against an R8/ProGuard mapping:
 *
 *     Exception in thread "main" java.lang.RuntimeException: reservation failed   header: class retraced
 *     	at com.example.shop.a.a(SourceFile:3011)                                  frame: class, method, line
 *     Caused by: a.b: empty sku                                                  cause header
 *     	... 1 more                                                                copied
 *
 * A frame resolves to its inline chain, innermost first, printed in the JVM's own frame form; an
 * ambiguous frame prints every candidate, the second on as `<OR> at …` lines (R8 retrace's form).
 * Frames the mapping does not name stay as received. R8 metadata: synthesized methods are
 * stripped, outline frames carry their position to the calling frame's outlineCallsite, and
 * rewriteFrame rules drop inner frames of the first frame under a matching exception.
 */
import { joinTraceLines, splitTraceLines, traceLine } from '../trace/text.js';
import {
  innerFramesToRemove,
  isOutline,
  isSynthesized,
  outlineCallsitePosition,
  type MappedFrame,
  type RangeChain,
  type RetraceMapping,
} from './mapping.js';

/** Frame lines written for one trace, inline expansions and alternatives included; later frames stay raw. */
export const MAX_RETRACED_FRAMES = 1024;
/** Candidates printed for one ambiguous frame. */
const MAX_ALTERNATIVES = 8;
const MAP_ID_FILE = /^r8-map-id-([0-9a-fA-F]{7,128})$/;
const HEADER_PREFIXES = ['Caused by: ', 'Suppressed: '];

export interface JavaTraceFrame {
  /** Text before `at` (a tab as the JVM prints it). */
  readonly indent: string;
  /** Module or class-loader prefix (`java.base/`, `app//`), kept for frames left as received. */
  readonly className: string;
  readonly methodName: string;
  /** What stood in the parentheses' file part: `SourceFile`, `Unknown Source`, `r8-map-id-…`. */
  readonly file: string;
  readonly line: number | null;
}

export interface JavaTrace {
  /** Map ids R8 wrote into frames' source files (`r8-map-id-<id>`), lowercase, distinct. */
  readonly mapIds: readonly string[];
  readonly frameCount: number;
}

/** What a caller needs before retraceJava: the map ids the frames name and whether there are frames. */
export function parseJavaTrace(text: string): JavaTrace {
  const mapIds = new Set<string>();
  let frameCount = 0;
  for (const line of splitTraceLines(text).lines) {
    const frame = javaFrame(line);
    if (!frame) continue;
    frameCount++;
    const id = MAP_ID_FILE.exec(frame.file)?.[1];
    if (id !== undefined && mapIds.size < 16) mapIds.add(id.toLowerCase());
  }
  return { mapIds: [...mapIds], frameCount };
}

export function isJavaFrame(line: string): boolean {
  return javaFrame(line) !== null;
}

/** `\tat pkg.Class.method(File.java:12)`; null for any other line. */
export function javaFrame(line: string): JavaTraceFrame | null {
  const text = traceLine(line);
  if (text === null || !text.startsWith('at ') || !text.endsWith(')')) return null;
  const body = text.slice(3).trimStart();
  const open = body.indexOf('(');
  if (open <= 0) return null;
  const symbol = body.slice(0, open);
  const location = body.slice(open + 1, -1);
  if (/[\s()]/.test(symbol) || location.includes('(')) return null;
  const qualified = symbol.slice(symbol.lastIndexOf('/') + 1);
  const dot = qualified.lastIndexOf('.');
  if (dot <= 0 || dot === qualified.length - 1) return null;
  const colon = location.lastIndexOf(':');
  const lineText = colon >= 0 ? location.slice(colon + 1) : '';
  const lineNumber = /^\d{1,9}$/.test(lineText) ? Number(lineText) : null;
  return {
    indent: line.slice(0, line.indexOf('at')),
    className: qualified.slice(0, dot),
    methodName: qualified.slice(dot + 1),
    file: lineNumber === null ? location : location.slice(0, colon),
    line: lineNumber,
  };
}

/** The trace with every frame the mapping names retraced; unchanged when nothing maps. */
export function retraceJava(text: string, mapping: RetraceMapping): string {
  const { lines, trailingNewline } = splitTraceLines(text);
  const output: string[] = [];
  let written = 0;
  let changed = false;
  /** The exception (original name) of the section being read, for rewriteFrame; null when not known. */
  let exceptionClass: string | null = null;
  let firstFrameOfSection = false;
  /** An outline frame's position, to map through the next frame's outlineCallsite. */
  let outlinePosition: number | null = null;

  for (const [index, line] of lines.entries()) {
    const frame = written < MAX_RETRACED_FRAMES ? javaFrame(line) : null;
    if (!frame) {
      const header = index === 0 || isHeaderLine(line) ? retraceHeader(line, mapping) : null;
      if (header) {
        exceptionClass = header.exceptionClass;
        firstFrameOfSection = true;
        changed ||= header.text !== line;
        output.push(header.text);
      } else {
        output.push(line);
      }
      outlinePosition = null;
      continue;
    }
    let chains = mapping.lookup(frame.className, frame.methodName, frame.line);
    if (outlinePosition !== null && chains.length === 1) {
      const position = outlineCallsitePosition(chains[0]!, outlinePosition);
      if (position !== undefined)
        chains = mapping
          .lookup(frame.className, frame.methodName, position)
          .map((chain) => ({ ...chain, line: position }));
    }
    outlinePosition = null;
    if (chains.length === 1 && isOutline(chains[0]!) && frame.line !== null) {
      // The outline's own frame says nothing of the source: its position belongs to the caller.
      outlinePosition = frame.line;
      changed = true;
      continue;
    }
    const underException = firstFrameOfSection;
    firstFrameOfSection = false;
    if (chains.length === 0) {
      output.push(line);
      written++;
      continue;
    }
    changed = true;
    chains.slice(0, MAX_ALTERNATIVES).forEach((chain, alternative) => {
      for (const mapped of chainFrames(mapping, chain, underException ? exceptionClass : null)) {
        if (written >= MAX_RETRACED_FRAMES) return;
        output.push(formatJavaFrame(frame.indent, mapped, alternative > 0));
        written++;
      }
    });
  }
  return changed ? joinTraceLines(output, trailingNewline) : text;
}

function chainFrames(mapping: RetraceMapping, chain: RangeChain, exceptionClass: string | null): MappedFrame[] {
  let frames = mapping.frames(chain);
  const removeInner = innerFramesToRemove(chain, exceptionClass);
  if (removeInner > 0) frames = frames.slice(removeInner);
  // A synthesized method (a lambda's bridge, a backport) is no source frame: R8 retrace strips it.
  if (isSynthesized(chain) && frames.length > 0 && removeInner < chain.ranges.length) frames = frames.slice(0, -1);
  return frames;
}

export function formatJavaFrame(indent: string, frame: MappedFrame, alternative = false): string {
  const location = frame.line > 0 ? `${frame.sourceFile}:${frame.line}` : frame.sourceFile;
  return `${indent}${alternative ? '<OR> ' : ''}at ${frame.className}.${frame.methodName}(${location})`;
}

function isHeaderLine(line: string): boolean {
  const text = traceLine(line);
  return (
    text !== null &&
    (HEADER_PREFIXES.some((prefix) => text.startsWith(prefix)) || text.startsWith('Exception in thread "'))
  );
}

/**
 * `[Exception in thread "…" |Caused by: |Suppressed: ]<class>[: message]` with the class retraced;
 * null when the line names no class.
 */
function retraceHeader(line: string, mapping: RetraceMapping): { text: string; exceptionClass: string } | null {
  const text = traceLine(line);
  if (text === null) return null;
  let prefixEnd = line.length - line.trimStart().length;
  const rest = text;
  let offset = 0;
  for (const prefix of HEADER_PREFIXES) if (rest.startsWith(prefix)) offset = prefix.length;
  if (rest.startsWith('Exception in thread "')) {
    const close = rest.indexOf('" ', 'Exception in thread "'.length);
    if (close < 0) return null;
    offset = close + 2;
  }
  prefixEnd += offset;
  const colon = line.indexOf(':', prefixEnd);
  const nameEnd = colon >= 0 ? colon : line.trimEnd().length;
  const name = line.slice(prefixEnd, nameEnd);
  if (!/^[\w$]+(?:\.[\w$]+)+$/.test(name)) return null;
  const original = mapping.originalClass(name);
  return {
    text: original ? line.slice(0, prefixEnd) + original + line.slice(nameEnd) : line,
    exceptionClass: original ?? name,
  };
}

/**
 * JavaScript stack traces: frames of the Chrome/V8 (and Node) layout `at fn (url:line:col)` /
 * `at url:line:col`, and of the Firefox and Safari layout `fn@url:line:col`, read line by line
 * with string operations (no pattern with nested quantifiers: the text comes from anyone holding
 * an ingest token), and rewritten to their original positions through source maps. A frame
 * without a map, or at a position its map does not cover, stays as received; every other line
 * (the `Type: message` header, `Caused by`, blank lines) is kept as it is.
 */
import { MAX_TRACE_LINE } from '../trace/text.js';
import { displaySource, type SourceContext, type SourceMapTable } from './map.js';

export interface JsFrame {
  /** Index of the frame's line in the trace's lines. */
  lineIndex: number;
  layout: 'v8' | 'gecko';
  /** Leading blanks of the line, kept in the rewritten frame. */
  indent: string;
  /** The name as printed (`Object.m [as runCheckout]`, `c`, `async*foo`), '' when none. */
  functionName: string;
  /** The script: a URL, an absolute path or `file://` URL (Node). */
  url: string;
  line: number;
  column: number;
}

export interface JsTrace {
  lines: string[];
  frames: JsFrame[];
}

/** Frames read from one trace; more are left as received. */
export const MAX_JS_FRAMES = 256;

/** `url:line:col` at the end of a location; null when it does not end in two numbers. */
function location(text: string): { url: string; line: number; column: number } | null {
  const second = text.lastIndexOf(':');
  if (second <= 0) return null;
  const first = text.lastIndexOf(':', second - 1);
  if (first <= 0) return null;
  const line = text.slice(first + 1, second);
  const column = text.slice(second + 1);
  if (!/^\d{1,9}$/.test(line) || !/^\d{1,9}$/.test(column)) return null;
  return { url: text.slice(0, first), line: Number(line), column: Number(column) };
}

/** Object literals of one shape, built whole (no spreads: this runs for every frame of every trace). */
function jsFrame(
  lineIndex: number,
  layout: JsFrame['layout'],
  indent: string,
  functionName: string,
  where: { url: string; line: number; column: number },
): JsFrame {
  return { lineIndex, layout, indent, functionName, url: where.url, line: where.line, column: where.column };
}

function v8Frame(text: string, lineIndex: number, indent: string): JsFrame | null {
  if (!text.startsWith('at ')) return null;
  const rest = text.slice(3);
  if (rest.endsWith(')')) {
    const open = rest.lastIndexOf(' (');
    if (open < 0) return null;
    const where = location(rest.slice(open + 2, -1));
    return where && jsFrame(lineIndex, 'v8', indent, rest.slice(0, open), where);
  }
  const where = location(rest);
  return where && !where.url.includes(' ') ? jsFrame(lineIndex, 'v8', indent, '', where) : null;
}

function geckoFrame(text: string, lineIndex: number, indent: string): JsFrame | null {
  const at = text.indexOf('@');
  if (at < 0) return null;
  const where = location(text.slice(at + 1));
  if (!where || where.url.includes(' ') || where.url === '') return null;
  return jsFrame(lineIndex, 'gecko', indent, text.slice(0, at), where);
}

/** The JavaScript frames of a trace; null when it has none (then it is no JavaScript trace). */
export function parseJsTrace(text: string): JsTrace | null {
  if (text.indexOf('@') < 0 && text.indexOf('at ') < 0) return null;
  const lines = text.split('\n');
  const frames: JsFrame[] = [];
  for (let index = 0; index < lines.length && frames.length < MAX_JS_FRAMES; index++) {
    const raw = lines[index]!;
    if (raw.length > MAX_TRACE_LINE) continue;
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    const indent = raw.slice(0, raw.length - raw.trimStart().length);
    const frame = v8Frame(trimmed, index, indent) ?? geckoFrame(trimmed, index, indent);
    if (frame) frames.push(frame);
  }
  return frames.length > 0 ? { lines, frames } : null;
}

/** The map of a frame's script, or undefined when none was uploaded. */
export type SourceMapResolver = (frame: JsFrame) => SourceMapTable | undefined;

export interface MappedFrame {
  /** Index of the frame's line in the rewritten trace (the same as in the trace as received). */
  line: number;
  source: string;
  lineNumber: number;
  column: number;
  function: string | null;
  context?: SourceContext;
}

export interface JsSymbolication {
  text: string;
  frames: MappedFrame[];
}

/** Frames given source context; the rest are mapped without it (the context travels with every occurrence). */
export const MAX_CONTEXT_FRAMES = 20;

/** The property name V8 prints for a method called through an alias: `Object.m [as runCheckout]` → runCheckout. */
function aliasOf(name: string): string | null {
  const open = name.lastIndexOf(' [as ');
  return open >= 0 && name.endsWith(']') ? name.slice(open + 5, -1) : null;
}

/**
 * Rewrites the frames that have a map to their original positions. The original function name
 * of a frame is the name its caller's call site carries in the map (the minified name of a
 * function is not in the map, but the expression that called it is), else the alias V8 prints,
 * else the name as received.
 */
export function symbolicateJs(text: string, resolve: SourceMapResolver): JsSymbolication {
  const trace = parseJsTrace(text);
  if (!trace) return { text, frames: [] };
  const positions = trace.frames.map((frame) => {
    const map = resolve(frame);
    const position = map?.lookup(frame.line, frame.column) ?? null;
    return position && map ? { map, position } : null;
  });
  const lines = trace.lines.slice();
  const frames: MappedFrame[] = [];
  trace.frames.forEach((frame, i) => {
    const found = positions[i];
    if (!found) return;
    const callerName = positions[i + 1]?.position.name ?? null;
    const name = callerName ?? aliasOf(frame.functionName) ?? (frame.functionName === '' ? null : frame.functionName);
    const source = displaySource(found.position.source);
    const where = `${source}:${found.position.line}:${found.position.column}`;
    lines[frame.lineIndex] =
      frame.layout === 'v8'
        ? `${frame.indent}at ${name === null ? where : `${name} (${where})`}`
        : `${frame.indent}${name ?? ''}@${where}`;
    const mapped: MappedFrame = {
      line: frame.lineIndex,
      source,
      lineNumber: found.position.line,
      column: found.position.column,
      function: name,
    };
    if (frames.length < MAX_CONTEXT_FRAMES) {
      const context = found.map.context(found.position.source, found.position.line);
      if (context) mapped.context = context;
    }
    frames.push(mapped);
  });
  return frames.length === 0 ? { text, frames } : { text: lines.join('\n'), frames };
}

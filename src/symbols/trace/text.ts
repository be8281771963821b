import type { LookupTable, SymbolFrame } from '../table/lookup-table.js';

/**
 * Finds the table for a crash: the caller pre-loads tables for the ids that
 * parseDartTrace / parseIosTrace report and answers from memory, which keeps
 * symbolication pure and synchronous.
 */
export type TableResolver = (debugId: string, arch: string) => LookupTable | undefined;

export interface TraceLines {
  readonly lines: string[];
  readonly trailingNewline: boolean;
}

export function splitTraceLines(text: string): TraceLines {
  const lines = text.split('\n');
  const trailingNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (trailingNewline) lines.pop();
  return { lines, trailingNewline };
}

export function joinTraceLines(lines: readonly string[], trailingNewline: boolean): string {
  return lines.join('\n') + (trailingNewline ? '\n' : '');
}

/**
 * Frame and header lines are about 100 characters (an iOS image name makes some longer). A longer
 * line is none of them: it is copied as it stands and no pattern reads it, which bounds the work
 * per line whatever a client sends.
 */
export const MAX_TRACE_LINE = 4096;

/**
 * A line as the frame and header patterns read it: trimmed, or null when it is too long to be one.
 * The patterns are written for trimmed text, so none has a whitespace run at either end that could
 * trade characters with its neighbour; every quantifier is followed by a character it cannot match,
 * which keeps matching linear (an untrimmed `\s+(.*?)\s*$` backtracks cubically on a run of blanks).
 */
export function traceLine(line: string): string | null {
  return line.length > MAX_TRACE_LINE ? null : line.trim();
}

/** The `*** *** *** …` line both clients print between the error text and the frames (trimmed). */
const SEPARATOR = /^\*{3}(?:\s+\*{3})+$/;

function isSeparator(line: string): boolean {
  return isLineOf(SEPARATOR, line);
}

/**
 * Where the frames start: after the first separator line, or — without one —
 * at the first line, in which case the whole raw text is also the preamble
 * and frames appear twice (the spec's rule for traces without a separator).
 */
export function splitPreamble(lines: readonly string[]): { preambleEnd: number; framesStart: number } {
  const separator = lines.findIndex(isSeparator);
  return separator >= 0
    ? { preambleEnd: separator, framesStart: separator + 1 }
    : { preambleEnd: lines.length, framesStart: 0 };
}

/** The lines below the preamble, each as received and as `traceLine` reads it; too long ones left out. */
export function* frameLines(lines: readonly string[]): Generator<{ line: string; text: string }> {
  const { framesStart } = splitPreamble(lines);
  for (const line of lines.slice(framesStart)) {
    const text = traceLine(line);
    if (text !== null) yield { line, text };
  }
}

/** Whether a line, as `traceLine` reads it, matches a frame pattern. */
export function isLineOf(pattern: RegExp, line: string): boolean {
  const text = traceLine(line);
  return text !== null && pattern.test(text);
}

/** The `os: …, arch: …` header line both clients print: group 1 is the arch token. */
const OS_ARCH = /^os(?::\s*|=)\S+?,?\s+arch(?::\s*|=)([A-Za-z0-9_]+)/;

/** The arch token of an `os:` header line (as `traceLine` reads it), undefined on any other line. */
export function archTokenOf(text: string): string | undefined {
  return OS_ARCH.exec(text)?.[1];
}

/**
 * A trace rewritten: the preamble verbatim, then one line per frame, a resolved frame expanded to
 * its inline chain (`#N function (file:line:col)`, numbered on), an unresolved one copied raw; at
 * most `cap` lines of frames.
 */
export function rewriteTrace<Frame extends { readonly raw: string }>(
  { lines, trailingNewline }: TraceLines,
  frames: readonly Frame[],
  resolve: (frame: Frame) => readonly SymbolFrame[] | undefined,
  cap = Number.POSITIVE_INFINITY,
): string {
  const output: string[] = [];
  for (const frame of frames) {
    const chain = resolve(frame);
    if (chain) {
      for (const resolved of chain) output.push(formatFrame(output.length, resolved));
    } else {
      output.push(frame.raw);
    }
    if (output.length >= cap) break;
  }
  const { preambleEnd } = splitPreamble(lines);
  return joinTraceLines([...lines.slice(0, preambleEnd), ...output.slice(0, cap)], trailingNewline);
}

/** `#N function (file:line:col)`; `:col` is dropped when 0 and `:line:col` when the line is 0. */
export function formatFrame(index: number, frame: SymbolFrame): string {
  let location = frame.file;
  if (frame.line > 0) {
    location += `:${frame.line}`;
    if (frame.column > 0) location += `:${frame.column}`;
  }
  return `#${index} ${frame.function} (${location})`;
}

/** Hex text as a number, or null when it does not fit exactly. */
export function parseHex(hex: string): number | null {
  const value = Number.parseInt(hex, 16);
  return Number.isSafeInteger(value) ? value : null;
}

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
  const text = traceLine(line);
  return text !== null && SEPARATOR.test(text);
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

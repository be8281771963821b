/**
 * Output: a table on a terminal, JSON when piped or with `-o json`. JSON field names are the
 * rows' keys, which the commands keep stable; `--fields` picks and orders them in both forms.
 * JSON carries the values as the API answered them; a table shows the instants in TIME_FIELDS
 * in UTC to the second (formatTime) under a title saying so (`lastSeen (UTC)`), rates, Apdex,
 * impact and costs as the dashboard shows them (NUMBER_FORMATS) and booleans as yes/no.
 */
import { formatCost, formatPercent } from '@sightline/api-client';
import { usageError } from './errors.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Row = Record<string, Json>;

export type Format = 'table' | 'json';

export interface OutputOptions {
  format: Format;
  fields?: string[];
  /** The width a table must fit (tableWidth); none: tables as wide as their cells. */
  width?: number;
}

/** Rows and the columns a table shows unless `--fields` says otherwise. */
export interface RowsView {
  rows: Row[];
  columns: string[];
  /** A line under the table, e.g. that there are more pages. */
  note?: string;
  /** How a table shows a column whose JSON value is structured (JSON keeps the value). */
  cells?: Record<string, (value: Json) => string>;
  /**
   * Columns a narrow table keeps wide longest, the most important first (an issue's title, before
   * its linked endpoint): the other columns shrink and are left out first (renderTable).
   */
  priority?: string[];
}

/** A single thing: its JSON form and its text for a terminal (or an MCP tool's answer). */
export interface DetailView {
  json: Json;
  text: string;
  /** The text with its tables fitted to a terminal's width (renderTable); `text` is the unfitted one. */
  fitted?: (width: number) => string;
}

export function formatFrom(requested: string | undefined, stdoutIsTty: boolean): Format {
  if (requested === undefined) return stdoutIsTty ? 'table' : 'json';
  if (requested === 'table' || requested === 'json') return requested;
  throw usageError(`unknown output format "${requested}"`, 'use -o table or -o json');
}

/**
 * The width a table fits: COLUMNS when set to a positive whole number (as ls, git and most CLIs
 * read it, so a script or a test can ask for a width), else the terminal's when stdout is one.
 * Into a pipe without COLUMNS: none, and a table keeps every character.
 */
export function tableWidth(
  env: NodeJS.ProcessEnv = process.env,
  stdout: NodeJS.WriteStream = process.stdout,
): number | undefined {
  const columns = Number(env.COLUMNS);
  if (env.COLUMNS !== undefined && Number.isInteger(columns) && columns > 0) return columns;
  return stdout.isTTY && stdout.columns > 0 ? stdout.columns : undefined;
}

export function printRows(view: RowsView, options: OutputOptions): void {
  if (options.format === 'json') {
    process.stdout.write(`${JSON.stringify(pick(view.rows, options.fields), null, 2)}\n`);
    // stdout stays the bare array scripts parse; that there is more goes where a person sees it.
    if (view.note) process.stderr.write(`${view.note}\n`);
    return;
  }
  process.stdout.write(`${renderTable(view, options.fields, options.width)}\n`);
}

export function printDetail(view: DetailView, options: OutputOptions): void {
  if (options.format === 'json') process.stdout.write(`${JSON.stringify(view.json, null, 2)}\n`);
  else process.stdout.write(`${options.width !== undefined && view.fitted ? view.fitted(options.width) : view.text}\n`);
}

function pick(rows: Row[], fields: string[] | undefined): Row[] {
  if (!fields) return rows;
  checkFields(rows, fields);
  return rows.map((row) => Object.fromEntries(fields.map((field) => [field, row[field] ?? null])));
}

function checkFields(rows: Row[], fields: string[]): void {
  const known = rows[0];
  if (!known) return;
  const unknown = fields.filter((field) => !(field in known));
  if (unknown.length > 0)
    throw usageError(`unknown field ${unknown.join(', ')}`, `fields here: ${Object.keys(known).join(', ')}`);
}

const MAX_CELL = 80;

/** Fields holding an instant (an ISO 8601 string, nanoseconds from the telemetry store), in every command's rows. */
const TIME_FIELDS: ReadonlySet<string> = new Set(['firstSeen', 'lastSeen', 'recordedAt', 'timestamp', 'time']);

const INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * "2026-11-26 21:25:03": an instant for people, in UTC, truncated to the second (never rounded
 * into the next second, minute or day). A string that is not an instant is answered unchanged;
 * one without a zone is taken as UTC, as the telemetry store writes them.
 */
export function formatTime(value: string): string {
  const match = INSTANT.exec(value);
  if (!match) return value;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[3]?.toUpperCase() ?? 'Z'}`);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** A column's title: a time column says its zone. */
function columnTitle(column: string): string {
  return TIME_FIELDS.has(column) ? `${column} (UTC)` : column;
}

/** The width of every formatTime answer. */
const TIME_WIDTH = 'YYYY-MM-DD HH:MM:SS'.length;

/** A time field's value as a table shows it; undefined for every other cell. */
function timeCell(column: string, value: Json): string | undefined {
  return TIME_FIELDS.has(column) && typeof value === 'string' ? formatTime(value) : undefined;
}

/** Numbers a table shows as the dashboard does, by field name in every command's rows; JSON keeps the API's numbers. */
const NUMBER_FORMATS: ReadonlyMap<string, (value: number) => string> = new Map([
  ['errorRate', formatPercent],
  ['clientErrorRate', formatPercent],
  ['apdex', (value: number) => value.toFixed(2)],
  ['impact', (value: number) => value.toFixed(2)],
  ['totalCost', formatCost],
]);

/** A cell as a table shows it: times in UTC, the dashboard's number formats, booleans as yes/no, other values on one line. */
function tableCell(column: string, value: Json): string {
  const time = timeCell(column, value);
  if (time !== undefined) return time;
  const format = NUMBER_FORMATS.get(column);
  if (format && typeof value === 'number' && Number.isFinite(value)) return format(value);
  return cellText(value);
}

/**
 * A table whose rows come one at a time (`logs tail`): the titles once, each column as wide as
 * its title (a time column as wide as its times), times as renderTable shows them, other values
 * whole (a tail keeps every character of a log body) and the last column unpadded.
 */
export function streamedTable(columns: string[]): { header: string; line: (row: Row) => string } {
  const widths = columns.map((column) =>
    Math.max(columnTitle(column).length, TIME_FIELDS.has(column) ? TIME_WIDTH : 0),
  );
  const join = (cells: string[]) =>
    cells.map((text, i) => (i < cells.length - 1 ? text.padEnd(widths[i]!) : text)).join('  ');
  return {
    header: join(columns.map(columnTitle)),
    line: (row) =>
      join(
        columns.map((column) => {
          const value = row[column] ?? null;
          return typeof value === 'string' ? (timeCell(column, value) ?? value) : tableCell(column, value);
        }),
      ),
  };
}

/**
 * Fields a user copies into another command (`issues show <hash>`, `traces show <id>`): a table
 * never cuts them, whatever the width.
 */
const ID_FIELDS: ReadonlySet<string> = new Set(['id', 'hash', 'traceId', 'spanId', 'linkedId', 'sessionId']);

/** How narrow fitting may make a free-text column (or its title, if wider). */
const MIN_FREE_TEXT = 12;
/** How narrow a priority column (RowsView.priority) becomes before the other columns are left out for it. */
const MIN_PRIORITY_TEXT = 2 * MIN_FREE_TEXT;

const GAP = 2;

/**
 * `width` (tableWidth): the table fits it. Free-text columns (names, messages, URLs; not ids,
 * times or numbers) give way first, the widest one character at a time, each down to its title or
 * MIN_FREE_TEXT, their cells ending in '…'. If that is not enough, columns are left out, the last
 * first (never the first column, nor any --fields asked for), and a line under the table names
 * them. The view's `priority` columns give way last: the other free-text columns shrink first, a
 * priority column then shrinks but not below MIN_PRIORITY_TEXT, and the other columns are left out
 * (the last first) before it goes below that or is left out.
 */
export function renderTable(
  view: RowsView,
  fields?: string[],
  width?: number,
  /** Where the columns left out are: a command printing one answer takes no --fields. */
  leftOutHint = '--fields picks columns, -o json shows all',
): string {
  if (view.rows.length === 0) return view.note ? `(none)\n${view.note}` : '(none)';
  const columns = fields ?? view.columns;
  checkFields(view.rows, columns);
  const titles = columns.map(columnTitle);
  const cells = view.rows.map((row) =>
    columns.map((column) => {
      const value = row[column] ?? null;
      const own = view.cells?.[column];
      return own && value !== null ? cellText(own(value)) : tableCell(column, value);
    }),
  );
  // Right-aligned: a column of numbers, some of them missing; a column of nothing but '-' is not one.
  const numeric = columns.map(
    (column) =>
      view.rows.every((row) => typeof row[column] === 'number' || row[column] == null) &&
      view.rows.some((row) => typeof row[column] === 'number'),
  );
  const natural = titles.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const shrinkable = columns.map(
    (column, i) =>
      !numeric[i] &&
      !ID_FIELDS.has(column) &&
      !TIME_FIELDS.has(column) &&
      !view.rows.every((row) => typeof row[column] === 'boolean' || row[column] == null),
  );
  // A column's rank: the priority columns above every other, the first named highest.
  const priority = view.priority ?? [];
  const rank = columns.map((column) => (priority.includes(column) ? priority.length - priority.indexOf(column) : 0));
  const least = natural.map((w, i) =>
    shrinkable[i] ? Math.min(w, Math.max(titles[i]!.length, rank[i]! > 0 ? MIN_PRIORITY_TEXT : MIN_FREE_TEXT)) : w,
  );
  const { shown, widths } =
    width === undefined
      ? { shown: columns.map(() => true), widths: natural }
      : fit(natural, least, rank, width, fields === undefined);
  const clip = (text: string, i: number) => (text.length > widths[i]! ? `${text.slice(0, widths[i]! - 1)}…` : text);
  const align = (text: string, i: number) =>
    numeric[i] ? clip(text, i).padStart(widths[i]!) : clip(text, i).padEnd(widths[i]!);
  const lines = [titles, ...cells].map((line) => line.flatMap((text, i) => (shown[i] ? [align(text, i)] : [])));
  const table = lines.map((line) => line.join(' '.repeat(GAP)).trimEnd()).join('\n');
  const leftOut = columns.filter((_, i) => !shown[i]);
  const notes = [
    ...(leftOut.length > 0
      ? [wrapWords(`(left out to fit ${width} columns: ${leftOut.join(', ')}; ${leftOutHint})`, width)]
      : []),
    ...(view.note ? [view.note] : []),
  ];
  return [table, ...notes].join('\n');
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word stays whole). */
export function wrapWords(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/**
 * The columns shown and their widths, for a table to fit `width` (see renderTable): `least` is how
 * narrow each may become (its natural width if it may not shrink), a higher `rank` gives way later.
 */
function fit(
  natural: number[],
  least: number[],
  rank: number[],
  width: number,
  mayLeaveOut: boolean,
): { shown: boolean[]; widths: number[] } {
  // Lowest rank first; of one rank, the last column first. The first column always stays.
  const leaveOutOrder = natural
    .map((_, i) => i)
    .slice(1)
    .sort((a, b) => rank[a]! - rank[b]! || b - a);
  const shown = natural.map(() => true);
  for (let leftOut = 0; ; leftOut++) {
    if (leftOut > 0) shown[leaveOutOrder[leftOut - 1]!] = false;
    const widths = [...natural];
    const visible = widths.flatMap((w, i) => (shown[i] ? [w] : []));
    let excess = visible.reduce((sum, w) => sum + w, 0) + GAP * (visible.length - 1) - width;
    // Of the lowest rank that can still give, the widest column gives one character at a time.
    while (excess > 0) {
      let giver = -1;
      for (let i = 0; i < widths.length; i++) {
        if (!shown[i] || widths[i]! <= least[i]!) continue;
        if (giver < 0 || rank[i]! < rank[giver]! || (rank[i] === rank[giver] && widths[i]! > widths[giver]!)) giver = i;
      }
      if (giver < 0) break;
      widths[giver]!--;
      excess--;
    }
    if (excess <= 0 || !mayLeaveOut || leftOut === leaveOutOrder.length) return { shown, widths };
  }
}

function cellText(value: Json): string {
  if (value === null) return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number')
    // Other fractions keep three significant digits: a small figure must not read 0.000.
    return Number.isInteger(value) ? String(value) : value < 1 && value > -1 ? value.toPrecision(3) : value.toFixed(1);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return oneLine.length > MAX_CELL ? `${oneLine.slice(0, MAX_CELL - 1)}…` : oneLine;
}

/** "12 ms", "1.4 s": durations for people. */
export function humanDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

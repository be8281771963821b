/**
 * Exception grouping: the 16-hex-character hash that puts occurrences of one problem into one
 * issue (spec: ExceptionStackTrace, Grouping).
 *
 * Messages hash their text as it stands. Errors hash a normalized trace that keeps what
 * identifies the code path (error type, function names, file names, line and column numbers)
 * and drops what varies between occurrences of it (the message, checkout directories, hosts,
 * addresses, ids, versions, whitespace). Compiled and source files keep their own names, so
 * `dist/app.js` and `src/app.ts` group apart, as the spec requires.
 *
 * This runs once per exception on the ingest hot path: the regexes are compiled once, and all
 * token rules run as one alternation in a single replace over the text.
 */
import { hash } from 'node:crypto';

const HASH_LENGTH = 16;

/**
 * An error's hash reads at most this much of its trace: the error type and the first couple of
 * thousand frames identify the code path, and one trace then costs tens of milliseconds at most
 * (the slowest token mixes normalize at about 6 MB/s) instead of seconds for one the size of the
 * report body cap. Traces that agree on this prefix group together.
 */
export const MAX_GROUPED_TRACE = 256 * 1024;

export function exceptionHash(stackTrace: string, isMessage: boolean): string {
  const text = isMessage ? stackTrace : normalizeStackTrace(stackTrace);
  return hash('sha256', text).slice(0, HASH_LENGTH);
}

/**
 * A line that starts a stack frame in one of the layouts we know: V8 and Java `at ...`, Dart and
 * iOS `#N ...`, Python `File "..."`, Go `goroutine N [...]:` and `created by ...`, any
 * `file.ext:line` location (Go paths, Firefox `fn@url:line:col`, Ruby), or a line ending in `)`
 * (the reference client's `funcName()` lines, Go's `pkg.fn(args)`).
 */
const FRAME_LINE = /^(?:at |#\d|File "|goroutine |created by )|\.[A-Za-z]\w*(?:\?[^\s?]*?)?:\d|\)$/;

/**
 * `Type: message` on a line after the first: Java `Caused by:` / `Suppressed:` lines, Python's
 * closing `ValueError: ...`, Go's repeated `panic: ...`. The match is the part that is kept.
 */
const EXCEPTION_LINE = /^(?:(?:Caused by|Suppressed): )?[\w$.*]+(?=: )/;

/*
 * Volatile tokens, replaced in one pass by VOLATILE_TOKEN. Patterns that could start inside a run
 * of word characters carry a lookbehind that anchors them to its start, which keeps the scan
 * linear on long runs.
 */

/** `scheme://host/dir/` of a URL, up to its last slash: the file name stays. */
const URL_DIRECTORY = /(?<![\w+.-])[A-Za-z][\w+.-]*:\/\/[^\s/()"'<>]*\/(?:[^\s/()"'<>]*\/)*/;
/** Directory part of an absolute Unix, home-relative or Windows path. */
const ABSOLUTE_DIRECTORY = /(?<![\w.~-])(?:~|[A-Za-z]:)?[\\/](?:[^\s\\/()"'<>:]+[\\/])+/;
const UUID = /(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])/;
/** The lookahead keeps Firefox frames without a scheme (`fn@app.bundle.js:1:2`) intact. */
const EMAIL = /(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w.-]*:\d)/;
/** IPv4 with an optional port. */
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?!\d|\.\d)/;
/** IPv6 in full or compressed form; at least one group, so C++/Rust `::` paths don't match. */
const IPV6_GROUP = '[0-9a-fA-F]{1,4}';
const IPV6 = new RegExp(
  `(?<![\\w:.])(?:(?:${IPV6_GROUP}:){7}${IPV6_GROUP}` +
    `|${IPV6_GROUP}(?::${IPV6_GROUP})*::(?:${IPV6_GROUP}(?::${IPV6_GROUP})*)?` +
    `|::${IPV6_GROUP}(?::${IPV6_GROUP})*)(?![\\w:])`,
);
const HEX_LITERAL = /0[xX][0-9a-fA-F]+/;
/**
 * Bare hex of 8+ digits with both a letter and a digit: bundle content hashes, Dart `abs`/`virt`
 * addresses, build ids, proxy-class suffixes. All-digit runs are numbers, not hex.
 */
const BARE_HEX = /(?<!\w)(?=\d*[a-fA-F])(?=[a-fA-F]*\d)[0-9a-fA-F]{8,}(?!\w)/;
const GOROUTINE_NUMBER = /(?<=goroutine )\d+/;
/** 4+ digits (ids, ports, generated-class counters) except `:line`, `:col` and Python `line N`. */
const LARGE_NUMBER = /(?<![\w.:]|line )\d{4,}(?!\w|\.\d)/;

/**
 * Cache-busting query string between a bundle's file name and its `:line`. It stops at another
 * `?`, like the query part of FRAME_LINE: otherwise a scan from every `?` of a long run of them
 * would cross the whole run (quadratic time on an adversarial stack trace).
 */
const QUERY_STRING = /\?[^\s:()"'<>?]*(?=:\d)/;
/** Module versions: Go `@v1.2.3` and pseudo-versions, npm and Java module `@1.2.3`. */
const MODULE_VERSION = /@v?\d+(?:\.\d+)+(?:[-+][\w.-]*)?/;
/** Logback/Log4j packaging data after a Java frame, e.g. ` ~[spring-web-6.1.2.jar:6.1.2]`. */
const JAR_VERSION = / ?~?\[[\w.-]+\.jar:[\w.-]*\]/;

/** Runs of blanks inside a line (lines are already trimmed). */
const BLANK_RUN = /[^\S\n]{2,}|[^\S\n ]/;

function group(...patterns: RegExp[]): string {
  return `(${patterns.map((pattern) => pattern.source).join('|')})`;
}

/**
 * The capture groups, in the order `replaceVolatileToken` receives them. Tokens that start a
 * word share one leading `(?<!\w)`: the engine tries each alternative at every position, and
 * that single check rules out most positions for most of them.
 */
const VOLATILE_TOKEN = new RegExp(
  `(?<!\\w)(?:${group(URL_DIRECTORY, ABSOLUTE_DIRECTORY)}|${group(UUID)}|${group(EMAIL)}|${group(IPV4, IPV6)}` +
    `|${group(HEX_LITERAL, BARE_HEX)}|${group(GOROUTINE_NUMBER, LARGE_NUMBER)})` +
    `|${group(QUERY_STRING, MODULE_VERSION, JAR_VERSION)}|${group(BLANK_RUN)}`,
  'g',
);

function replaceVolatileToken(
  _token: string,
  directory: string | undefined,
  uuid: string | undefined,
  email: string | undefined,
  ip: string | undefined,
  hex: string | undefined,
  number: string | undefined,
  versionOrQuery: string | undefined,
): string {
  if (uuid !== undefined) return '<uuid>';
  if (email !== undefined) return '<email>';
  if (ip !== undefined) return '<ip>';
  if (hex !== undefined) return '<hex>';
  if (number !== undefined) return '<num>';
  if (directory !== undefined || versionOrQuery !== undefined) return '';
  return ' ';
}

/**
 * The text an error's grouping hash is computed over, from the first MAX_GROUPED_TRACE characters
 * of the trace.
 *
 * 1. The first line is `Type: message`; only `Type` is kept. A first line without `: ` is kept
 *    whole (Python's `Traceback (most recent call last):` loses its trailing colon only).
 * 2. The message may span lines: lines after a `Type: message` line are dropped until the next
 *    frame line. Later `Type: message` lines (causes, Python's final line) keep `Type` likewise.
 * 3. Lines are trimmed, blank lines dropped, blank runs inside a line become one space.
 * 4. Absolute paths and URLs keep only the file name (`/home/a/app/x.go:12` -> `x.go:12`); query
 *    strings before `:line`, module versions and Java packaging data go; UUIDs, e-mail addresses,
 *    IP addresses, hex (`0x...`, and bare runs of 8+ hex digits such as bundle content hashes),
 *    goroutine numbers and 4+ digit numbers other than line and column numbers become placeholders.
 */
export function normalizeStackTrace(stackTrace: string): string {
  const lines = stackTrace.slice(0, MAX_GROUPED_TRACE).trim().split('\n');
  const kept: string[] = [errorType(lines[0] ?? '')];
  let inMessage = true;
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    if (inMessage) {
      if (!FRAME_LINE.test(line)) continue;
      inMessage = false;
    }
    const exceptionLine = EXCEPTION_LINE.exec(line);
    if (exceptionLine === null) {
      kept.push(line);
    } else {
      kept.push(exceptionLine[0]);
      inMessage = true;
    }
  }
  return kept.join('\n').replace(VOLATILE_TOKEN, replaceVolatileToken);
}

function errorType(firstLine: string): string {
  const line = firstLine.trim();
  const separator = line.indexOf(': ');
  if (separator >= 0) return line.slice(0, separator);
  return line.endsWith(':') ? line.slice(0, -1) : line;
}

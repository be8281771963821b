/**
 * Regular expressions on the ingest path against hostile input (docs/ARCHITECTURE.md, "Patterns
 * on the ingest path"). Nothing here measures time: the corpus asserts results, and on a pattern
 * that backtracks super-linearly it does not finish within the test timeout (the former Dart and
 * iOS frame patterns took seconds per 2,000-blank line and minutes per 8,000). The property tests
 * hold the linear rewrites to the former patterns on short lines, where those are fast.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceptionHash, MAX_GROUPED_TRACE, normalizeStackTrace } from '../core/grouping.js';
import { bearerToken } from '../http/bearer.js';
import {
  detectTraceFlavor,
  parseDartTrace,
  parseIosTrace,
  MAX_SCRIPT_PATH,
  parseJsTrace,
  scriptPath,
  SourceMapTable,
  symbolicateDart,
  symbolicateIos,
  symbolicateJs,
} from '../symbols/index.js';
import { normalizeArch } from '../symbols/ids.js';
import { MAX_TRACE_LINE, parseHex } from '../symbols/trace/text.js';
import { parseReportPayload } from './report/payload.js';

const SEPARATOR = '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***';
const IOS_UUID = 'fb1f31bf712f3200b388cd91c37e2d71';
const noTables = () => undefined;
/** Just under MAX_TRACE_LINE, so the frame patterns do read these lines. */
const RUN = 4000;
const blanks = (unit: string, length = RUN) => unit.repeat(length / unit.length);

/** A hostile frame-section line; the Dart and iOS frames it holds; a short trace that must group with it. */
interface HostileLine {
  readonly name: string;
  readonly line: string;
  readonly dartFrames: number;
  readonly iosFrames: number;
  readonly groupsWith: string;
}

const HOSTILE_LINES: HostileLine[] = [
  {
    name: 'Dart prefix, blanks, a\\rb',
    line: `#0 abs 1${blanks(' ')}a\rb`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs 1 a b',
  },
  {
    name: 'Dart prefix, tabs, a\\rb',
    line: `#0 abs 1${blanks('\t')}a\rb`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs 1 a b',
  },
  {
    name: 'Dart prefix, \\r run, a\\rb',
    line: `#0 abs 1${blanks('\r')}a\rb`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs 1 a b',
  },
  {
    name: 'Dart virt prefix, blanks, a\\u2028b',
    line: `#0 abs 1 virt 2${blanks(' ')}a\u2028b`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs 1 virt 2 a\u2028b',
  },
  {
    name: 'Dart frame, blanks inside its location',
    line: `#0 abs 1${blanks(' ', RUN / 2)}a${blanks(' ', RUN / 2)}b`,
    dartFrames: 1,
    iosFrames: 0,
    groupsWith: '#0 abs 1 a b',
  },
  {
    name: 'Dart prefix, hex run, bang',
    line: `#0 abs ${blanks('a1')}!`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs <hex>!',
  },
  {
    name: 'Dart prefix, repeated virt',
    line: `#0 abs 1${blanks(' virt 1')}\ra`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: `#0 abs 1${' virt 1'.repeat(RUN / 7)} a`,
  },
  {
    name: 'iOS prefix, blanks, a\\rb',
    line: `#0 ${IOS_UUID} 0x1${blanks(' ')}a\rb`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 <hex> <hex> a b',
  },
  {
    name: 'iOS prefix, tabs, a\\u2029b',
    line: `#0 ${IOS_UUID} 0x1${blanks('\t')}a\u2029b`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 <hex> <hex> a\u2029b',
  },
  {
    name: 'iOS frame, blanks inside its image name',
    line: `#0 ${IOS_UUID} 0x1${blanks(' ', RUN / 2)}A${blanks(' ', RUN / 2)}B`,
    dartFrames: 0,
    iosFrames: 1,
    groupsWith: '#0 <hex> <hex> A B',
  },
  {
    name: 'iOS prefix, repeated 0x',
    line: `#0 ${IOS_UUID} ${blanks('0x')}`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: `#0 <hex> <hex>${'x0'.repeat(RUN / 2 - 2)}x`,
  },
  {
    name: 'separator stars and blanks',
    line: `${blanks('*** ')}x`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: `${'*** '.repeat(RUN / 4)}x`,
  },
  {
    name: 'os line, blanks, no arch',
    line: `os: android${blanks(' ')}x`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: 'os: android x',
  },
  {
    name: 'build_id, hex run, no quote',
    line: `build_id: '${blanks('0a')}`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: "build_id: '<hex>",
  },
  {
    name: 'a Dart frame over the line bound',
    line: `#0 abs 1 _kDartVmSnapshotInstructions+0x1${' '.repeat(MAX_TRACE_LINE)}x`,
    dartFrames: 0,
    iosFrames: 0,
    groupsWith: '#0 abs 1 _kDartVmSnapshotInstructions+0x1 x',
  },
];

/** Many hostile lines in one trace, as a client would send them. */
const REPEATS = 20;
const hostileTrace = (line: string) => `E: boom\n${SEPARATOR}\n${`${line}\n`.repeat(REPEATS)}`;

describe('hostile frame-section lines', () => {
  it.each(HOSTILE_LINES)('$name: read by the symbolicators', ({ line, dartFrames, iosFrames }) => {
    const text = hostileTrace(line);
    expect(parseDartTrace(text).frames).toHaveLength(dartFrames * REPEATS);
    expect(parseIosTrace(text).frames).toHaveLength(iosFrames * REPEATS);
    expect(detectTraceFlavor(text)).toBe(dartFrames > 0 ? 'dart' : iosFrames > 0 ? 'ios' : null);
    const expected = dartFrames + iosFrames > 0 ? `E: boom\n${`${line}\n`.repeat(REPEATS)}` : text;
    expect(symbolicateDart(text, noTables)).toBe(dartFrames > 0 ? expected : text);
    expect(symbolicateIos(text, noTables)).toBe(iosFrames > 0 ? expected : text);
  });

  it.each(HOSTILE_LINES)('$name: grouped with its short twin', ({ line, groupsWith }) => {
    expect(exceptionHash(hostileTrace(line), false)).toBe(exceptionHash(hostileTrace(groupsWith), false));
  });

  it('a huge line', () => {
    const text = `E: boom\n${SEPARATOR}\n${`#0 abs 1${' '.repeat(1_000_000)}a\rb\n`.repeat(3)}`;
    expect(parseDartTrace(text).frames).toEqual([]);
    expect(detectTraceFlavor(text)).toBeNull();
    // Grouping reads the first MAX_GROUPED_TRACE characters: the first line's blanks.
    expect(exceptionHash(text, false)).toBe(exceptionHash('E: boom\n#0 abs 1', false));
  });

  it('through the report payload parser', () => {
    const stackTraces = HOSTILE_LINES.map(({ line }) => ({
      stackTrace: hostileTrace(line),
      isMessage: false,
      recordedAt: '2024-05-01T10:00:00Z',
    }));
    const result = parseReportPayload(
      { collectionFrames: [{ stackTraces, metrics: [], traces: [] }], appVersion: '', serverName: '' },
      {
        projectId: '0b6c1f0e-5a3d-4c1e-9f7a-2d8e4b6a1c3f',
        remoteIp: '203.0.113.9',
        receivedAt: 1_714_560_000_000_000_000n,
      },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.batch.exceptions.map((e) => e.hash)).toEqual(
      HOSTILE_LINES.map(({ groupsWith }) => exceptionHash(hostileTrace(groupsWith), false)),
    );
  });
});

describe('hostile grouping input', () => {
  const frame = 'at f (x.js:1:2)\n';

  it.each([
    ['blank runs', `at f${' \t\r'.repeat(RUN)}x`, 'at f x'],
    ['a long hex run', `at ${'a1'.repeat(RUN)} (x.js:1:2)`, 'at <hex> (x.js:1:2)'],
    ['a long number', `at f ${'9'.repeat(RUN)}`, 'at f <num>'],
    ['a deep absolute path', `at ${'/a'.repeat(RUN)}:1`, 'at a:1'],
    ['a run of query marks', `at f.js${'?'.repeat(RUN)}:1`, `at f.js${'?'.repeat(RUN - 1)}:1`],
    ['a run of colons and hex', `at f ${'1:'.repeat(RUN)}x`, `at f ${'1:'.repeat(RUN)}x`],
  ])('%s', (_name, line, normalized) => {
    expect(normalizeStackTrace(`E: m\n${line}`)).toBe(`E\n${normalized}`);
  });

  it(`reads only the first ${MAX_GROUPED_TRACE} characters of a trace`, () => {
    const top = `E: m\n${frame.repeat(MAX_GROUPED_TRACE / frame.length)}`;
    expect(exceptionHash(`${top}at g (y.js:3:4)\n${frame.repeat(100_000)}`, false)).toBe(exceptionHash(top, false));
    expect(exceptionHash(`E: m\nat g (y.js:3:4)\n${top}`, false)).not.toBe(exceptionHash(top, false));
  });
});

describe('hostile bearer tokens', () => {
  it('refuses blank runs and over-long tokens', () => {
    expect(bearerToken(`Bearer ${'a'.repeat(4096)}`)).toBe('a'.repeat(4096));
    expect(bearerToken(`Bearer ${'a'.repeat(4097)}`)).toBeNull();
    expect(bearerToken(`Bearer ${'a '.repeat(2000)}`)).toBeNull();
  });
});

/*
 * The former patterns, as references: on short lines they are fast and exact. One change on
 * purpose: an iOS image name is not blank (the spec's `<image name>`); the former `(.+?)` also took
 * a single blank for one when the offset was followed by two or more blanks and nothing else.
 */
const FORMER_DART_FRAME = /^\s*#\d+\s+abs\s+[0-9a-fA-F]+(?:\s+virt\s+[0-9a-fA-F]+)?(?:\s+(.*?))?\s*$/;
const FORMER_IOS_FRAME = /^\s*#\d+\s+([0-9a-fA-F]{32})\s+0x([0-9a-fA-F]+)\s+(\S.*?)\s*$/;
const FORMER_SEPARATOR = /^\s*\*{3}(?:\s+\*{3})+\s*$/;
const FORMER_OS_ARCH = /^\s*os(?::\s*|=)\S+?,?\s+arch(?::\s*|=)([A-Za-z0-9_]+)/;
const FORMER_BUILD_ID = /\bbuild_id(?::\s*|=)'([0-9a-fA-F]+)'/;
const SYMBOL_OFFSET = /^(\S+)\+0x([0-9a-fA-F]+)$/;

function frameSection(text: string): string[] {
  const lines = text.split('\n');
  const separator = lines.findIndex((line) => FORMER_SEPARATOR.test(line));
  return lines.slice(separator + 1);
}

/** What the symbolicators make of a trace without tables: the preamble, then the frames as received. */
function referenceRewrite(text: string, frames: readonly { raw: string }[]): string {
  if (frames.length === 0) return text;
  const lines = text.split('\n');
  const trailingNewline = lines.length > 1 && lines.at(-1) === '';
  if (trailingNewline) lines.pop();
  const separator = lines.findIndex((line) => FORMER_SEPARATOR.test(line));
  const preamble = separator >= 0 ? lines.slice(0, separator) : lines;
  return [...preamble, ...frames.map((frame) => frame.raw)].join('\n') + (trailingNewline ? '\n' : '');
}

/** The former reading of a frame section: frames by `pattern`; build ids and arch tokens from the other lines. */
function referenceRead<Frame>(text: string, pattern: RegExp, toFrame: (line: string, match: RegExpExecArray) => Frame) {
  const frames: Frame[] = [];
  const buildIds: string[] = [];
  const archTokens: string[] = [];
  for (const line of frameSection(text)) {
    const match = pattern.exec(line);
    if (match) {
      frames.push(toFrame(line, match));
      continue;
    }
    const buildId = FORMER_BUILD_ID.exec(line)?.[1];
    if (buildId !== undefined) buildIds.push(buildId.toLowerCase());
    const archToken = FORMER_OS_ARCH.exec(line)?.[1];
    if (archToken !== undefined) archTokens.push(archToken);
  }
  return { frames, buildIds, archTokens };
}

function referenceDart(text: string) {
  const { frames, buildIds, archTokens } = referenceRead(text, FORMER_DART_FRAME, (raw, match) => {
    const location = SYMBOL_OFFSET.exec(match[1] ?? '');
    return { raw, symbol: location ? location[1] : null, offset: location ? parseHex(location[2]!) : null };
  });
  return {
    frames,
    buildId: buildIds[0] ?? null,
    arch: archTokens.map(normalizeArch).find((arch) => arch !== null) ?? null,
  };
}

function referenceIos(text: string) {
  const { frames, archTokens } = referenceRead(text, FORMER_IOS_FRAME, (raw, match) => ({
    raw,
    uuid: match[1]!.toLowerCase(),
    offset: parseHex(match[2]!),
    image: match[3],
  }));
  return { frames, arch: archTokens.map((token) => normalizeArch(token) ?? token.toLowerCase())[0] ?? 'arm64' };
}

/** Pieces of frame and header lines and their near misses: every blank the patterns treat alike or apart. */
const PIECES = [
  ...[' ', '  ', '\t', '\r', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u3000'],
  ...[
    '#',
    '#0',
    '#12',
    '0',
    '9',
    'abs',
    'virt',
    'a',
    'F',
    'g',
    '0x',
    '0x1f',
    'x',
    '+',
    '+0x1e',
    ':',
    ',',
    '=',
    "'",
    '*',
    '***',
  ],
  ...[
    '_kDartIsolateSnapshotInstructions',
    'ShopApp',
    IOS_UUID,
    IOS_UUID.slice(1),
    'os',
    'arch',
    'arm64',
    'x86_64',
    'build_id',
  ],
];
const PREFIXES = [
  '',
  '#0 abs 1',
  '#00 abs 0000007a virt 0030a6ab',
  `#0 ${IOS_UUID} 0x41a3`,
  'os: ios',
  "build_id: '",
  '***',
];
const frameLikeLine = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }))
  .map(([prefix, pieces]) => prefix + pieces.join(''));
/** A few lines, some of which may be separators, so that the preamble split is compared as well. */
const traceText = fc
  .array(fc.oneof(frameLikeLine, fc.constant(SEPARATOR), fc.constant(' *** ***\t')), { minLength: 1, maxLength: 5 })
  .map((lines) => lines.join('\n'));

describe('the linear frame patterns agree with the former ones', () => {
  it('Dart: frames, build id and arch', () => {
    fc.assert(
      fc.property(traceText, (text) => {
        const trace = parseDartTrace(text);
        const reference = referenceDart(text);
        expect(trace.frames).toEqual(reference.frames);
        expect(trace.buildId).toBe(reference.buildId);
        expect(trace.arch).toBe(reference.arch);
        expect(symbolicateDart(text, noTables)).toBe(referenceRewrite(text, reference.frames));
        expect(detectTraceFlavor(text) === 'dart').toBe(text.split('\n').some((line) => FORMER_DART_FRAME.test(line)));
      }),
      { numRuns: 3000 },
    );
  });

  it('iOS: frames and arch', () => {
    fc.assert(
      fc.property(traceText, (text) => {
        const trace = parseIosTrace(text);
        const reference = referenceIos(text);
        expect(trace.frames).toEqual(reference.frames);
        expect(trace.arch).toBe(reference.arch);
        expect(symbolicateIos(text, noTables)).toBe(referenceRewrite(text, reference.frames));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('hostile JavaScript frame lines (source maps)', () => {
  const table = new SourceMapTable(
    JSON.stringify({ version: 3, sources: ['a.ts'], names: ['f'], sourcesContent: ['x\ny'], mappings: 'AAAAA' }),
  );
  const JS_LINES: Array<{ name: string; line: string; frames: number }> = [
    { name: 'at, blanks, no location', line: `at ${blanks(' ')}x`, frames: 0 },
    { name: 'at, open parentheses', line: `at ${blanks(' (')}a:1:1)`, frames: 1 },
    { name: 'at, colons and digits', line: `at ${blanks(':1')}`, frames: 1 },
    { name: 'at signs', line: `${blanks('@')}a:1:1`, frames: 1 },
    { name: 'at signs and colons (a frame of a junk URL, which no map serves)', line: `${blanks('@:')}1:1`, frames: 1 },
    { name: 'a URL of slashes and dots', line: `at f (https://x/${blanks('./')}a.js:1:1)`, frames: 1 },
    {
      name: 'a V8 frame over the line bound',
      line: `at f (https://x/${'a'.repeat(MAX_TRACE_LINE)}.js:1:1)`,
      frames: 0,
    },
  ];

  it.each(JS_LINES)('$name: read and rewritten', ({ line, frames }) => {
    const text = `Error: boom\n${`    ${line}\n`.repeat(REPEATS)}`;
    expect(parseJsTrace(text)?.frames.length ?? 0).toBe(frames * REPEATS);
    const result = symbolicateJs(text, () => table);
    expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
    for (const frame of parseJsTrace(text)?.frames ?? []) {
      const served = scriptPath(frame.url);
      if (served !== null) expect(served.startsWith('/') && served.length <= MAX_SCRIPT_PATH).toBe(true);
    }
  });
});

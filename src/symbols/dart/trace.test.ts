import { describe, expect, it, vi } from 'vitest';
import { fixtureById, fixtureTables, fixtureText } from '../../../test/support/symbols/fixtures.js';
import { detectTraceFlavor } from '../trace/flavor.js';
import { DART_FRAME_CAP, parseDartTrace, symbolicateDart } from './trace.js';

const fixture = fixtureById('dart-android-arm64-dwarf4');
const table = [...fixtureTables(fixture).values()][0]!;
const crash = fixtureText('traces/dart-android-arm64-dwarf4/crash.txt');
const crashExpected = fixtureText('traces/dart-android-arm64-dwarf4/crash.expected.txt');
const always = () => table;

describe('parseDartTrace', () => {
  it('reads build id, arch and frames', () => {
    const trace = parseDartTrace(crash);
    expect(trace.buildId).toBe('73a2cdb8fd92d0c20b4186374bff33e3');
    expect(trace.arch).toBe('arm64');
    expect(trace.frames).toHaveLength(7);
    expect(trace.frames[0]).toEqual({
      raw: '    #00 abs 0000007a1c5ee6ab virt 000000000030a6ab _kDartIsolateSnapshotInstructions+0x1e1dab',
      symbol: '_kDartIsolateSnapshotInstructions',
      offset: 0x1e1dab,
    });
    expect(trace.frames[3]).toMatchObject({ symbol: '_kDartVmSnapshotInstructions', offset: 0xdf });
  });

  it('accepts the `=` spelling, upper-case ids and normalizes the arch', () => {
    const trace = parseDartTrace(
      "***  *** ***\nos=android, arch=x86_64, comp=yes, sim=no\nbuild_id='ABCDEF0123456789'\n#00 abs 01 _kDartVmSnapshotInstructions+0x1\n",
    );
    expect(trace).toMatchObject({ buildId: 'abcdef0123456789', arch: 'x64' });
  });

  it('finds nothing in a symbolic trace', () => {
    expect(parseDartTrace('#0      main (package:app/main.dart:5:3)\n').frames).toEqual([]);
  });
});

describe('symbolicateDart', () => {
  it('resolves against the table the resolver returns for build id + arch', () => {
    const resolve = vi.fn(always);
    expect(symbolicateDart(crash, resolve)).toBe(crashExpected);
    expect(resolve).toHaveBeenCalledExactlyOnceWith('73a2cdb8fd92d0c20b4186374bff33e3', 'arm64');
  });

  it('returns a symbolic or frameless trace unchanged', () => {
    const symbolic =
      'Bad state\n#0      main (package:app/main.dart:5:3)\n#1      _rootRun (dart:async/zone.dart:1399:13)\n';
    expect(symbolicateDart(symbolic, always)).toBe(symbolic);
    expect(symbolicateDart('', always)).toBe('');
    expect(detectTraceFlavor(symbolic)).toBeNull();
  });

  it('keeps every frame raw when no table is known (and drops the header lines)', () => {
    const output = symbolicateDart(crash, () => undefined);
    expect(output.split('\n')).toEqual([
      'Bad state: card declined',
      ...parseDartTrace(crash).frames.map((f) => f.raw),
      '',
    ]);
  });

  it('resolves only against the exact build and arch, whatever the resolver returns', () => {
    const otherArch = crash.replace('arch: arm64', 'arch: x64');
    const otherBuild = crash.replace('73a2cdb8', '00000000');
    for (const text of [otherArch, otherBuild]) {
      expect(symbolicateDart(text, always)).not.toContain('clamp_rate');
    }
  });

  it('does not resolve without an arch token', () => {
    expect(symbolicateDart(crash.replace('os: android arch: arm64 ', 'os: android '), always)).not.toContain(
      'clamp_rate',
    );
  });

  it('treats the whole text as preamble when there is no separator, so frames appear twice', () => {
    const withoutSeparator = crash.replace(/^\*\*\*.*\n/m, '');
    const output = symbolicateDart(withoutSeparator, always).split('\n');
    expect(output.slice(0, withoutSeparator.split('\n').length - 1)).toEqual(withoutSeparator.split('\n').slice(0, -1));
    expect(output).toContain('#0 clamp_rate (package:shop_app/src/pricing.dart:9:12)');
  });

  it('keeps the absence of a final newline and tolerates CRLF', () => {
    expect(symbolicateDart(crash.trimEnd(), always)).toBe(crashExpected.trimEnd());
    const crlf = symbolicateDart(crash.replaceAll('\n', '\r\n'), always);
    expect(crlf).toContain('#6 App_main (package:shop_app/main.dart:21:3)');
    expect(crlf.startsWith('Bad state: card declined\r\n')).toBe(true);
  });

  it(`emits at most ${DART_FRAME_CAP} frames, inline expansions included`, () => {
    const frame = '    #00 abs 0000007a1c5ee6ab virt 000000000030a6ab _kDartIsolateSnapshotInstructions+0x1e1dab';
    const long = crash.replace(/(build_id: .*\n)/, `$1${`${frame}\n`.repeat(40)}`);
    const lines = symbolicateDart(long, always).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + DART_FRAME_CAP);
    expect(lines.at(-1)).toMatch(/^#49 /);
  });
});

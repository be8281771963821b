import { describe, expect, it } from 'vitest';
import { bytesSource } from './bytes/source.js';
import { SymbolFileError } from './errors.js';
import { archFromFileName, normalizeArch, normalizeDebugId } from './ids.js';
import { identifySymbolFile } from './identify.js';
import { fixtureBytes, fixtureSource, manifest } from '../../test/support/symbols/fixtures.js';

const text = (value: string) => bytesSource(new TextEncoder().encode(value));

describe('identifySymbolFile on the fixtures', () => {
  for (const fixture of manifest.fixtures.filter((f) => f.kind === 'dart_symbols')) {
    it(`${fixture.path}: Dart symbols with build id ${fixture.build_id} and arch ${fixture.arch}`, () => {
      expect(identifySymbolFile(fixtureSource(fixture.path), fixture.file_name!)).toEqual({
        kind: 'dart',
        buildId: fixture.build_id,
        arch: fixture.arch,
        hasDwarf: true,
      });
    });
  }

  it('the Apple-target Dart file has no build id; its App.framework Mach-O carries the debug id', () => {
    const fixture = manifest.fixtures.find((f) => f.id === 'dart-ios-arm64-nobuildid')!;
    expect(identifySymbolFile(fixtureSource(fixture.path), fixture.file_name!)).toMatchObject({
      kind: 'dart',
      buildId: null,
    });
    const companion = identifySymbolFile(fixtureSource(fixture.macho_companion!.path), 'App');
    expect(companion).toMatchObject({
      kind: 'macho',
      fat: false,
      slices: [{ arch: 'arm64', uuid: fixture.debug_id, hasDwarf: false }],
    });
  });

  for (const fixture of manifest.fixtures.filter((f) => f.kind === 'ios_dsym')) {
    const expectedSlices = fixture.slices!.map((slice) => ({
      arch: slice.arch === 'x86_64' ? 'x64' : slice.arch,
      cpuType: slice.arch === 'x86_64' ? 0x01000007 : 0x0100000c,
      uuid: slice.uuid,
    }));

    it(`${fixture.path}: ${fixture.fat ? 'fat' : 'thin'} dSYM with ${expectedSlices.length} slice(s)`, () => {
      const identity = identifySymbolFile(fixtureSource(fixture.path), 'dSYM');
      expect(identity).toMatchObject({
        kind: 'macho',
        fat: fixture.fat,
        slices: expectedSlices.map((s) => ({ ...s, hasDwarf: true })),
      });
      if (identity.kind !== 'macho') return;
      const size = fixtureBytes(fixture.path).length;
      for (const slice of identity.slices) expect(slice.offset + slice.size).toBeLessThanOrEqual(size);
      if (!fixture.fat) expect(identity.slices[0]).toMatchObject({ offset: 0, size });
    });

    it(`${fixture.binary}: the shipped binary has the same UUIDs and no DWARF`, () => {
      expect(identifySymbolFile(fixtureSource(fixture.binary!), 'binary')).toMatchObject({
        kind: 'macho',
        fat: fixture.fat,
        slices: expectedSlices.map((s) => ({ ...s, hasDwarf: false })),
      });
    });
  }
});

describe('identifySymbolFile on other inputs', () => {
  it('recognizes an R8 mapping file by its header and reads pg_map_id', () => {
    const mapping = [
      '# compiler: R8',
      '# compiler_version: 8.2.42',
      '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
      '# pg_map_id: 4f9c1e2',
      '# pg_map_hash: SHA-256 4f9c1e2d',
      'com.example.shop.Cart -> a.b:',
      '    int total -> a',
      '    1:4:void checkout():12:15 -> b',
    ].join('\n');
    expect(identifySymbolFile(text(mapping), 'mapping.txt')).toEqual({ kind: 'proguard', mapId: '4f9c1e2' });
  });

  it('recognizes a plain ProGuard mapping without a header', () => {
    expect(identifySymbolFile(text('com.foo.Bar -> a.b:\n    void run() -> a\n'), 'mapping.txt')).toEqual({
      kind: 'proguard',
    });
  });

  it('calls other text and binary files unknown', () => {
    expect(identifySymbolFile(text('hello world\n'), 'notes.txt')).toEqual({ kind: 'unknown' });
    expect(identifySymbolFile(text('# just a comment\n'), 'notes.txt')).toEqual({ kind: 'unknown' });
    expect(
      identifySymbolFile(bytesSource(new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52])), 'Main.class'),
    ).toEqual({ kind: 'unknown' });
    expect(identifySymbolFile(bytesSource(new Uint8Array(0)), 'empty')).toEqual({ kind: 'unknown' });
  });

  it('calls an ELF without Dart snapshot symbols unknown', () => {
    const elf = fixtureBytes('dart/android-arm64-dwarf4/app.android-arm64.symbols').slice();
    // Rename every "_kDart" in the string tables so no snapshot symbol is left.
    const needle = new TextEncoder().encode('_kDart');
    for (let i = 0; i + needle.length <= elf.length; i++) {
      if (needle.every((byte, j) => elf[i + j] === byte)) elf[i + 1] = 0x58;
    }
    expect(identifySymbolFile(bytesSource(elf), 'libother.so')).toEqual({ kind: 'unknown' });
  });

  it('throws SymbolFileError for truncated ELF and Mach-O files', () => {
    const elf = fixtureBytes('dart/android-arm64-dwarf4/app.android-arm64.symbols');
    const fat = fixtureBytes('ios/ios-fat/ShopKit.framework.dSYM/Contents/Resources/DWARF/ShopKit');
    for (const cut of [
      elf.subarray(0, 20),
      elf.subarray(0, elf.length - 100),
      fat.subarray(0, 40),
      fat.subarray(0, 20000),
    ]) {
      expect(() => identifySymbolFile(bytesSource(cut), 'cut')).toThrow(SymbolFileError);
    }
  });

  it('names the file and the problem in the error', () => {
    const elf = fixtureBytes('dart/android-arm64-dwarf4/app.android-arm64.symbols');
    expect(() => identifySymbolFile(bytesSource(elf.subarray(0, 1000)), 'app.android-arm64.symbols')).toThrow(
      /^app\.android-arm64\.symbols: section header table: bytes \d+\.\.\d+ lie outside the 1000 available$/,
    );
  });
});

describe('upload helpers', () => {
  it('normalizeArch maps the aliases and rejects the rest', () => {
    expect(['arm64', 'aarch64', 'AArch64', 'x64', 'x86_64', 'amd64', 'arm', 'ia32'].map(normalizeArch)).toEqual([
      'arm64',
      'arm64',
      'arm64',
      'x64',
      'x64',
      'x64',
      'arm',
      'ia32',
    ]);
    expect(['riscv64', 'mips', '', 'armv7'].map(normalizeArch)).toEqual([null, null, null, null]);
  });

  it('archFromFileName reads the -<arch>.symbols suffix', () => {
    expect(archFromFileName('app.android-arm64.symbols')).toBe('arm64');
    expect(archFromFileName('build/debug-info/app.android-x86_64.symbols')).toBe('x64');
    expect(archFromFileName('C:\\out\\app.ios-arm.symbols')).toBe('arm');
    expect(archFromFileName('app.android-riscv64.symbols')).toBeNull();
    expect(archFromFileName('app.symbols')).toBeNull();
    expect(archFromFileName('app.android-arm64.so')).toBeNull();
  });

  it('normalizeDebugId lowercases, drops dashes and validates hex', () => {
    expect(normalizeDebugId('092E6D78-2576-34F8-BC79-49D8D656AF13')).toBe('092e6d78257634f8bc7949d8d656af13');
    expect(normalizeDebugId(' 73a2cdb8fd92d0c20b4186374bff33e3 ')).toBe('73a2cdb8fd92d0c20b4186374bff33e3');
    expect(normalizeDebugId('not-hex-at-all')).toBeNull();
    expect(normalizeDebugId('abc')).toBeNull();
    expect(normalizeDebugId('0123456789abcdef0')).toBeNull();
  });
});

/**
 * Hand-made DWARF for what the toolchain fixtures do not exercise: a 32-bit
 * ARM ELF, references to DIEs later in the unit and in other units, DWARF64,
 * lexical blocks inside the inline chain, line 0 and unnamed functions. The
 * expectations were checked once against llvm-symbolizer 14 on the same files.
 */
import { describe, expect, it } from 'vitest';
import { buildLookupTable } from '../build.js';
import { bytesSource } from '../bytes/source.js';
import { symbolicateDart } from '../dart/trace.js';
import { identifySymbolFile } from '../identify.js';
import { toHex } from '../ids.js';
import { armDartSymbols, BUILD_ID, crossUnitElf, HELPER, MAIN } from '../../../test/support/symbols/synthetic-files.js';

describe('32-bit ARM Dart symbols with forward references', () => {
  const bytes = armDartSymbols();
  const table = buildLookupTable(bytesSource(bytes));

  it('identifies as Dart arm with its build id', () => {
    expect(identifySymbolFile(bytesSource(bytes), 'app.android-arm.symbols')).toEqual({
      kind: 'dart',
      buildId: toHex(BUILD_ID),
      arch: 'arm',
      hasDwarf: true,
    });
  });

  it('names frames through abstract origins declared later in the unit, skipping lexical blocks', () => {
    expect(table.lookup(0x1004)).toEqual([{ function: 'Outer.run', file: MAIN, line: 3, column: 1 }]);
    expect(table.lookup(0x1014)).toEqual([
      { function: 'Inner.helper', file: HELPER, line: 12, column: 9 },
      { function: 'Outer.run', file: MAIN, line: 7, column: 5 },
    ]);
    expect(table.lookup(0x1024)).toEqual([{ function: 'Outer.run', file: MAIN, line: 4, column: 0 }]);
  });

  it('leaves addresses without a named function unresolved', () => {
    expect(table.lookup(0x1044)).toBeUndefined();
    expect(table.lookup(0x1084)).toBeUndefined();
    expect(table.lookup(0x10a0)).toBeUndefined();
    expect(table.lookup(0xfff)).toBeUndefined();
  });

  it('symbolicates a Dart arm trace, dropping :line for line 0 and :col for column 0', () => {
    const trace = [
      'Bad state: boom',
      '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
      'os: android arch: arm comp: yes sim: no',
      `build_id: '${toHex(BUILD_ID)}'`,
      '    #00 abs 00000000f0001014 virt 00001014 _kDartIsolateSnapshotInstructions+0x14',
      '    #01 abs 00000000f0001024 virt 00001024 _kDartIsolateSnapshotInstructions+0x24',
      '    #02 abs 00000000f0001094 virt 00001094 _kDartIsolateSnapshotInstructions+0x94',
      '    #03 abs 00000000f0001084 virt 00001084 _kDartIsolateSnapshotInstructions+0x84',
      '    #04 abs 00000000f0000804 _kDartVmSnapshotInstructions+0x4',
      '',
    ].join('\n');
    expect(symbolicateDart(trace, (id, arch) => (id === toHex(BUILD_ID) && arch === 'arm' ? table : undefined))).toBe(
      [
        'Bad state: boom',
        `#0 Inner.helper (${HELPER}:12:9)`,
        `#1 Outer.run (${MAIN}:7:5)`,
        `#2 Outer.run (${MAIN}:4)`,
        `#3 lineZero (${MAIN})`,
        '    #03 abs 00000000f0001084 virt 00001084 _kDartIsolateSnapshotInstructions+0x84',
        '    #04 abs 00000000f0000804 _kDartVmSnapshotInstructions+0x4',
        '',
      ].join('\n'),
    );
  });
});

describe('ELF64 with DWARF64 and cross-unit references', () => {
  const table = buildLookupTable(bytesSource(crossUnitElf()));

  it('reads the container facts', () => {
    expect(table.meta).toEqual({ format: 'elf', arch: 'x64', debugId: null });
  });

  it('follows ref_addr into another unit, then a specification, for the name', () => {
    expect(table.lookup(0x2004)).toEqual([{ function: 'Shared.decl', file: '/src/lib/a.c', line: 10, column: 3 }]);
  });

  it('takes a DWARF 2 high_pc as an address and keeps absolute include directories', () => {
    expect(table.lookup(0x3008)).toEqual([{ function: 'b_fn', file: '/abs/include/b.h', line: 5, column: 0 }]);
    expect(table.lookup(0x3010)).toBeUndefined();
  });
});

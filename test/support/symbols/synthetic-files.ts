/**
 * Test support only: small ELF files with hand-made DWARF (see dwarf-writer.ts)
 * for what the toolchain fixtures do not exercise. Their expected answers were
 * checked once against llvm-symbolizer 14.
 */
import { DW_AT, DW_FORM, DW_TAG } from '../../../src/symbols/dwarf/constants.js';
import { writeDebugInfo, writeElf, writeLineProgram, type Attr } from './dwarf-writer.js';

const DW_TAG_lexical_block = 0x0b;
const DW_AT_inline = 0x20;
const EM_ARM = 40;
const EM_X86_64 = 62;

export const MAIN = 'package:app/main.dart';
export const HELPER = 'package:app/src/helper.dart';
export const BUILD_ID = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);

/** `low_pc` and `high_pc` as DWARF 4 writes them: the start address and the length. */
const pcRange = (low: number, length: number): Attr[] => [
  [DW_AT.low_pc, DW_FORM.addr, low],
  [DW_AT.high_pc, DW_FORM.data4, length],
];

/** The DWARF sections of an ELF file, as writeDebugInfo and writeLineProgram made them. */
const debugSections = (debug: { info: Uint8Array; abbrev: Uint8Array; str: Uint8Array }, line: Uint8Array) => [
  { name: '.debug_abbrev', bytes: debug.abbrev },
  { name: '.debug_info', bytes: debug.info },
  { name: '.debug_str', bytes: debug.str },
  { name: '.debug_line', bytes: line },
];

/** ELF32 ARM Dart-like file: the concrete subprogram and the inlined call name DIEs declared after them. */
export function armDartSymbols(): Uint8Array {
  const { info, abbrev, str } = writeDebugInfo([
    {
      version: 4,
      addressSize: 4,
      root: {
        tag: DW_TAG.compile_unit,
        attrs: [[DW_AT.name, DW_FORM.string, MAIN], [DW_AT.stmt_list, DW_FORM.sec_offset, 0], ...pcRange(0x1000, 0xa0)],
        children: [
          {
            tag: DW_TAG.subprogram,
            attrs: [[DW_AT.abstract_origin, DW_FORM.ref4, { ref: 'outer' }], ...pcRange(0x1000, 0x40)],
            children: [
              {
                tag: DW_TAG_lexical_block,
                attrs: [...pcRange(0x1010, 0x20)],
                children: [
                  {
                    tag: DW_TAG.inlined_subroutine,
                    attrs: [
                      [DW_AT.abstract_origin, DW_FORM.ref4, { ref: 'inner' }],
                      ...pcRange(0x1010, 0x10),
                      [DW_AT.call_file, DW_FORM.data1, 1],
                      [DW_AT.call_line, DW_FORM.data1, 7],
                      [DW_AT.call_column, DW_FORM.data1, 5],
                    ],
                  },
                ],
              },
            ],
          },
          {
            id: 'outer',
            tag: DW_TAG.subprogram,
            attrs: [
              [DW_AT.name, DW_FORM.strp, 'Outer.run'],
              [DW_AT_inline, DW_FORM.data1, 1],
            ],
          },
          {
            id: 'inner',
            tag: DW_TAG.subprogram,
            attrs: [
              [DW_AT.name, DW_FORM.string, 'Inner.helper'],
              [DW_AT_inline, DW_FORM.data1, 1],
            ],
          },
          {
            tag: DW_TAG.subprogram,
            attrs: [...pcRange(0x1080, 0x10)],
          },
          {
            tag: DW_TAG.subprogram,
            attrs: [[DW_AT.name, DW_FORM.string, 'lineZero'], ...pcRange(0x1090, 0x10)],
          },
        ],
      },
    },
  ]);
  const line = writeLineProgram({
    version: 4,
    addressSize: 4,
    directories: [],
    files: [
      [MAIN, 0],
      [HELPER, 0],
    ],
    sequences: [
      {
        rows: [
          { address: 0x1000, file: 1, line: 3, column: 1 },
          { address: 0x1010, file: 2, line: 12, column: 9 },
          { address: 0x1020, file: 1, line: 4, column: 0 },
          { address: 0x1080, file: 1, line: 20, column: 2 },
          { address: 0x1090, file: 1, line: 0, column: 0 },
        ],
        end: 0x10a0,
      },
    ],
  });
  return writeElf({
    is64: false,
    machine: EM_ARM,
    buildId: BUILD_ID,
    symbols: [
      { name: '_kDartVmSnapshotInstructions', value: 0x800 },
      { name: '_kDartIsolateSnapshotInstructions', value: 0x1000 },
    ],
    sections: debugSections({ info, abbrev, str }, line),
  });
}

/** ELF64: a DWARF64 unit whose function is named through DW_FORM_ref_addr into a DWARF 2 unit, then a specification. */
export function crossUnitElf(): Uint8Array {
  const lineA = writeLineProgram({
    version: 4,
    addressSize: 8,
    dwarf64: true,
    directories: ['lib'],
    files: [['a.c', 1]],
    sequences: [{ rows: [{ address: 0x2000, file: 1, line: 10, column: 3 }], end: 0x2020 }],
  });
  const lineB = writeLineProgram({
    version: 2,
    addressSize: 8,
    directories: ['/abs/include'],
    files: [
      ['b.c', 0],
      ['b.h', 1],
    ],
    sequences: [{ rows: [{ address: 0x3000, file: 2, line: 5, column: 0 }], end: 0x3010 }],
  });
  const { info, abbrev, str } = writeDebugInfo([
    {
      version: 4,
      addressSize: 8,
      dwarf64: true,
      root: {
        tag: DW_TAG.compile_unit,
        attrs: [
          [DW_AT.name, DW_FORM.strp, 'a.c'],
          [DW_AT.comp_dir, DW_FORM.strp, '/src'],
          [DW_AT.stmt_list, DW_FORM.sec_offset, 0],
          ...pcRange(0x2000, 0x20),
        ],
        children: [
          {
            tag: DW_TAG.subprogram,
            attrs: [[DW_AT.abstract_origin, DW_FORM.ref_addr, { ref: 'shared' }], ...pcRange(0x2000, 0x20)],
          },
        ],
      },
    },
    {
      version: 2,
      addressSize: 8,
      root: {
        tag: DW_TAG.compile_unit,
        attrs: [
          [DW_AT.name, DW_FORM.string, 'b.c'],
          [DW_AT.comp_dir, DW_FORM.string, '/src'],
          [DW_AT.stmt_list, DW_FORM.data4, lineA.length],
          [DW_AT.low_pc, DW_FORM.addr, 0x3000],
          [DW_AT.high_pc, DW_FORM.addr, 0x3010],
        ],
        children: [
          { id: 'decl', tag: DW_TAG.subprogram, attrs: [[DW_AT.name, DW_FORM.strp, 'Shared.decl']] },
          { id: 'shared', tag: DW_TAG.subprogram, attrs: [[DW_AT.specification, DW_FORM.ref4, { ref: 'decl' }]] },
          {
            tag: DW_TAG.subprogram,
            attrs: [
              [DW_AT.name, DW_FORM.string, 'b_fn'],
              [DW_AT.low_pc, DW_FORM.addr, 0x3000],
              [DW_AT.high_pc, DW_FORM.addr, 0x3010],
            ],
          },
        ],
      },
    },
  ]);
  return writeElf({
    is64: true,
    machine: EM_X86_64,
    sections: debugSections({ info, abbrev, str }, new Uint8Array([...lineA, ...lineB])),
  });
}

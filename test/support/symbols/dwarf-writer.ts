/**
 * Test support only: writes small little-endian ELF files with hand-made
 * DWARF 2-4, for cases the toolchain fixtures do not cover (ELF32, DWARF64,
 * forward and cross-unit references, line 0, unnamed functions).
 */
import { DW_FORM } from '../../../src/symbols/dwarf/constants.js';

export class Emitter {
  private readonly bytes: number[] = [];

  get length(): number {
    return this.bytes.length;
  }

  u8(value: number): this {
    this.bytes.push(value & 0xff);
    return this;
  }

  uint(value: number, size: number): this {
    for (let i = 0; i < size; i++) this.u8(Math.floor(value / 2 ** (8 * i)));
    return this;
  }

  uleb(value: number): this {
    do {
      const digit = value % 128;
      value = Math.floor(value / 128);
      this.u8(value > 0 ? digit | 0x80 : digit);
    } while (value > 0);
    return this;
  }

  sleb(value: number): this {
    for (;;) {
      const digit = value & 0x7f;
      value >>= 7;
      const done = (value === 0 && (digit & 0x40) === 0) || (value === -1 && (digit & 0x40) !== 0);
      this.u8(done ? digit : digit | 0x80);
      if (done) return this;
    }
  }

  cstring(text: string): this {
    for (const byte of new TextEncoder().encode(text)) this.u8(byte);
    return this.u8(0);
  }

  raw(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.u8(bytes[i]!);
    return this;
  }

  align(to: number): this {
    while (this.bytes.length % to !== 0) this.u8(0);
    return this;
  }

  patch(at: number, value: number, size: number): void {
    for (let i = 0; i < size; i++) this.bytes[at + i] = Math.floor(value / 2 ** (8 * i)) & 0xff;
  }

  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

export type AttrValue = number | string | { readonly ref: string };
export type Attr = readonly [attr: number, form: number, value: AttrValue];

export interface DieSpec {
  readonly id?: string;
  readonly tag: number;
  readonly attrs?: readonly Attr[];
  readonly children?: readonly DieSpec[];
}

export interface UnitSpec {
  readonly version: 2 | 3 | 4;
  readonly addressSize: 4 | 8;
  readonly dwarf64?: boolean;
  readonly root: DieSpec;
}

/** .debug_info, .debug_abbrev (one table shared by all units) and .debug_str for the given unit trees. */
export function writeDebugInfo(units: readonly UnitSpec[]): { info: Uint8Array; abbrev: Uint8Array; str: Uint8Array } {
  const info = new Emitter();
  const abbrev = new Emitter();
  const str = new Emitter();
  const codes = new Map<string, number>();
  const dieOffsets = new Map<string, number>();
  const patches: Array<{ at: number; id: string; size: number; relativeTo: number }> = [];

  const codeFor = (die: DieSpec): number => {
    const attrs = die.attrs ?? [];
    const key = JSON.stringify([die.tag, die.children !== undefined, attrs.map(([a, f]) => [a, f])]);
    let code = codes.get(key);
    if (code === undefined) {
      code = codes.size + 1;
      codes.set(key, code);
      abbrev
        .uleb(code)
        .uleb(die.tag)
        .u8(die.children !== undefined ? 1 : 0);
      for (const [attr, form] of attrs) abbrev.uleb(attr).uleb(form);
      abbrev.uleb(0).uleb(0);
    }
    return code;
  };

  for (const unit of units) {
    const offsetSize = unit.dwarf64 ? 8 : 4;
    const unitStart = info.length;
    if (unit.dwarf64) info.uint(0xffffffff, 4);
    const lengthAt = info.length;
    info.uint(0, offsetSize).uint(unit.version, 2).uint(0, offsetSize).u8(unit.addressSize);

    const writeDie = (die: DieSpec): void => {
      if (die.id) dieOffsets.set(die.id, info.length);
      info.uleb(codeFor(die));
      for (const [, form, value] of die.attrs ?? []) {
        if (typeof value === 'object') {
          const size = form === DW_FORM.ref4 ? 4 : unit.version <= 2 ? unit.addressSize : offsetSize;
          patches.push({ at: info.length, id: value.ref, size, relativeTo: form === DW_FORM.ref4 ? unitStart : 0 });
          info.uint(0, size);
        } else if (form === DW_FORM.string) {
          info.cstring(String(value));
        } else if (form === DW_FORM.strp) {
          info.uint(str.length, offsetSize);
          str.cstring(String(value));
        } else if (form === DW_FORM.addr) {
          info.uint(Number(value), unit.addressSize);
        } else if (form === DW_FORM.sec_offset) {
          info.uint(Number(value), offsetSize);
        } else if (form === DW_FORM.udata) {
          info.uleb(Number(value));
        } else if (form !== DW_FORM.flag_present) {
          const sizes: Record<number, number> = {
            [DW_FORM.data1]: 1,
            [DW_FORM.data2]: 2,
            [DW_FORM.data4]: 4,
            [DW_FORM.data8]: 8,
          };
          info.uint(Number(value), sizes[form]!);
        }
      }
      if (die.children !== undefined) {
        for (const child of die.children) writeDie(child);
        info.u8(0);
      }
    };
    writeDie(unit.root);
    info.patch(lengthAt, info.length - lengthAt - offsetSize, offsetSize);
  }
  abbrev.u8(0);
  for (const { at, id, size, relativeTo } of patches) info.patch(at, dieOffsets.get(id)! - relativeTo, size);
  return { info: info.toBytes(), abbrev: abbrev.toBytes(), str: str.toBytes() };
}

export interface LineRow {
  readonly address: number;
  readonly file: number;
  readonly line: number;
  readonly column: number;
}

/** One DWARF 2-4 line program; each sequence is its rows then an end_sequence at `end`. */
export function writeLineProgram(spec: {
  readonly version: 2 | 3 | 4;
  readonly addressSize: 4 | 8;
  readonly dwarf64?: boolean;
  readonly directories: readonly string[];
  readonly files: ReadonlyArray<readonly [name: string, dirIndex: number]>;
  readonly sequences: ReadonlyArray<{ readonly rows: readonly LineRow[]; readonly end: number }>;
}): Uint8Array {
  const out = new Emitter();
  const offsetSize = spec.dwarf64 ? 8 : 4;
  if (spec.dwarf64) out.uint(0xffffffff, 4);
  const lengthAt = out.length;
  out.uint(0, offsetSize).uint(spec.version, 2);
  const headerLengthAt = out.length;
  out.uint(0, offsetSize).u8(1);
  if (spec.version >= 4) out.u8(1);
  out
    .u8(1)
    .u8(-5 & 0xff)
    .u8(14)
    .u8(13)
    .raw([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]);
  for (const dir of spec.directories) out.cstring(dir);
  out.u8(0);
  for (const [name, dir] of spec.files) out.cstring(name).uleb(dir).uleb(0).uleb(0);
  out.u8(0);
  out.patch(headerLengthAt, out.length - headerLengthAt - offsetSize, offsetSize);

  const LINE_BASE = -5;
  const LINE_RANGE = 14;
  const OPCODE_BASE = 13;
  const setAddress = (address: number): void => {
    out
      .u8(0)
      .uleb(1 + spec.addressSize)
      .u8(2)
      .uint(address, spec.addressSize);
  };
  for (const sequence of spec.sequences) {
    let address = -1;
    let file = 1;
    let line = 1;
    let column = 0;
    for (const row of sequence.rows) {
      const jump = address < 0 || row.address < address;
      if (jump) setAddress(row.address);
      if (row.file !== file) out.u8(4).uleb(row.file); // DW_LNS_set_file
      if (row.column !== column) out.u8(5).uleb(row.column); // DW_LNS_set_column
      const addressDelta = jump ? 0 : row.address - address;
      const lineDelta = row.line - line;
      const special = lineDelta - LINE_BASE + LINE_RANGE * addressDelta + OPCODE_BASE;
      if (lineDelta >= LINE_BASE && lineDelta < LINE_BASE + LINE_RANGE && special <= 255) {
        out.u8(special); // special opcode: advance address and line, append a row
      } else {
        if (addressDelta > 0) out.u8(2).uleb(addressDelta); // DW_LNS_advance_pc
        if (lineDelta !== 0) out.u8(3).sleb(lineDelta); // DW_LNS_advance_line
        out.u8(1); // DW_LNS_copy
      }
      ({ address, file, line, column } = row);
    }
    setAddress(sequence.end);
    out.u8(0).uleb(1).u8(1); // DW_LNE_end_sequence
  }
  out.patch(lengthAt, out.length - lengthAt - offsetSize, offsetSize);
  return out.toBytes();
}

export interface ElfSpec {
  readonly is64: boolean;
  readonly machine: number;
  readonly buildId?: Uint8Array;
  readonly symbols?: ReadonlyArray<{ readonly name: string; readonly value: number }>;
  readonly sections: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array }>;
}

/** A relocatable-looking ELF (ET_DYN, no program headers) holding the given sections, notes and symbols. */
export function writeElf(spec: ElfSpec): Uint8Array {
  const word = spec.is64 ? 8 : 4;
  const headerSize = spec.is64 ? 64 : 52;
  const out = new Emitter();
  out.raw(new Uint8Array(headerSize));

  interface Placed {
    name: string;
    type: number;
    offset: number;
    size: number;
    link: number;
    align: number;
    entSize: number;
  }
  const placed: Placed[] = [];
  const place = (name: string, type: number, bytes: Uint8Array, extra: Partial<Placed> = {}): number => {
    out.align(8);
    placed.push({ name, type, offset: out.length, size: bytes.length, link: 0, align: 1, entSize: 0, ...extra });
    out.raw(bytes);
    return placed.length; // section index (0 is the null section)
  };

  if (spec.buildId) {
    const note = new Emitter()
      .uint(4, 4)
      .uint(spec.buildId.length, 4)
      .uint(3, 4)
      .cstring('GNU')
      .raw(spec.buildId)
      .align(4);
    place('.note.gnu.build-id', 7, note.toBytes(), { align: 4 });
  }
  for (const section of spec.sections) place(section.name, 1, section.bytes);
  if (spec.symbols) {
    const strtab = new Emitter().u8(0);
    const symtab = new Emitter().raw(new Uint8Array(spec.is64 ? 24 : 16));
    for (const symbol of spec.symbols) {
      const nameOffset = strtab.length;
      strtab.cstring(symbol.name);
      if (spec.is64) symtab.uint(nameOffset, 4).u8(0x11).u8(0).uint(1, 2).uint(symbol.value, 8).uint(0, 8);
      else symtab.uint(nameOffset, 4).uint(symbol.value, 4).uint(0, 4).u8(0x11).u8(0).uint(1, 2);
    }
    const strtabIndex = placed.length + 2;
    place('.symtab', 2, symtab.toBytes(), { link: strtabIndex, entSize: spec.is64 ? 24 : 16, align: word });
    place('.strtab', 3, strtab.toBytes());
  }
  const shstrtab = new Emitter().u8(0);
  const nameOffsets = placed.map((section) => {
    const offset = shstrtab.length;
    shstrtab.cstring(section.name);
    return offset;
  });
  const shstrtabName = shstrtab.length;
  shstrtab.cstring('.shstrtab');
  const shstrndx = place('.shstrtab', 3, shstrtab.toBytes());
  nameOffsets.push(shstrtabName);

  out.align(8);
  const shoff = out.length;
  out.raw(new Uint8Array(spec.is64 ? 64 : 40));
  placed.forEach((section, i) => {
    const fields = [
      nameOffsets[i]!,
      section.type,
      0,
      0,
      section.offset,
      section.size,
      section.link,
      0,
      section.align,
      section.entSize,
    ];
    const sizes = spec.is64 ? [4, 4, 8, 8, 8, 8, 4, 4, 8, 8] : [4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
    fields.forEach((value, j) => {
      out.uint(value, sizes[j]!);
    });
  });

  const header = new Emitter().raw([0x7f, 0x45, 0x4c, 0x46, spec.is64 ? 2 : 1, 1, 1]).raw(new Uint8Array(9));
  header.uint(3, 2).uint(spec.machine, 2).uint(1, 4).uint(0, word).uint(0, word).uint(shoff, word).uint(0, 4);
  header
    .uint(headerSize, 2)
    .uint(0, 2)
    .uint(0, 2)
    .uint(spec.is64 ? 64 : 40, 2)
    .uint(placed.length + 1, 2)
    .uint(shstrndx, 2);
  const bytes = out.toBytes();
  bytes.set(header.toBytes(), 0);
  return bytes;
}

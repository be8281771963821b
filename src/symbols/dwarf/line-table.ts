import { ByteReader } from '../bytes/reader.js';
import { corrupt, truncated, unsupported } from '../errors.js';
import { float64Column, uint32Column, type Column } from '../table/columns.js';
import { DW_FORM, DW_LNCT, DW_LNE, DW_LNS } from './constants.js';
import type { DwarfData } from './data.js';
import { readFormValue } from './forms.js';
import type { DwarfUnit } from './unit.js';

export interface LineFile {
  readonly name: string;
  readonly dirIndex: number;
}

/** Rows of the line matrix as parallel columns (one entry per row, end-of-sequence rows left out). */
export interface LineRows {
  readonly address: Column<Float64Array>;
  readonly file: Column<Uint32Array>;
  readonly line: Column<Uint32Array>;
  readonly column: Column<Uint32Array>;
}

/** A contiguous run of code [low, high) described by rows [firstRow, endRow). */
export interface LineSequence {
  readonly low: number;
  readonly high: number;
  readonly firstRow: number;
  readonly endRow: number;
}

export interface LineTable {
  readonly version: number;
  readonly directories: readonly string[];
  readonly files: readonly LineFile[];
  readonly rows: LineRows;
  readonly sequences: readonly LineSequence[];
}

/** Parses the line program at `offset` of .debug_line (DWARF 2-5). */
export function readLineTable(data: DwarfData, unit: DwarfUnit, offset: number): LineTable {
  const section = data.sections.line;
  const outer = new ByteReader(section, 'debug_line');
  outer.seek(offset);
  let length = outer.u32();
  let offsetSize: 4 | 8 = 4;
  if (length === 0xffffffff) {
    length = outer.u64();
    offsetSize = 8;
  } else if (length >= 0xfffffff0) {
    throw corrupt(`debug_line: reserved unit length at ${offset}`);
  }
  const end = outer.pos + length;
  if (!(end <= section.length)) throw truncated(`debug_line: line program at ${offset} runs past the section end`);
  const r = new ByteReader(section.subarray(0, end), 'debug_line');
  r.seek(outer.pos);

  const version = r.u16();
  if (version < 2 || version > 5) throw unsupported(`debug_line: line program at ${offset} has version ${version}`);
  if (version >= 5) r.skip(2); // address_size, segment_selector_size: set_address carries its own length
  const headerLength = r.uint(offsetSize);
  const programStart = r.pos + headerLength;
  const minInstLength = r.u8();
  if (version >= 4) r.u8(); // maximum_operations_per_instruction: VLIW op indices are not tracked
  r.u8(); // default_is_stmt: lookups use every row, as LLVM does
  const lineBase = r.i8();
  const lineRange = r.u8();
  const opcodeBase = r.u8();
  const standardOpcodeLengths: number[] = [];
  for (let i = 1; i < opcodeBase; i++) standardOpcodeLengths.push(r.u8());

  const lineUnit = { ...unit, offsetSize };
  const { directories, files } = version >= 5 ? readEntryTablesV5(r, data, lineUnit) : readEntryTablesV2(r);
  r.seek(programStart);

  const rows: LineRows = {
    address: float64Column(),
    file: uint32Column(),
    line: uint32Column(),
    column: uint32Column(),
  };
  const sequences: LineSequence[] = [];
  const program: ProgramHeader = { minInstLength, lineBase, lineRange, opcodeBase, standardOpcodeLengths };
  runProgram(r, program, rows, sequences, files);
  return { version, directories, files, rows, sequences };
}

interface ProgramHeader {
  readonly minInstLength: number;
  readonly lineBase: number;
  readonly lineRange: number;
  readonly opcodeBase: number;
  readonly standardOpcodeLengths: readonly number[];
}

function runProgram(
  r: ByteReader,
  h: ProgramHeader,
  rows: LineRows,
  sequences: LineSequence[],
  files: LineFile[],
): void {
  let address = 0;
  let file = 1;
  let line = 1;
  let column = 0;
  let sequenceStart = rows.address.length;

  const appendRow = (): void => {
    rows.address.push(address);
    // An index past 32 bits names no file; keep it invalid rather than let it wrap onto a real one.
    rows.file.push(Math.min(file, 0xffffffff));
    rows.line.push(line >>> 0);
    rows.column.push(column >>> 0);
  };
  const advanceSpecial = (opcode: number): void => {
    if (h.lineRange === 0) throw corrupt('debug_line: special opcode with line_range 0');
    const adjusted = opcode - h.opcodeBase;
    address += Math.floor(adjusted / h.lineRange) * h.minInstLength;
    line += h.lineBase + (adjusted % h.lineRange);
  };
  const endSequence = (): void => {
    const low = sequenceStart < rows.address.length ? rows.address.at(sequenceStart) : undefined;
    const valid =
      low !== undefined && low < address && rowAddressesAreSafe(rows, sequenceStart) && Number.isSafeInteger(address);
    if (valid) {
      sequences.push({ low, high: address, firstRow: sequenceStart, endRow: rows.address.length });
    } else {
      truncateRows(rows, sequenceStart);
    }
    sequenceStart = rows.address.length;
    address = 0;
    file = 1;
    line = 1;
    column = 0;
  };

  while (r.remaining > 0) {
    const opcode = r.u8();
    if (opcode >= h.opcodeBase) {
      advanceSpecial(opcode);
      appendRow();
      continue;
    }
    switch (opcode) {
      case 0: {
        const length = r.uleb();
        const bodyStart = r.pos;
        if (!(length <= r.remaining))
          throw truncated(`debug_line: extended opcode at ${bodyStart} runs past the program`);
        if (length === 0) break;
        const sub = r.u8();
        if (sub === DW_LNE.end_sequence) {
          endSequence();
        } else if (sub === DW_LNE.set_address) {
          const size = length - 1;
          if (size === 1 || size === 2 || size === 4 || size === 8) address = r.uint(size);
        } else if (sub === DW_LNE.define_file) {
          const name = r.cstring();
          const dirIndex = r.uleb();
          files.push({ name, dirIndex });
        }
        r.seek(bodyStart + length);
        break;
      }
      case DW_LNS.copy:
        appendRow();
        break;
      case DW_LNS.advance_pc:
        address += r.uleb() * h.minInstLength;
        break;
      case DW_LNS.advance_line:
        line += r.sleb();
        break;
      case DW_LNS.set_file:
        file = r.uleb();
        break;
      case DW_LNS.set_column:
        column = r.uleb();
        break;
      case DW_LNS.const_add_pc:
        if (h.lineRange === 0) throw corrupt('debug_line: const_add_pc with line_range 0');
        address += Math.floor((255 - h.opcodeBase) / h.lineRange) * h.minInstLength;
        break;
      case DW_LNS.fixed_advance_pc:
        address += r.u16();
        break;
      case DW_LNS.negate_stmt:
      case DW_LNS.set_basic_block:
      case DW_LNS.set_prologue_end:
      case DW_LNS.set_epilogue_begin:
        break;
      default: {
        // set_isa and opcodes newer than the reader: skip the operands the header declares.
        const operands = h.standardOpcodeLengths[opcode - 1] ?? 0;
        for (let i = 0; i < operands; i++) r.uleb();
      }
    }
  }
  // Rows after the last end_sequence describe no complete range.
  truncateRows(rows, sequenceStart);
}

/** Arithmetic on corrupt operands can leave addresses past 2^53 (or NaN); such a sequence is dropped whole. */
function rowAddressesAreSafe(rows: LineRows, from: number): boolean {
  for (let i = from; i < rows.address.length; i++) if (!Number.isSafeInteger(rows.address.at(i))) return false;
  return true;
}

function truncateRows(rows: LineRows, length: number): void {
  for (const column of [rows.address, rows.file, rows.line, rows.column]) column.truncate(length);
}

function readEntryTablesV2(r: ByteReader): { directories: string[]; files: LineFile[] } {
  const directories: string[] = [];
  for (let dir = r.cstring(); dir !== ''; dir = r.cstring()) directories.push(dir);
  const files: LineFile[] = [];
  for (let name = r.cstring(); name !== ''; name = r.cstring()) {
    const dirIndex = r.uleb();
    r.uleb(); // modification time
    r.uleb(); // file length
    files.push({ name, dirIndex });
  }
  return { directories, files };
}

interface EntryFormat {
  readonly contentType: number;
  readonly form: number;
}

function readEntryTablesV5(
  r: ByteReader,
  data: DwarfData,
  unit: DwarfUnit,
): { directories: string[]; files: LineFile[] } {
  const directories = readEntriesV5(r, data, unit).map((entry) => entry.name);
  const files = readEntriesV5(r, data, unit);
  return { directories, files };
}

/** One DWARF 5 directory or file table: a format description followed by the entries. */
function readEntriesV5(r: ByteReader, data: DwarfData, unit: DwarfUnit): LineFile[] {
  const formatCount = r.u8();
  const formats: EntryFormat[] = [];
  for (let i = 0; i < formatCount; i++) formats.push({ contentType: r.uleb(), form: r.uleb() });
  const pathFormat = formats.find((format) => format.contentType === DW_LNCT.path);
  if (!pathFormat || !isStringForm(pathFormat.form)) throw corrupt('debug_line: entry format without a string path');
  // Every entry holds a path of at least one byte, so the reader's end bounds this loop.
  const count = r.uleb();
  const entries: LineFile[] = [];
  for (let i = 0; i < count; i++) {
    let name = '';
    let dirIndex = 0;
    for (const format of formats) {
      if (format.contentType === DW_LNCT.path) {
        name =
          format.form === DW_FORM.string
            ? r.cstring()
            : (data.string(unit, format.form, readFormValue(r, format.form, unit, 0)) ?? '');
      } else {
        const value = readFormValue(r, format.form, unit, 0);
        if (format.contentType === DW_LNCT.directory_index) dirIndex = value;
      }
    }
    entries.push({ name, dirIndex });
  }
  return entries;
}

function isStringForm(form: number): boolean {
  return (
    form === DW_FORM.string ||
    form === DW_FORM.strp ||
    form === DW_FORM.line_strp ||
    form === DW_FORM.strx ||
    (form >= DW_FORM.strx1 && form <= DW_FORM.strx4)
  );
}

/**
 * The path of file `index` as llvm-symbolizer prints it (LLVM's
 * Prologue::getFileNameByIndex with AbsoluteFilePath): absolute names as
 * they are, otherwise include directory and, for relative directories, the
 * compilation directory in front. DWARF 5 indices start at 0, earlier ones at
 * 1. Empty when the index names no file.
 */
export function lineFilePath(table: LineTable, index: number, compDir: string): string {
  const dwarf5 = table.version >= 5;
  const entry = dwarf5 ? table.files[index] : index >= 1 ? table.files[index - 1] : undefined;
  if (!entry) return '';
  if (isAbsolutePath(entry.name)) return entry.name;
  let includeDir = '';
  if (dwarf5) includeDir = table.directories[entry.dirIndex] ?? '';
  else if (entry.dirIndex > 0) includeDir = table.directories[entry.dirIndex - 1] ?? '';
  const withCompDir = (!dwarf5 || entry.dirIndex !== 0) && compDir !== '' && !isAbsolutePath(includeDir);
  return appendPath(withCompDir ? compDir : '', includeDir, entry.name);
}

/** POSIX or Windows absolute path (LLVM checks both, whatever the host). */
function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\/]+[\\/]/.test(path);
}

/** LLVM's sys::path::append (POSIX style): one '/' between components, none doubled. */
function appendPath(base: string, ...components: string[]): string {
  let path = base;
  for (const component of components) {
    if (path.endsWith('/')) {
      path += component.replace(/^\/+/, '');
    } else {
      if (!component.startsWith('/') && path !== '') path += '/';
      path += component;
    }
  }
  return path;
}

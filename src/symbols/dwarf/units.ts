import { ByteReader } from '../bytes/reader.js';
import { corrupt, truncated, unsupported } from '../errors.js';
import { DW_UT } from './constants.js';
import type { DwarfData } from './data.js';
import { Die } from './die.js';
import type { DwarfUnit, UnitBases, UnitHeader } from './unit.js';

/** The compile and partial units of .debug_info, with random access to any of their DIEs. */
export class DwarfUnits {
  readonly list: readonly DwarfUnit[];
  private readonly lookupReaders = new Map<number, ByteReader>();

  constructor(readonly data: DwarfData) {
    this.list = readUnits(data);
  }

  /**
   * A new reader at the unit's first DIE for walking its tree, confined to
   * the unit so that a corrupt DIE cannot run into the next one.
   */
  walk(unit: DwarfUnit): ByteReader {
    const reader = new ByteReader(this.data.sections.info.subarray(0, unit.end), 'debug_info');
    reader.seek(unit.firstDieOffset);
    return reader;
  }

  /**
   * Reads the DIE at an absolute .debug_info offset into `die`; the unit, or
   * undefined when nothing is there. Uses readers of its own, so it can run
   * in the middle of a walk.
   */
  dieAt(offset: number, die: Die): DwarfUnit | undefined {
    const unit = this.containing(offset);
    if (!unit) return undefined;
    let reader = this.lookupReaders.get(unit.index);
    if (!reader) {
      reader = this.walk(unit);
      this.lookupReaders.set(unit.index, reader);
    }
    reader.seek(offset);
    return die.read(reader, unit) ? unit : undefined;
  }

  private containing(offset: number): DwarfUnit | undefined {
    let low = 0;
    let high = this.list.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const unit = this.list[mid]!;
      if (offset < unit.firstDieOffset) high = mid - 1;
      else if (offset >= unit.end) low = mid + 1;
      else return unit;
    }
    return undefined;
  }
}

function readUnits(data: DwarfData): DwarfUnit[] {
  const r = new ByteReader(data.sections.info, 'debug_info');
  const units: DwarfUnit[] = [];
  const unitDie = new Die();
  while (r.remaining > 0) {
    const offset = r.pos;
    let length = r.u32();
    let offsetSize: 4 | 8 = 4;
    if (length === 0xffffffff) {
      length = r.u64();
      offsetSize = 8;
    } else if (length >= 0xfffffff0) {
      throw corrupt(`debug_info: reserved unit length 0x${length.toString(16)} at ${offset}`);
    }
    const end = r.pos + length;
    if (!(end <= r.length)) throw truncated(`debug_info: unit at ${offset} runs past the section end`);
    const version = r.u16();
    if (version < 2 || version > 5) throw unsupported(`debug_info: unit at ${offset} has DWARF version ${version}`);
    let unitType: number = DW_UT.compile;
    let addressSize: number;
    let abbrevOffset: number;
    if (version >= 5) {
      unitType = r.u8();
      addressSize = r.u8();
      abbrevOffset = r.uint(offsetSize);
      if (unitType === DW_UT.skeleton || unitType === DW_UT.split_compile) r.skip(8);
      else if (unitType === DW_UT.type || unitType === DW_UT.split_type) r.skip(8 + offsetSize);
    } else {
      abbrevOffset = r.uint(offsetSize);
      addressSize = r.u8();
    }
    const firstDieOffset = r.pos;
    if (firstDieOffset > end) throw corrupt(`debug_info: unit header at ${offset} is longer than the unit`);
    r.seek(end);
    // Type units are only reachable through signatures, and split (skeleton) units keep their DIEs in .dwo files.
    if (unitType !== DW_UT.compile && unitType !== DW_UT.partial) continue;
    if (addressSize !== 4 && addressSize !== 8)
      throw unsupported(`debug_info: unit at ${offset} has address size ${addressSize}`);
    const header: UnitHeader = {
      index: units.length,
      offset,
      end,
      firstDieOffset,
      version,
      offsetSize,
      addressSize,
      abbrevs: data.abbrevTable(abbrevOffset),
    };
    units.push(completeUnit(data, header, unitDie));
  }
  return units;
}

/** Adds what the unit DIE says: section bases, base address, compilation directory, line program. */
function completeUnit(data: DwarfData, header: UnitHeader, die: Die): DwarfUnit {
  const r = new ByteReader(data.sections.info.subarray(0, header.end), 'debug_info');
  r.seek(header.firstDieOffset);
  const hasDie = r.pos < header.end && die.read(r, header);
  // DWARF 5 producers always emit the bases; the fallbacks point just past a single table header.
  const headerSize = header.offsetSize === 8 ? 16 : 8;
  const dwarf5 = header.version >= 5;
  const bases: UnitBases = {
    strOffsetsBase: hasDie && die.strOffsetsBase >= 0 ? die.strOffsetsBase : dwarf5 ? headerSize : 0,
    addrBase: hasDie && die.addrBase >= 0 ? die.addrBase : dwarf5 ? headerSize : 0,
    rnglistsBase: hasDie && die.rnglistsBase >= 0 ? die.rnglistsBase : headerSize + 4,
  };
  const context = { ...header, ...bases };
  return {
    ...context,
    baseAddress: hasDie && die.lowPcForm !== 0 ? data.address(context, die.lowPcForm, die.lowPcValue) : 0,
    compDir: hasDie && die.compDirForm !== 0 ? (data.string(context, die.compDirForm, die.compDirValue) ?? '') : '',
    stmtList: hasDie && die.stmtList >= 0 ? die.stmtList : null,
  };
}

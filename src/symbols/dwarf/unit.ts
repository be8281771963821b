import type { AbbrevTable } from './abbrev.js';

/** What the unit header says: enough to decode the forms of its DIEs. */
export interface UnitHeader {
  readonly index: number;
  /** Offset of the unit header in .debug_info. */
  readonly offset: number;
  /** End of the unit (exclusive). */
  readonly end: number;
  readonly firstDieOffset: number;
  readonly version: number;
  /** 4 for 32-bit DWARF, 8 for 64-bit DWARF. */
  readonly offsetSize: 4 | 8;
  readonly addressSize: number;
  readonly abbrevs: AbbrevTable;
}

/** DWARF 5 section bases from the unit DIE (DW_AT_*_base), used to decode indexed forms. */
export interface UnitBases {
  readonly strOffsetsBase: number;
  readonly addrBase: number;
  readonly rnglistsBase: number;
}

export interface DwarfUnit extends UnitHeader, UnitBases {
  /** The unit's low_pc: the base of its DWARF 4 range lists and DWARF 5 offset pairs. */
  readonly baseAddress: number;
  readonly compDir: string;
  /** Offset of the unit's line program in .debug_line, or null when it has none. */
  readonly stmtList: number | null;
}

import { ByteReader, cstringAt } from '../bytes/reader.js';
import { corrupt } from '../errors.js';
import { readAbbrevTable, type AbbrevTable } from './abbrev.js';
import { DW_FORM } from './constants.js';
import type { DwarfSections } from './sections.js';
import type { UnitBases, UnitHeader } from './unit.js';

type UnitContext = UnitHeader & UnitBases;

/** The DWARF sections plus the decoding that needs more than one of them: strings, indexed addresses, abbreviations. */
export class DwarfData {
  private readonly debugStrCache = new Map<number, string>();
  private readonly lineStrCache = new Map<number, string>();
  private readonly abbrevCache = new Map<number, AbbrevTable>();
  /**
   * Decoded string bytes may exceed the string sections only through suffix
   * sharing; a corrupt file pointing thousands of DIEs into one long string
   * would otherwise cost time quadratic in its size.
   */
  private stringBudget: number;

  constructor(readonly sections: DwarfSections) {
    this.stringBudget = 4 * (sections.info.length + sections.str.length + sections.lineStr.length) + 1024 * 1024;
  }

  abbrevTable(offset: number): AbbrevTable {
    let table = this.abbrevCache.get(offset);
    if (!table) {
      table = readAbbrevTable(this.sections.abbrev, offset);
      this.abbrevCache.set(offset, table);
    }
    return table;
  }

  /** Decodes a string-class attribute value; null for forms that live in another file. */
  string(unit: UnitContext, form: number, value: number): string | null {
    switch (form) {
      case DW_FORM.string:
        return this.decode(this.sections.info, value, 'debug_info');
      case DW_FORM.strp:
        return this.debugStr(value);
      case DW_FORM.line_strp:
        return cached(this.lineStrCache, value, () => this.decode(this.sections.lineStr, value, 'debug_line_str'));
      case DW_FORM.strx:
      case DW_FORM.strx1:
      case DW_FORM.strx2:
      case DW_FORM.strx3:
      case DW_FORM.strx4:
      case DW_FORM.GNU_str_index: {
        const table = new ByteReader(this.sections.strOffsets, 'debug_str_offsets');
        table.seek(unit.strOffsetsBase + value * unit.offsetSize);
        return this.debugStr(table.uint(unit.offsetSize));
      }
      default:
        return null;
    }
  }

  /** Decodes an address-class attribute value (a literal address or an index into .debug_addr). */
  address(unit: UnitContext, form: number, value: number): number {
    if (form === DW_FORM.addr) return value;
    return this.addressAtIndex(unit, value);
  }

  addressAtIndex(unit: UnitContext, index: number): number {
    const table = new ByteReader(this.sections.addr, 'debug_addr');
    table.seek(unit.addrBase + index * unit.addressSize);
    return table.uint(unit.addressSize);
  }

  private debugStr(offset: number): string {
    return cached(this.debugStrCache, offset, () => this.decode(this.sections.str, offset, 'debug_str'));
  }

  private decode(section: Uint8Array, offset: number, label: string): string {
    const text = cstringAt(section, offset, label);
    this.stringBudget -= text.length + 1;
    if (this.stringBudget < 0) throw corrupt(`${label}: string references far exceed the string data`);
    return text;
  }
}

function cached(cache: Map<number, string>, key: number, decode: () => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = decode();
    cache.set(key, value);
  }
  return value;
}

import type { ByteReader } from '../bytes/reader.js';
import { corrupt } from '../errors.js';
import { DW_AT, DW_FORM } from './constants.js';
import { isReferenceForm, readFormValue } from './forms.js';
import type { UnitHeader } from './unit.js';

export const NO_REFERENCE = -1;

/**
 * The attributes of one DIE that symbolication needs, decoded into a reused
 * object (a large file has millions of DIEs; allocating one per DIE would
 * dominate the build). A form of 0 means the attribute is absent; values are
 * raw as returned by readFormValue and are decoded by DwarfData on demand.
 */
export class Die {
  offset = 0;
  tag = 0;
  hasChildren = false;
  nameForm = 0;
  nameValue = 0;
  lowPcForm = 0;
  lowPcValue = 0;
  highPcForm = 0;
  highPcValue = 0;
  rangesForm = 0;
  rangesValue = 0;
  abstractOrigin = NO_REFERENCE;
  specification = NO_REFERENCE;
  /** Line-table file index of the call site; -1 when absent (0 is a valid index in DWARF 5). */
  callFile = -1;
  callLine = 0;
  callColumn = 0;
  stmtList = -1;
  compDirForm = 0;
  compDirValue = 0;
  strOffsetsBase = -1;
  addrBase = -1;
  rnglistsBase = -1;

  private clear(): void {
    this.nameForm = this.lowPcForm = this.highPcForm = this.rangesForm = this.compDirForm = 0;
    this.abstractOrigin = this.specification = NO_REFERENCE;
    this.callFile = this.stmtList = this.strOffsetsBase = this.addrBase = this.rnglistsBase = -1;
    this.callLine = this.callColumn = 0;
  }

  /** Reads the DIE at the reader's position; false for a null entry (end of a sibling list). */
  read(r: ByteReader, unit: UnitHeader): boolean {
    this.offset = r.pos;
    const code = r.uleb();
    if (code === 0) return false;
    const abbrev = unit.abbrevs.get(code);
    if (!abbrev) throw corrupt(`debug_info: DIE at ${this.offset} uses undeclared abbreviation ${code}`);
    this.clear();
    this.tag = abbrev.tag;
    this.hasChildren = abbrev.hasChildren;
    for (const spec of abbrev.attributes) {
      let form = spec.form;
      // The indirect form names the real form inline; each hop consumes a byte, so this ends.
      while (form === DW_FORM.indirect) form = r.uleb();
      const value = readFormValue(r, form, unit, spec.implicitConst);
      this.assign(spec.attr, form, value);
    }
    return true;
  }

  private assign(attr: number, form: number, value: number): void {
    switch (attr) {
      case DW_AT.name:
        this.nameForm = form;
        this.nameValue = value;
        break;
      case DW_AT.low_pc:
        this.lowPcForm = form;
        this.lowPcValue = value;
        break;
      case DW_AT.high_pc:
        this.highPcForm = form;
        this.highPcValue = value;
        break;
      case DW_AT.ranges:
        this.rangesForm = form;
        this.rangesValue = value;
        break;
      case DW_AT.abstract_origin:
        if (isReferenceForm(form)) this.abstractOrigin = value;
        break;
      case DW_AT.specification:
        if (isReferenceForm(form)) this.specification = value;
        break;
      case DW_AT.call_file:
        this.callFile = value;
        break;
      case DW_AT.call_line:
        this.callLine = value;
        break;
      case DW_AT.call_column:
        this.callColumn = value;
        break;
      case DW_AT.stmt_list:
        this.stmtList = value;
        break;
      case DW_AT.comp_dir:
        this.compDirForm = form;
        this.compDirValue = value;
        break;
      case DW_AT.str_offsets_base:
        this.strOffsetsBase = value;
        break;
      case DW_AT.addr_base:
        this.addrBase = value;
        break;
      case DW_AT.rnglists_base:
        this.rnglistsBase = value;
        break;
    }
  }
}

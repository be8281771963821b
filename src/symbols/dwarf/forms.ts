import type { ByteReader } from '../bytes/reader.js';
import { unsupported } from '../errors.js';
import { DW_FORM } from './constants.js';
import type { UnitHeader } from './unit.js';

/** Marks a reference the reader cannot follow (type signatures, supplementary files). */
export const UNRESOLVABLE_REFERENCE = -1;

/**
 * Reads one attribute value in `form` and returns it as a number:
 *  - constants, flags and addresses as themselves;
 *  - string forms as what locates the string: DW_FORM_string as the offset of
 *    its first byte in .debug_info, strp/line_strp as section offsets, strx as
 *    an index (see DwarfData.string);
 *  - addrx as an index (see DwarfData.address);
 *  - DIE references as absolute .debug_info offsets;
 *  - blocks, expressions and data16 are skipped and read as 0.
 */
export function readFormValue(r: ByteReader, form: number, unit: UnitHeader, implicitConst: number): number {
  switch (form) {
    case DW_FORM.addr:
      return r.uint(unit.addressSize);
    case DW_FORM.data1:
    case DW_FORM.flag:
    case DW_FORM.strx1:
    case DW_FORM.addrx1:
      return r.u8();
    case DW_FORM.data2:
    case DW_FORM.strx2:
    case DW_FORM.addrx2:
      return r.u16();
    case DW_FORM.strx3:
    case DW_FORM.addrx3:
      return r.uint(3);
    case DW_FORM.data4:
    case DW_FORM.strx4:
    case DW_FORM.addrx4:
      return r.u32();
    case DW_FORM.data8:
      return r.u64();
    case DW_FORM.sdata:
      return r.sleb();
    case DW_FORM.udata:
    case DW_FORM.strx:
    case DW_FORM.addrx:
    case DW_FORM.loclistx:
    case DW_FORM.rnglistx:
    case DW_FORM.GNU_addr_index:
    case DW_FORM.GNU_str_index:
      return r.uleb();
    case DW_FORM.implicit_const:
      return implicitConst;
    case DW_FORM.flag_present:
      return 1;
    case DW_FORM.string:
      return r.skipCstring();
    case DW_FORM.strp:
    case DW_FORM.line_strp:
    case DW_FORM.sec_offset:
    case DW_FORM.strp_sup:
    case DW_FORM.GNU_strp_alt:
      return r.uint(unit.offsetSize);
    case DW_FORM.ref1:
      return unit.offset + r.u8();
    case DW_FORM.ref2:
      return unit.offset + r.u16();
    case DW_FORM.ref4:
      return unit.offset + r.u32();
    case DW_FORM.ref8:
      return unit.offset + r.u64();
    case DW_FORM.ref_udata:
      return unit.offset + r.uleb();
    case DW_FORM.ref_addr:
      // DWARF 2 sized this like an address; later versions like a section offset.
      return r.uint(unit.version <= 2 ? unit.addressSize : unit.offsetSize);
    case DW_FORM.ref_sig8:
      r.skip(8);
      return UNRESOLVABLE_REFERENCE;
    case DW_FORM.ref_sup4:
      r.skip(4);
      return UNRESOLVABLE_REFERENCE;
    case DW_FORM.ref_sup8:
      r.skip(8);
      return UNRESOLVABLE_REFERENCE;
    case DW_FORM.GNU_ref_alt:
      r.skip(unit.offsetSize);
      return UNRESOLVABLE_REFERENCE;
    case DW_FORM.block1:
      r.skip(r.u8());
      return 0;
    case DW_FORM.block2:
      r.skip(r.u16());
      return 0;
    case DW_FORM.block4:
      r.skip(r.u32());
      return 0;
    case DW_FORM.block:
    case DW_FORM.exprloc:
      r.skip(r.uleb());
      return 0;
    case DW_FORM.data16:
      r.skip(16);
      return 0;
    default:
      throw unsupported(`debug_info: unknown attribute form 0x${form.toString(16)} at offset ${r.pos}`);
  }
}

export function isReferenceForm(form: number): boolean {
  return (
    (form >= DW_FORM.ref_addr && form <= DW_FORM.ref_udata) ||
    form === DW_FORM.ref_sig8 ||
    form === DW_FORM.ref_sup4 ||
    form === DW_FORM.ref_sup8 ||
    form === DW_FORM.GNU_ref_alt
  );
}

/** DW_AT_high_pc is an address in these forms and an offset from low_pc in the constant forms. */
export function isAddressForm(form: number): boolean {
  return (
    form === DW_FORM.addr ||
    form === DW_FORM.addrx ||
    (form >= DW_FORM.addrx1 && form <= DW_FORM.addrx4) ||
    form === DW_FORM.GNU_addr_index
  );
}

import { ByteReader } from '../bytes/reader.js';
import { corrupt } from '../errors.js';
import { DW_FORM, DW_RLE } from './constants.js';
import type { DwarfData } from './data.js';
import { isAddressForm } from './forms.js';
import type { Die } from './die.js';
import type { DwarfUnit } from './unit.js';

/**
 * Appends the address ranges of a DIE to `out` as low, high pairs: from
 * low_pc/high_pc when both are present, otherwise from DW_AT_ranges (the
 * order LLVM uses). Empty, inverted and unrepresentable ranges are dropped.
 */
export function appendDieRanges(data: DwarfData, unit: DwarfUnit, die: Die, out: number[]): void {
  if (die.lowPcForm !== 0 && die.highPcForm !== 0) {
    const low = data.address(unit, die.lowPcForm, die.lowPcValue);
    const high = isAddressForm(die.highPcForm)
      ? data.address(unit, die.highPcForm, die.highPcValue)
      : low + die.highPcValue;
    pushRange(unit, low, high, out);
  } else if (die.rangesForm !== 0) {
    if (unit.version >= 5) appendRangeListV5(data, unit, die.rangesForm, die.rangesValue, out);
    else appendRangeListV2(data, unit, die.rangesValue, out);
  }
}

function pushRange(unit: DwarfUnit, low: number, high: number, out: number[]): void {
  // lld marks code it discarded with an all-ones address in 32-bit DWARF (64-bit ones exceed 2^53 already).
  const tombstone = unit.addressSize === 4 && low >= 0xfffffffe;
  if (Number.isSafeInteger(low) && Number.isSafeInteger(high) && low < high && !tombstone) out.push(low, high);
}

/** DWARF 2-4 .debug_ranges: address pairs relative to the base, (0, 0) ends the list. */
function appendRangeListV2(data: DwarfData, unit: DwarfUnit, offset: number, out: number[]): void {
  const r = new ByteReader(data.sections.ranges, 'debug_ranges');
  r.seek(offset);
  const size = unit.addressSize;
  const maxAddress = size === 4 ? 0xffffffff : Number.POSITIVE_INFINITY;
  let base = unit.baseAddress;
  for (;;) {
    const begin = r.uint(size);
    const end = r.uint(size);
    if (begin === 0 && end === 0) return;
    if (begin === maxAddress) base = end;
    else pushRange(unit, base + begin, base + end, out);
  }
}

/** DWARF 5 .debug_rnglists: DW_RLE_* entries up to end_of_list. */
function appendRangeListV5(data: DwarfData, unit: DwarfUnit, form: number, value: number, out: number[]): void {
  const r = new ByteReader(data.sections.rnglists, 'debug_rnglists');
  if (form === DW_FORM.rnglistx) {
    // The offsets table at rnglists_base holds offsets relative to that base.
    r.seek(unit.rnglistsBase + value * unit.offsetSize);
    r.seek(unit.rnglistsBase + r.uint(unit.offsetSize));
  } else {
    r.seek(value);
  }
  const size = unit.addressSize;
  let base = unit.baseAddress;
  for (;;) {
    const kind = r.u8();
    switch (kind) {
      case DW_RLE.end_of_list:
        return;
      case DW_RLE.base_addressx:
        base = data.addressAtIndex(unit, r.uleb());
        break;
      case DW_RLE.startx_endx: {
        const low = data.addressAtIndex(unit, r.uleb());
        pushRange(unit, low, data.addressAtIndex(unit, r.uleb()), out);
        break;
      }
      case DW_RLE.startx_length: {
        const low = data.addressAtIndex(unit, r.uleb());
        pushRange(unit, low, low + r.uleb(), out);
        break;
      }
      case DW_RLE.offset_pair: {
        const low = base + r.uleb();
        pushRange(unit, low, base + r.uleb(), out);
        break;
      }
      case DW_RLE.base_address:
        base = r.uint(size);
        break;
      case DW_RLE.start_end: {
        const low = r.uint(size);
        pushRange(unit, low, r.uint(size), out);
        break;
      }
      case DW_RLE.start_length: {
        const low = r.uint(size);
        pushRange(unit, low, low + r.uleb(), out);
        break;
      }
      default:
        throw corrupt(`debug_rnglists: unknown entry kind ${kind} at ${r.pos - 1}`);
    }
  }
}

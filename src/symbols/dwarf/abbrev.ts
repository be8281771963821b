import { ByteReader } from '../bytes/reader.js';
import { corrupt } from '../errors.js';
import { DW_FORM } from './constants.js';

export interface AbbrevAttribute {
  readonly attr: number;
  readonly form: number;
  /** Only meaningful for DW_FORM_implicit_const, whose value lives here instead of in the DIE. */
  readonly implicitConst: number;
}

export interface Abbrev {
  readonly tag: number;
  readonly hasChildren: boolean;
  readonly attributes: readonly AbbrevAttribute[];
}

export type AbbrevTable = ReadonlyMap<number, Abbrev>;

/**
 * Real DIEs carry a few dozen attributes at most. Attributes in forms that
 * take no bytes (flag_present, implicit_const) cost work per DIE without
 * consuming input, so their number per declaration must be bounded.
 */
const MAX_ATTRIBUTES_PER_ABBREV = 256;

/** The abbreviation declarations starting at `offset` in .debug_abbrev, up to the 0 code. */
export function readAbbrevTable(section: Uint8Array, offset: number): AbbrevTable {
  const r = new ByteReader(section, 'debug_abbrev');
  r.seek(offset);
  const table = new Map<number, Abbrev>();
  for (;;) {
    const code = r.uleb();
    if (code === 0) return table;
    const tag = r.uleb();
    const hasChildren = r.u8() !== 0;
    const attributes: AbbrevAttribute[] = [];
    for (;;) {
      const attr = r.uleb();
      const form = r.uleb();
      if (attr === 0 && form === 0) break;
      const implicitConst = form === DW_FORM.implicit_const ? r.sleb() : 0;
      attributes.push({ attr, form, implicitConst });
      if (attributes.length > MAX_ATTRIBUTES_PER_ABBREV) {
        throw corrupt(
          `debug_abbrev: code ${code} at ${offset} declares more than ${MAX_ATTRIBUTES_PER_ABBREV} attributes`,
        );
      }
    }
    if (table.has(code)) throw corrupt(`debug_abbrev: code ${code} declared twice in the table at ${offset}`);
    table.set(code, { tag, hasChildren, attributes });
  }
}

/** Raw bytes of the DWARF sections the reader uses; an absent section is an empty array. */
export interface DwarfSections {
  readonly info: Uint8Array;
  readonly abbrev: Uint8Array;
  readonly line: Uint8Array;
  readonly str: Uint8Array;
  readonly lineStr: Uint8Array;
  readonly strOffsets: Uint8Array;
  readonly addr: Uint8Array;
  readonly ranges: Uint8Array;
  readonly rnglists: Uint8Array;
}

/** Section names without the container's prefix ('.' in ELF, '__' in Mach-O). */
export const DWARF_SECTION_NAMES: Readonly<Record<keyof DwarfSections, string>> = {
  info: 'debug_info',
  abbrev: 'debug_abbrev',
  line: 'debug_line',
  str: 'debug_str',
  lineStr: 'debug_line_str',
  strOffsets: 'debug_str_offsets',
  addr: 'debug_addr',
  ranges: 'debug_ranges',
  rnglists: 'debug_rnglists',
};

/** Builds the section set from a container-specific lookup by DWARF name. */
export function collectDwarfSections(bytesOf: (dwarfName: string) => Uint8Array | undefined): DwarfSections {
  const pick = (key: keyof DwarfSections): Uint8Array => bytesOf(DWARF_SECTION_NAMES[key]) ?? new Uint8Array(0);
  return {
    info: pick('info'),
    abbrev: pick('abbrev'),
    line: pick('line'),
    str: pick('str'),
    lineStr: pick('lineStr'),
    strOffsets: pick('strOffsets'),
    addr: pick('addr'),
    ranges: pick('ranges'),
    rnglists: pick('rnglists'),
  };
}

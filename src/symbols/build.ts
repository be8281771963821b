import { readRange, type ByteSource } from './bytes/source.js';
import { DART_INSTRUCTIONS_SYMBOLS } from './dart/snapshot-symbols.js';
import { collectDwarfSections } from './dwarf/sections.js';
import {
  elfArch,
  elfBuildId,
  elfSymbolValues,
  findSection,
  hasElfMagic,
  readElf,
  sectionBytes,
  type ElfFile,
} from './elf/reader.js';
import { SymbolFileError, unsupported } from './errors.js';
import { normalizeArch, normalizeDebugId } from './ids.js';
import { TEXT_SEGMENT_ANCHOR } from './ios/anchor.js';
import {
  findMachoSection,
  hasMachoMagic,
  machoSectionBytes,
  readMacho,
  textVmaddr,
  type MachoFile,
  type MachoSlice,
} from './macho/reader.js';
import { tableFromDwarf } from './table/build.js';
import type { LookupTable } from './table/lookup-table.js';

export interface BuildOptions {
  /** Names the file in error messages. */
  readonly fileName?: string;
  /** Mach-O: take the slice of this architecture (Dart names; x86_64 and aarch64 are accepted). */
  readonly arch?: string;
  /** Mach-O: take the slice with this LC_UUID (case and dashes ignored). */
  readonly uuid?: string;
}

/**
 * Reads the DWARF of a Dart `.symbols` ELF or of one Mach-O slice into a
 * LookupTable. A thin Mach-O needs no options; a fat one needs `arch` or
 * `uuid`. Throws SymbolFileError when the file cannot be read or has no DWARF.
 */
export function buildLookupTable(src: ByteSource, options: BuildOptions = {}): LookupTable {
  const label = options.fileName ?? 'symbol file';
  const head = readRange(src, 0, Math.min(src.size, 8), label);
  if (hasElfMagic(head)) return buildFromElf(readElf(src, label));
  if (hasMachoMagic(head)) return buildFromMachoSlice(selectSlice(readMacho(src, label), options, label));
  throw unsupported(`${label}: not an ELF or Mach-O file`);
}

function buildFromElf(elf: ElfFile): LookupTable {
  const sections = collectDwarfSections((name) => {
    const section = findSection(elf, `.${name}`);
    return section && sectionBytes(elf, section);
  });
  if (sections.info.length === 0)
    throw unsupported(`${elf.label}: no DWARF debug info (.debug_info is missing or empty)`);
  const anchors = elfSymbolValues(elf, new Set(DART_INSTRUCTIONS_SYMBOLS));
  const meta = { format: 'elf', arch: elfArch(elf.machine), debugId: elfBuildId(elf) } as const;
  return naming(elf.label, () => tableFromDwarf(sections, meta, anchors));
}

function buildFromMachoSlice(slice: MachoSlice): LookupTable {
  const sections = collectDwarfSections((name) => {
    // Mach-O section names hold 16 bytes: __debug_str_offsets is stored as __debug_str_offs.
    const section = findMachoSection(slice, '__DWARF', `__${name}`.slice(0, 16));
    return section && machoSectionBytes(slice, section);
  });
  if (sections.info.length === 0)
    throw unsupported(`${slice.label}: no DWARF debug info (__DWARF,__debug_info is missing or empty)`);
  const text = textVmaddr(slice);
  const anchors = new Map(text === undefined ? [] : [[TEXT_SEGMENT_ANCHOR, text]]);
  const meta = { format: 'macho', arch: slice.arch, debugId: slice.uuid } as const;
  return naming(slice.label, () => tableFromDwarf(sections, meta, anchors));
}

/** The DWARF reader names sections, not files: put the file in front of its messages. */
function naming<T>(label: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SymbolFileError) throw new SymbolFileError(error.code, `${label}: ${error.message}`);
    throw error;
  }
}

function selectSlice(file: MachoFile, options: BuildOptions, label: string): MachoSlice {
  const arch =
    options.arch === undefined ? undefined : (normalizeArch(options.arch) ?? options.arch.trim().toLowerCase());
  const uuid = options.uuid === undefined ? undefined : (normalizeDebugId(options.uuid) ?? options.uuid);
  if (arch === undefined && uuid === undefined) {
    if (file.slices.length === 1) return file.slices[0]!;
    throw unsupported(`${label}: fat file with ${file.slices.length} slices; choose one by arch or uuid`);
  }
  const slice = file.slices.find(
    (s) => (arch === undefined || s.arch === arch) && (uuid === undefined || s.uuid === uuid),
  );
  if (!slice) {
    const available = file.slices.map((s) => `${s.arch} ${s.uuid ?? '(no uuid)'}`).join(', ');
    throw unsupported(`${label}: no slice matches ${[arch, uuid].filter(Boolean).join(' ')} (has ${available})`);
  }
  return slice;
}

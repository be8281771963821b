/**
 * Minimal ELF reader for Dart split-debug-info (`.symbols`) files: section
 * headers, the GNU build-id note and the few `_kDart*` symbols. Hand-written
 * because Node has no maintained ELF/DWARF library; only little-endian
 * ELF32/ELF64 is accepted (every Dart target is little endian).
 */
import { ByteReader, cstringAt, cstringEquals } from '../bytes/reader.js';
import { readRange, type ByteSource } from '../bytes/source.js';
import { corrupt, truncated, unsupported } from '../errors.js';
import { toHex, type DartArch } from '../ids.js';

export const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46] as const;

const ELFCLASS32 = 1;
const ELFCLASS64 = 2;
const ELFDATA2LSB = 1;
const SHN_XINDEX = 0xffff;
const SHT_SYMTAB = 2;
const SHT_NOTE = 7;
const SHT_NOBITS = 8;
const SHT_DYNSYM = 11;
const SHF_COMPRESSED = 0x800;
const NT_GNU_BUILD_ID = 3;
/** Extended numbering allows millions; symbol files have a few dozen. The cap bounds name decoding. */
const MAX_SECTIONS = 0x10000;
/** Section names are short; a bound keeps a corrupt name table from being scanned once per section. */
const MAX_SECTION_NAME_BYTES = 4096;

const EM_386 = 3;
const EM_ARM = 40;
const EM_X86_64 = 62;
const EM_AARCH64 = 183;

export interface ElfSection {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly addrAlign: number;
  readonly entSize: number;
}

export interface ElfFile {
  readonly src: ByteSource;
  readonly label: string;
  readonly is64: boolean;
  readonly machine: number;
  readonly sections: readonly ElfSection[];
}

export function hasElfMagic(head: Uint8Array): boolean {
  return ELF_MAGIC.every((byte, i) => head[i] === byte);
}

export function elfArch(machine: number): DartArch | null {
  switch (machine) {
    case EM_AARCH64:
      return 'arm64';
    case EM_ARM:
      return 'arm';
    case EM_X86_64:
      return 'x64';
    case EM_386:
      return 'ia32';
    default:
      return null;
  }
}

export function readElf(src: ByteSource, label: string): ElfFile {
  if (src.size < 16) throw truncated(`${label}: ELF identification is cut short`);
  const ident = readRange(src, 0, 16, `${label}: ELF identification`);
  const elfClass = ident[4];
  if (elfClass !== ELFCLASS32 && elfClass !== ELFCLASS64) throw corrupt(`${label}: unknown ELF class ${elfClass}`);
  if (ident[5] !== ELFDATA2LSB) throw unsupported(`${label}: big-endian ELF is not supported`);
  const is64 = elfClass === ELFCLASS64;

  const header = new ByteReader(readRange(src, 0, is64 ? 64 : 52, `${label}: ELF header`), `${label}: ELF header`);
  header.seek(18);
  const machine = header.u16();
  header.seek(is64 ? 40 : 32);
  const shoff = is64 ? header.u64() : header.u32();
  header.seek(is64 ? 58 : 46);
  const shentsize = header.u16();
  let shnum = header.u16();
  let shstrndx = header.u16();

  const minEntSize = is64 ? 64 : 40;
  if (shoff === 0) throw corrupt(`${label}: ELF file has no section header table`);
  if (shentsize < minEntSize) throw corrupt(`${label}: section header size ${shentsize} is too small`);

  const readHeader = (index: number): RawSectionHeader => {
    const bytes = readRange(src, shoff + index * shentsize, minEntSize, `${label}: section header ${index}`);
    return parseSectionHeader(new ByteReader(bytes, `${label}: section header ${index}`), is64);
  };

  // Extended numbering: with 0xff00+ sections the real count and string-table index live in section 0.
  if (shnum === 0 || shstrndx === SHN_XINDEX) {
    const first = readHeader(0);
    if (shnum === 0) shnum = first.size;
    if (shstrndx === SHN_XINDEX) shstrndx = first.link;
  }
  if (shnum > MAX_SECTIONS) throw corrupt(`${label}: ${shnum} sections (at most ${MAX_SECTIONS} are read)`);
  const table = readRange(src, shoff, shnum * shentsize, `${label}: section header table`);

  const raw: RawSectionHeader[] = [];
  for (let index = 0; index < shnum; index++) {
    const reader = new ByteReader(
      table.subarray(index * shentsize, index * shentsize + minEntSize),
      `${label}: section header ${index}`,
    );
    raw.push(parseSectionHeader(reader, is64));
  }
  const names = raw[shstrndx];
  if (!names || names.type === SHT_NOBITS) throw corrupt(`${label}: section-name table index ${shstrndx} is invalid`);
  const nameBytes = readRange(src, names.offset, names.size, `${label}: section-name table`);
  const sections = raw.map(({ nameOffset, ...section }) => ({
    ...section,
    name: cstringAt(nameBytes, nameOffset, `${label}: section names`, MAX_SECTION_NAME_BYTES),
  }));
  return { src, label, is64, machine, sections };
}

interface RawSectionHeader extends Omit<ElfSection, 'name'> {
  readonly nameOffset: number;
}

function parseSectionHeader(r: ByteReader, is64: boolean): RawSectionHeader {
  const nameOffset = r.u32();
  const type = r.u32();
  const flags = is64 ? r.u64() : r.u32();
  r.skip(is64 ? 8 : 4); // sh_addr
  const offset = is64 ? r.u64() : r.u32();
  const size = is64 ? r.u64() : r.u32();
  const link = r.u32();
  r.u32(); // sh_info
  const addrAlign = is64 ? r.u64() : r.u32();
  const entSize = is64 ? r.u64() : r.u32();
  return { nameOffset, type, flags, offset, size, link, addrAlign, entSize };
}

export function findSection(elf: ElfFile, name: string): ElfSection | undefined {
  return elf.sections.find((section) => section.name === name);
}

/** File bytes of a section; NOBITS sections (code in a debug file) have none. */
export function sectionBytes(elf: ElfFile, section: ElfSection): Uint8Array {
  if (section.type === SHT_NOBITS) return new Uint8Array(0);
  if (section.flags & SHF_COMPRESSED)
    throw unsupported(`${elf.label}: compressed section ${section.name} is not supported`);
  return readRange(elf.src, section.offset, section.size, `${elf.label}: section ${section.name}`);
}

/** The GNU build id as lowercase hex of the note descriptor, or null when the file has none. */
export function elfBuildId(elf: ElfFile): string | null {
  for (const section of elf.sections) {
    if (section.type !== SHT_NOTE) continue;
    const notes = new ByteReader(sectionBytes(elf, section), `${elf.label}: note section ${section.name}`);
    const align = section.addrAlign === 8 ? 8 : 4;
    while (notes.remaining >= 12) {
      const nameSize = notes.u32();
      const descSize = notes.u32();
      const type = notes.u32();
      const name = notes.subarray(alignUp(nameSize, align));
      const desc = notes.subarray(alignUp(descSize, align)).subarray(0, descSize);
      const isGnu = nameSize === 4 && name[0] === 0x47 && name[1] === 0x4e && name[2] === 0x55 && name[3] === 0;
      if (isGnu && type === NT_GNU_BUILD_ID) return descSize > 0 ? toHex(desc) : null;
    }
  }
  return null;
}

/**
 * Values of the named symbols, taken from .dynsym first (small, and where the
 * Dart VM puts its snapshot symbols) and then .symtab.
 */
export function elfSymbolValues(elf: ElfFile, wanted: ReadonlySet<string>): Map<string, number> {
  const found = new Map<string, number>();
  const tables = [
    ...elf.sections.filter((s) => s.type === SHT_DYNSYM),
    ...elf.sections.filter((s) => s.type === SHT_SYMTAB),
  ];
  for (const table of tables) {
    if (found.size === wanted.size) break;
    const entSize = elf.is64 ? 24 : 16;
    if (table.entSize !== 0 && table.entSize !== entSize)
      throw corrupt(`${elf.label}: ${table.name} entry size ${table.entSize}`);
    const strings = elf.sections[table.link];
    if (!strings) throw corrupt(`${elf.label}: ${table.name} links to missing string table ${table.link}`);
    const stringBytes = sectionBytes(elf, strings);
    const symbols = new ByteReader(sectionBytes(elf, table), `${elf.label}: ${table.name}`);
    const count = Math.floor(symbols.length / entSize);
    for (let index = 0; index < count && found.size < wanted.size; index++) {
      symbols.seek(index * entSize);
      const nameOffset = symbols.u32();
      if (elf.is64) symbols.skip(4); // st_info, st_other, st_shndx come before st_value in ELF64
      const value = elf.is64 ? symbols.u64() : symbols.u32();
      for (const name of wanted) {
        if (!found.has(name) && cstringEquals(stringBytes, nameOffset, name)) found.set(name, value);
      }
    }
  }
  return found;
}

function alignUp(value: number, align: number): number {
  return Math.ceil(value / align) * align;
}

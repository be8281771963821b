/**
 * Minimal Mach-O reader for dSYM DWARF files and app binaries: fat headers
 * (32- and 64-bit), and per slice the CPU type, LC_UUID, segments and
 * sections. Hand-written (Node has no maintained Mach-O/DWARF library); only
 * little-endian slices are read, which covers every Apple CPU since PowerPC.
 */
import { ByteReader, fixedString } from '../bytes/reader.js';
import { readRange, sliceSource, type ByteSource } from '../bytes/source.js';
import { corrupt, truncated, unsupported } from '../errors.js';
import { toHex } from '../ids.js';

const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const MH_CIGAM = 0xcefaedfe;
const MH_CIGAM_64 = 0xcffaedfe;
const LC_SEGMENT = 0x1;
const LC_SEGMENT_64 = 0x19;
const LC_UUID = 0x1b;

/**
 * 0xcafebabe also starts Java class files, whose next word (the class-file
 * version, 45 and up) would read as the slice count. No real fat file has
 * that many slices.
 */
const MAX_FAT_SLICES = 32;

export interface MachoSection {
  readonly segmentName: string;
  readonly sectionName: string;
  readonly size: number;
  /** File offset relative to the start of the slice. */
  readonly offset: number;
}

export interface MachoSegment {
  readonly name: string;
  readonly vmaddr: number;
}

export interface MachoSlice {
  readonly src: ByteSource;
  readonly label: string;
  readonly cpuType: number;
  readonly arch: string;
  readonly uuid: string | null;
  /** Where the slice sits in the whole file (0 and the file size for a thin file). */
  readonly offset: number;
  readonly size: number;
  readonly segments: readonly MachoSegment[];
  readonly sections: readonly MachoSection[];
}

export interface MachoFile {
  readonly fat: boolean;
  readonly slices: readonly MachoSlice[];
}

/** Recognizes thin Mach-O of either byte order and plausible fat headers. */
export function hasMachoMagic(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const bigEndian = view.getUint32(0, false);
  if (bigEndian === FAT_MAGIC || bigEndian === FAT_MAGIC_64) {
    const count = view.getUint32(4, false);
    return count > 0 && count <= MAX_FAT_SLICES;
  }
  const littleEndian = view.getUint32(0, true);
  return [MH_MAGIC, MH_MAGIC_64, MH_CIGAM, MH_CIGAM_64].includes(littleEndian);
}

/** Dart-style names for the CPU types Apple ships (the iOS client prints the same names). */
export function machoArch(cpuType: number): string {
  switch (cpuType) {
    case 0x0100000c:
      return 'arm64';
    case 0x01000007:
      return 'x64';
    case 12:
      return 'arm';
    case 7:
      return 'ia32';
    case 0x0200000c:
      return 'arm64_32';
    default:
      return `cpu-0x${cpuType.toString(16)}`;
  }
}

export function readMacho(src: ByteSource, label: string): MachoFile {
  const head = new ByteReader(readRange(src, 0, 8, `${label}: Mach-O magic`), `${label}: Mach-O magic`, false);
  const magic = head.u32();
  if (magic !== FAT_MAGIC && magic !== FAT_MAGIC_64) {
    return { fat: false, slices: [readThinSlice(src, label, 0)] };
  }
  const count = head.u32();
  if (count === 0 || count > MAX_FAT_SLICES) throw corrupt(`${label}: fat header lists ${count} slices`);
  const entrySize = magic === FAT_MAGIC_64 ? 32 : 20;
  const table = new ByteReader(
    readRange(src, 8, count * entrySize, `${label}: fat slice table`),
    `${label}: fat slice table`,
    false,
  );
  const slices: MachoSlice[] = [];
  for (let index = 0; index < count; index++) {
    table.seek(index * entrySize + 8); // skip cputype and cpusubtype: the slice's own header repeats them
    const offset = magic === FAT_MAGIC_64 ? table.u64() : table.u32();
    const size = magic === FAT_MAGIC_64 ? table.u64() : table.u32();
    const sliceLabel = `${label} (slice ${index})`;
    slices.push(readThinSlice(sliceSource(src, offset, size, sliceLabel), sliceLabel, offset));
  }
  return { fat: true, slices };
}

function readThinSlice(src: ByteSource, label: string, offsetInFile: number): MachoSlice {
  const magicReader = new ByteReader(readRange(src, 0, 4, `${label}: Mach-O header`), `${label}: Mach-O header`);
  const magic = magicReader.u32();
  if (magic === MH_CIGAM || magic === MH_CIGAM_64) throw unsupported(`${label}: big-endian Mach-O is not supported`);
  if (magic !== MH_MAGIC && magic !== MH_MAGIC_64) throw corrupt(`${label}: bad Mach-O magic 0x${magic.toString(16)}`);
  const is64 = magic === MH_MAGIC_64;
  const headerSize = is64 ? 32 : 28;
  const header = new ByteReader(readRange(src, 0, headerSize, `${label}: Mach-O header`), `${label}: Mach-O header`);
  header.seek(4);
  const cpuType = header.u32();
  header.skip(8); // cpusubtype, filetype
  const commandCount = header.u32();
  const commandBytes = header.u32();
  const commands = new ByteReader(
    readRange(src, headerSize, commandBytes, `${label}: load commands`),
    `${label}: load commands`,
  );

  let uuid: string | null = null;
  const segments: MachoSegment[] = [];
  const sections: MachoSection[] = [];
  for (let index = 0; index < commandCount; index++) {
    const start = commands.pos;
    const cmd = commands.u32();
    const size = commands.u32();
    if (size < 8 || size > commands.length - start) throw corrupt(`${label}: load command ${index} has size ${size}`);
    const body = new ByteReader(commands.bytes.subarray(start, start + size), `${label}: load command ${index}`);
    body.seek(8);
    if (cmd === LC_UUID) {
      uuid = toHex(body.subarray(16));
    } else if (cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) {
      readSegment(body, cmd === LC_SEGMENT_64, segments, sections);
    }
    commands.seek(start + size);
  }
  return {
    src,
    label,
    cpuType,
    arch: machoArch(cpuType),
    uuid,
    offset: offsetInFile,
    size: src.size,
    segments,
    sections,
  };
}

function readSegment(body: ByteReader, is64: boolean, segments: MachoSegment[], sections: MachoSection[]): void {
  const name = fixedString(body.subarray(16));
  const vmaddr = is64 ? body.u64() : body.u32();
  body.skip(is64 ? 24 : 12); // vmsize, fileoff, filesize
  body.skip(8); // maxprot, initprot
  const sectionCount = body.u32();
  body.u32(); // flags
  segments.push({ name, vmaddr });
  const sectionSize = is64 ? 80 : 68;
  if (sectionCount > body.remaining / sectionSize) {
    throw truncated(`${body.label}: segment ${name} claims ${sectionCount} sections`);
  }
  for (let index = 0; index < sectionCount; index++) {
    const section = new ByteReader(body.subarray(sectionSize), body.label);
    const sectionName = fixedString(section.subarray(16));
    const segmentName = fixedString(section.subarray(16));
    section.skip(is64 ? 8 : 4); // addr
    const size = is64 ? section.u64() : section.u32();
    const offset = section.u32();
    sections.push({ segmentName, sectionName, size, offset });
  }
}

export function findMachoSection(
  slice: MachoSlice,
  segmentName: string,
  sectionName: string,
): MachoSection | undefined {
  return slice.sections.find((s) => s.segmentName === segmentName && s.sectionName === sectionName);
}

export function machoSectionBytes(slice: MachoSlice, section: MachoSection): Uint8Array {
  return readRange(
    slice.src,
    section.offset,
    section.size,
    `${slice.label}: section ${section.segmentName},${section.sectionName}`,
  );
}

export function textVmaddr(slice: MachoSlice): number | undefined {
  return slice.segments.find((segment) => segment.name === '__TEXT')?.vmaddr;
}

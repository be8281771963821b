import { readRange, type ByteSource } from './bytes/source.js';
import { DART_INSTRUCTIONS_SYMBOLS } from './dart/snapshot-symbols.js';
import { elfArch, elfBuildId, elfSymbolValues, findSection, hasElfMagic, readElf, type ElfFile } from './elf/reader.js';
import { corrupt } from './errors.js';
import type { DartArch } from './ids.js';
import { findMachoSection, hasMachoMagic, readMacho, type MachoFile } from './macho/reader.js';
import { detectProguardMapping } from './proguard.js';

export interface MachoSliceIdentity {
  /** Dart-style name: arm64, x64, arm, ia32 (others as arm64_32 or cpu-0x…). */
  readonly arch: string;
  readonly cpuType: number;
  /** LC_UUID, 32 lowercase hex digits. */
  readonly uuid: string;
  /** Slice position in the file (0 and the file size for a thin file). */
  readonly offset: number;
  readonly size: number;
  /** Whether the slice carries DWARF (__DWARF,__debug_info): true for dSYM files, false for shipped binaries. */
  readonly hasDwarf: boolean;
}

export type SymbolFileIdentity =
  | {
      readonly kind: 'dart';
      /** GNU build-id note as lowercase hex; null for Apple-target builds, whose id is the App.framework UUID. */
      readonly buildId: string | null;
      /** From e_machine. */
      readonly arch: DartArch | null;
      /** Whether the file has .debug_info (a `.symbols` file does; the stripped libapp.so does not). */
      readonly hasDwarf: boolean;
    }
  | { readonly kind: 'macho'; readonly fat: boolean; readonly slices: readonly MachoSliceIdentity[] }
  | { readonly kind: 'proguard'; readonly mapId?: string; readonly mapHash?: string }
  | { readonly kind: 'unknown' };

/** Enough of the file to recognize a text mapping file by its first lines. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Identifies an uploaded symbol file by format, reading headers only. Throws
 * SymbolFileError when the file looks like ELF or Mach-O but cannot be read
 * (the upload route answers 422); an ELF without Dart snapshot symbols and
 * anything else unrecognized is `unknown` (the route skips it).
 */
export function identifySymbolFile(src: ByteSource, fileName: string): SymbolFileIdentity {
  const head = readRange(src, 0, Math.min(src.size, SNIFF_BYTES), fileName);
  if (hasElfMagic(head)) return identifyElf(readElf(src, fileName));
  if (hasMachoMagic(head)) return identifyMacho(readMacho(src, fileName), fileName);
  const mapping = detectProguardMapping(head);
  return mapping ? { kind: 'proguard', ...mapping } : { kind: 'unknown' };
}

function identifyElf(elf: ElfFile): SymbolFileIdentity {
  if (elfSymbolValues(elf, new Set(DART_INSTRUCTIONS_SYMBOLS)).size === 0) return { kind: 'unknown' };
  const debugInfo = findSection(elf, '.debug_info');
  return {
    kind: 'dart',
    buildId: elfBuildId(elf),
    arch: elfArch(elf.machine),
    hasDwarf: debugInfo !== undefined && debugInfo.size > 0,
  };
}

function identifyMacho(file: MachoFile, fileName: string): SymbolFileIdentity {
  const slices = file.slices.map((slice): MachoSliceIdentity => {
    if (slice.uuid === null) throw corrupt(`${fileName}: ${slice.arch} slice has no LC_UUID`);
    const debugInfo = findMachoSection(slice, '__DWARF', '__debug_info');
    return {
      arch: slice.arch,
      cpuType: slice.cpuType,
      uuid: slice.uuid,
      offset: slice.offset,
      size: slice.size,
      hasDwarf: debugInfo !== undefined && debugInfo.size > 0,
    };
  });
  return { kind: 'macho', fat: file.fat, slices };
}

/**
 * The upload rules of the spec's symbol-upload table, as plain decisions over an identified
 * file and the form fields: which build and architecture a file is stored under, or which
 * status refuses it.
 */
import {
  archFromFileName,
  normalizeArch,
  normalizeDebugId,
  type DartArch,
  type SymbolFileIdentity,
} from '../../symbols/index.js';
import { type HttpError, badRequest, unprocessable } from '../../http/errors.js';

export interface UploadFields {
  arch?: string;
  debug_id?: string;
  /** Android: the app version (versionName as the app reports it) the mapping files belong to. */
  version?: string;
}

/**
 * An Android mapping file's id: its `# pg_map_hash` SHA-256 (R8), else a `# pg_map_id` of 8 or
 * more hex digits, else the file's own SHA-256 (ProGuard writes neither). A trace's
 * `r8-map-id-<id>` matches the mapping whose id starts with it.
 */
export function mappingBuildId(identity: Extract<SymbolFileIdentity, { kind: 'proguard' }>, sha256: string): string {
  if (identity.mapHash) return identity.mapHash;
  if (identity.mapId && /^[0-9a-f]{8,128}$/.test(identity.mapId)) return identity.mapId;
  return sha256;
}

/** The `version` field, trimmed; null when absent or blank; 400 past 256 characters. */
export function mappingVersion(fields: UploadFields): string | null {
  const version = fields.version?.trim() ?? '';
  if (version === '') return null;
  if (version.length > 256) throw badRequest('version is over 256 characters');
  return version;
}

/** `arch` field when given (unknown value: 400), else the file name's suffix, else the ELF machine. */
export function dartArch(
  fields: UploadFields,
  fileName: string,
  identity: Extract<SymbolFileIdentity, { kind: 'dart' }>,
): DartArch {
  if (fields.arch !== undefined && fields.arch.trim() !== '') {
    const arch = normalizeArch(fields.arch);
    if (!arch) throw badRequest(`unknown arch "${fields.arch}": use arm64, arm, x64 or ia32`);
    return arch;
  }
  const arch = archFromFileName(fileName) ?? identity.arch;
  if (!arch)
    throw badRequest(`unknown arch for "${fileName}": send the arch field or name the file <name>-<arch>.symbols`);
  return arch;
}

/** The build id from the GNU build-id note; debug_id is required without one and must agree with it. */
export function dartBuildId(
  fields: UploadFields,
  fileName: string,
  identity: Extract<SymbolFileIdentity, { kind: 'dart' }>,
): string {
  const given =
    fields.debug_id !== undefined && fields.debug_id.trim() !== '' ? normalizeDebugId(fields.debug_id) : null;
  if (fields.debug_id !== undefined && fields.debug_id.trim() !== '' && given === null) {
    throw badRequest(`debug_id "${fields.debug_id}" is not a hexadecimal build identifier`);
  }
  if (identity.buildId === null) {
    if (given === null) throw badRequest(`"${fileName}" has no build-id note: send its debug_id`);
    return given;
  }
  if (given !== null && given !== identity.buildId) {
    throw unprocessable(`debug_id ${given} contradicts the build-id note ${identity.buildId} of "${fileName}"`);
  }
  return identity.buildId;
}

/** A symbol file must carry DWARF: a stripped binary cannot resolve anything. */
export function requireDwarf(identity: SymbolFileIdentity, fileName: string): void {
  if (identity.kind === 'dart' && !identity.hasDwarf) throw notReadable(fileName, 'it has no DWARF debug information');
  if (identity.kind === 'macho') {
    const bare = identity.slices.filter((slice) => !slice.hasDwarf);
    if (bare.length > 0)
      throw notReadable(
        fileName,
        `slice ${bare.map((s) => s.arch).join(', ')} has no DWARF (upload the binary inside the .dSYM bundle)`,
      );
  }
}

export function notReadable(fileName: string, reason: string): HttpError {
  return unprocessable(`"${fileName}" is not a readable symbol file: ${reason}`);
}

export const symbolObjectKeys = {
  dart: (projectId: string, buildId: string, arch: string) => `dartsymbols/${projectId}/${buildId}-${arch}.symbols`,
  ios: (projectId: string, uuid: string) => `iossymbols/${projectId}/${uuid}.dsym`,
  proguard: (projectId: string, buildId: string) => `proguard/${projectId}/${buildId}.txt`,
};

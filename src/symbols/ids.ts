/** Architecture names as the Dart VM prints them; the upload route accepts exactly these. */
export type DartArch = 'arm64' | 'arm' | 'x64' | 'ia32';

const ARCH_ALIASES: ReadonlyMap<string, DartArch> = new Map([
  ['arm64', 'arm64'],
  ['aarch64', 'arm64'],
  ['arm', 'arm'],
  ['x64', 'x64'],
  ['x86_64', 'x64'],
  ['amd64', 'x64'],
  ['ia32', 'ia32'],
]);

/** Upload and trace arch tokens to Dart names (x86_64/amd64 → x64, aarch64 → arm64); null when unknown. */
export function normalizeArch(value: string): DartArch | null {
  return ARCH_ALIASES.get(value.trim().toLowerCase()) ?? null;
}

/** The `<arch>` of a `…-<arch>.symbols` file name (traceway-flutter's convention), normalized. */
export function archFromFileName(fileName: string): DartArch | null {
  const baseName = fileName.split(/[\\/]/).pop() ?? '';
  const match = /-([A-Za-z0-9_]+)\.symbols$/.exec(baseName);
  return match ? normalizeArch(match[1]!) : null;
}

/**
 * Build ids and Mach-O UUIDs in their storage form: lowercase hex without
 * dashes. Null unless the result is 8 to 64 whole bytes of hex (GNU build
 * ids are 8 to 32 bytes, UUIDs 16).
 */
export function normalizeDebugId(value: string): string | null {
  const id = value.trim().replaceAll('-', '').toLowerCase();
  return /^[0-9a-f]{16,128}$/.test(id) && id.length % 2 === 0 ? id : null;
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

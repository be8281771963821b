/**
 * Recognizes R8/ProGuard `mapping.txt` files by their shape: optional `#`
 * header comments (R8 writes `# {"id":"com.android.tools.r8.mapping",…}` and
 * `# pg_map_id: …`), then class lines such as `com.foo.Bar -> a.b:`.
 */
const CLASS_MAPPING = /^[^\s#]\S* -> \S+:$/;
const R8_MAPPING_HEADER = /^#\s*\{.*"id"\s*:\s*"com\.android\.tools\.r8\.mapping"/;
const MAP_ID = /^#\s*pg_map_id\s*:\s*(\S+)/;
const MAP_HASH = /^#\s*pg_map_hash\s*:\s*SHA-256\s+([0-9a-fA-F]{64})$/;

const latin1 = new TextDecoder('latin1');

/** `head` is the start of the file; null when it is not a mapping file. */
export function detectProguardMapping(head: Uint8Array): { mapId?: string; mapHash?: string } | null {
  if (head.includes(0)) return null;
  let mapId: string | undefined;
  let mapHash: string | undefined;
  let sawR8Header = false;
  const lines = latin1
    .decode(head)
    .replace(/^\u00ef\u00bb\u00bf/, '')
    .split('\n');
  // The last line may be cut by the end of `head`; it only matters if nothing came before it.
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      mapId ??= MAP_ID.exec(line)?.[1]?.toLowerCase();
      mapHash ??= MAP_HASH.exec(line)?.[1]?.toLowerCase();
      sawR8Header ||= R8_MAPPING_HEADER.test(line);
      continue;
    }
    return CLASS_MAPPING.test(line) ? withIds(mapId, mapHash) : null;
  }
  return sawR8Header ? withIds(mapId, mapHash) : null;
}

function withIds(mapId: string | undefined, mapHash: string | undefined): { mapId?: string; mapHash?: string } {
  return { ...(mapId === undefined ? {} : { mapId }), ...(mapHash === undefined ? {} : { mapHash }) };
}

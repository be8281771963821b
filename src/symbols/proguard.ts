/**
 * Recognizes R8/ProGuard `mapping.txt` files by their shape: optional `#`
 * header comments (R8 writes `# {"id":"com.android.tools.r8.mapping",…}` and
 * `# pg_map_id: …`), then class lines such as `com.foo.Bar -> a.b:`.
 */
const CLASS_MAPPING = /^[^\s#]\S* -> \S+:$/;
const R8_MAPPING_HEADER = /^#\s*\{.*"id"\s*:\s*"com\.android\.tools\.r8\.mapping"/;
const MAP_ID = /^#\s*pg_map_id\s*:\s*(\S+)/;

const latin1 = new TextDecoder('latin1');

/** `head` is the start of the file; null when it is not a mapping file. */
export function detectProguardMapping(head: Uint8Array): { mapId?: string } | null {
  if (head.includes(0)) return null;
  let mapId: string | undefined;
  let sawR8Header = false;
  const lines = latin1.decode(head).replace(/^\u00ef\u00bb\u00bf/, '').split('\n');
  // The last line may be cut by the end of `head`; it only matters if nothing came before it.
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      mapId ??= MAP_ID.exec(line)?.[1];
      sawR8Header ||= R8_MAPPING_HEADER.test(line);
      continue;
    }
    return CLASS_MAPPING.test(line) ? withMapId(mapId) : null;
  }
  return sawR8Header ? withMapId(mapId) : null;
}

function withMapId(mapId: string | undefined): { mapId?: string } {
  return mapId === undefined ? {} : { mapId };
}

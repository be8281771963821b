import { corrupt, unsupported } from '../errors.js';
import { LookupTable, type RangeColumns, type ScopeColumns, type TableMeta } from './lookup-table.js';

/**
 * Versioned cache artifact of a LookupTable (the spec: decoded symbol
 * artifacts are versioned caches rebuilt from the original debug info).
 * Bump the version on any layout change; readers refuse other versions and
 * the caller rebuilds from the stored symbol file.
 *
 * Layout, little endian; every block starts at a multiple of 8:
 *   header   40 bytes: "SLST", u8 version, u8 format (0 elf, 1 macho), u16 0,
 *            u32 strings, u32 string bytes, u32 scopes, u32 ranges, u32 anchors,
 *            u32 arch string id + 1 (0 = none), u32 debug id string id + 1, u32 0
 *   anchors  per anchor: u32 name string id, u32 0, f64 address
 *   ranges   f64 start[], i32 scope[], u32 file[], u32 line[], u32 column[]
 *   scopes   u32 name[], i32 parent[], u32 callFile[], u32 callLine[], u32 callColumn[]
 *   strings  u32 end offset[] into the UTF-8 blob, then the blob
 */
export const TABLE_FORMAT_VERSION = 1;

const MAGIC = [0x53, 0x4c, 0x53, 0x54]; // "SLST"
const HEADER_BYTES = 40;
const ANCHOR_BYTES = 16;
const RANGE_BYTES = 8 + 4 * 4;
const SCOPE_BYTES = 5 * 4;
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

interface Layout {
  readonly anchors: number;
  readonly ranges: number;
  readonly scopes: number;
  readonly stringEnds: number;
  readonly stringBlob: number;
  readonly total: number;
}

function layout(
  anchorCount: number,
  rangeCount: number,
  scopeCount: number,
  stringCount: number,
  stringBytes: number,
): Layout {
  const align = (n: number): number => Math.ceil(n / 8) * 8;
  const anchors = HEADER_BYTES;
  const ranges = align(anchors + anchorCount * ANCHOR_BYTES);
  const scopes = align(ranges + rangeCount * RANGE_BYTES);
  const stringEnds = align(scopes + scopeCount * SCOPE_BYTES);
  const stringBlob = stringEnds + stringCount * 4;
  return { anchors, ranges, scopes, stringEnds, stringBlob, total: stringBlob + stringBytes };
}

export function serializeTable(table: LookupTable): Uint8Array {
  requireLittleEndianHost();
  const strings = [...table.strings];
  const idOf = (text: string): number => {
    const existing = strings.indexOf(text);
    return existing >= 0 ? existing : strings.push(text) - 1;
  };
  const archId = table.meta.arch === null ? 0 : idOf(table.meta.arch) + 1;
  const debugIdId = table.meta.debugId === null ? 0 : idOf(table.meta.debugId) + 1;
  const anchors = [...table.anchors].map(([name, address]) => ({ nameId: idOf(name), address }));
  const encoded = strings.map((text) => utf8Encoder.encode(text));
  const stringBytes = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
  const rangeCount = table.ranges.start.length;
  const scopeCount = table.scopes.name.length;
  const at = layout(anchors.length, rangeCount, scopeCount, strings.length, stringBytes);

  const out = new Uint8Array(at.total);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint8(4, TABLE_FORMAT_VERSION);
  view.setUint8(5, table.meta.format === 'elf' ? 0 : 1);
  [strings.length, stringBytes, scopeCount, rangeCount, anchors.length, archId, debugIdId].forEach((value, i) => {
    view.setUint32(8 + 4 * i, value, true);
  });
  anchors.forEach(({ nameId, address }, i) => {
    view.setUint32(at.anchors + i * ANCHOR_BYTES, nameId, true);
    view.setFloat64(at.anchors + i * ANCHOR_BYTES + 8, address, true);
  });
  const writeColumns = (offset: number, columns: readonly ArrayBufferView[]): void => {
    for (const column of columns) {
      out.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), offset);
      offset += column.byteLength;
    }
  };
  const { ranges, scopes } = table;
  writeColumns(at.ranges, [ranges.start, ranges.scope, ranges.file, ranges.line, ranges.column]);
  writeColumns(at.scopes, [scopes.name, scopes.parent, scopes.callFile, scopes.callLine, scopes.callColumn]);
  let end = 0;
  encoded.forEach((bytes, i) => {
    out.set(bytes, at.stringBlob + end);
    end += bytes.length;
    view.setUint32(at.stringEnds + 4 * i, end, true);
  });
  return out;
}

/** Restores a table written by serializeTable; SymbolFileError for other versions or damaged bytes. */
export function deserializeTable(bytes: Uint8Array): LookupTable {
  requireLittleEndianHost();
  if (bytes.length < HEADER_BYTES || MAGIC.some((byte, i) => bytes[i] !== byte))
    throw corrupt('lookup table: bad magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(4);
  if (version !== TABLE_FORMAT_VERSION) {
    throw unsupported(
      `lookup table: format version ${version}, expected ${TABLE_FORMAT_VERSION}; rebuild it from the symbol file`,
    );
  }
  const formatCode = view.getUint8(5);
  if (formatCode > 1) throw corrupt(`lookup table: unknown container format ${formatCode}`);
  const [stringCount, stringBytes, scopeCount, rangeCount, anchorCount, archId, debugIdId] = [0, 1, 2, 3, 4, 5, 6].map(
    (i) => view.getUint32(8 + 4 * i, true),
  ) as [number, number, number, number, number, number, number];
  const at = layout(anchorCount, rangeCount, scopeCount, stringCount, stringBytes);
  if (at.total !== bytes.length) throw corrupt(`lookup table: ${bytes.length} bytes, header describes ${at.total}`);

  const strings = readStrings(bytes, view, at, stringCount, stringBytes);
  const stringAt = (id: number, what: string): string => {
    const text = strings[id];
    if (text === undefined) throw corrupt(`lookup table: ${what} refers to missing string ${id}`);
    return text;
  };
  const anchors = new Map<string, number>();
  for (let i = 0; i < anchorCount; i++) {
    const address = view.getFloat64(at.anchors + i * ANCHOR_BYTES + 8, true);
    if (!Number.isSafeInteger(address)) throw corrupt(`lookup table: anchor ${i} has address ${address}`);
    anchors.set(stringAt(view.getUint32(at.anchors + i * ANCHOR_BYTES, true), 'anchor'), address);
  }
  const meta: TableMeta = {
    format: formatCode === 0 ? 'elf' : 'macho',
    arch: archId === 0 ? null : stringAt(archId - 1, 'arch'),
    debugId: debugIdId === 0 ? null : stringAt(debugIdId - 1, 'debug id'),
  };

  const copy = (offset: number, byteLength: number): ArrayBuffer =>
    bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + byteLength) as ArrayBuffer;
  const ranges: RangeColumns = {
    start: new Float64Array(copy(at.ranges, rangeCount * 8)),
    scope: new Int32Array(copy(at.ranges + rangeCount * 8, rangeCount * 4)),
    file: new Uint32Array(copy(at.ranges + rangeCount * 12, rangeCount * 4)),
    line: new Uint32Array(copy(at.ranges + rangeCount * 16, rangeCount * 4)),
    column: new Uint32Array(copy(at.ranges + rangeCount * 20, rangeCount * 4)),
  };
  const scopes: ScopeColumns = {
    name: new Uint32Array(copy(at.scopes, scopeCount * 4)),
    parent: new Int32Array(copy(at.scopes + scopeCount * 4, scopeCount * 4)),
    callFile: new Uint32Array(copy(at.scopes + scopeCount * 8, scopeCount * 4)),
    callLine: new Uint32Array(copy(at.scopes + scopeCount * 12, scopeCount * 4)),
    callColumn: new Uint32Array(copy(at.scopes + scopeCount * 16, scopeCount * 4)),
  };
  validateColumns(ranges, scopes, stringCount);
  return new LookupTable(meta, anchors, strings, scopes, ranges);
}

function readStrings(bytes: Uint8Array, view: DataView, at: Layout, count: number, blobBytes: number): string[] {
  const strings: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = view.getUint32(at.stringEnds + 4 * i, true);
    if (end < start || end > blobBytes) throw corrupt(`lookup table: string ${i} ends at ${end}`);
    try {
      strings.push(utf8Decoder.decode(bytes.subarray(at.stringBlob + start, at.stringBlob + end)));
    } catch {
      throw corrupt(`lookup table: string ${i} is not UTF-8`);
    }
    start = end;
  }
  return strings;
}

/** The invariants LookupTable.lookup relies on: sorted starts, valid indices, parents before children. */
function validateColumns(ranges: RangeColumns, scopes: ScopeColumns, stringCount: number): void {
  const rangeCount = ranges.start.length;
  const scopeCount = scopes.name.length;
  for (let i = 0; i < rangeCount; i++) {
    const start = ranges.start[i]!;
    const scope = ranges.scope[i]!;
    if (!Number.isSafeInteger(start) || (i > 0 && !(start > ranges.start[i - 1]!)))
      throw corrupt(`lookup table: range ${i} is out of order`);
    if (scope < -1 || scope >= scopeCount || ranges.file[i]! >= stringCount)
      throw corrupt(`lookup table: range ${i} has a bad index`);
  }
  if (rangeCount > 0 && ranges.scope[rangeCount - 1] !== -1)
    throw corrupt('lookup table: last range is not a closing gap');
  for (let s = 0; s < scopeCount; s++) {
    const parent = scopes.parent[s]!;
    if (parent < -1 || parent >= s) throw corrupt(`lookup table: scope ${s} has parent ${parent}`);
    if (scopes.name[s]! >= stringCount || scopes.callFile[s]! >= stringCount)
      throw corrupt(`lookup table: scope ${s} has a bad string`);
  }
}

function requireLittleEndianHost(): void {
  if (!HOST_IS_LITTLE_ENDIAN) throw unsupported('lookup tables are stored little endian; this host is big endian');
}

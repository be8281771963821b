/**
 * ClickHouse RowBinary encoding, hand-written: no npm library encodes RowBinary from JavaScript
 * values for inserts (@clickhouse/client sends JSON and text formats). It covers exactly the
 * column types our schema uses; a type it does not know fails when the row formats are built
 * (module load), never at insert time.
 *
 * Format (ClickHouse docs, "RowBinary"): each row is its values in column order, each value in its
 * type's native little-endian layout: integers and floats as fixed-width LE, Bool one byte,
 * String a LEB128 length then bytes, UUID two LE UInt64 (high half first), DateTime64 Int64
 * ticks, Date UInt16 days, DateTime UInt32 seconds, Nullable a 0/1 byte then the value, Array and
 * Map a LEB128 count then elements (Map: key, value, ...), Tuple its elements in order.
 * LowCardinality(T) is written as T.
 */

/** A growable output buffer, reused across inserts so a batch does not allocate its bytes anew. */
export class RowBinaryBuffer {
  buf: Buffer;
  pos = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  reset(): void {
    this.pos = 0;
  }

  /** The bytes written since the last reset: a view, valid until the next write or reset. */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  get capacity(): number {
    return this.buf.length;
  }

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  varint(value: number): void {
    this.ensure(5);
    while (value >= 0x80) {
      this.buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buf[this.pos++] = value;
  }

  string(value: string): void {
    const n = value.length;
    // Short ASCII, the common case (names, attribute keys, ids): a JS loop beats a native call.
    if (n < 128) {
      this.ensure(1 + n * 3);
      const buf = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        buf[p++] = c;
      }
      if (i === n) {
        buf[this.pos] = n;
        this.pos = p;
        return;
      }
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit: reserve the length prefix for that, write,
    // then close the gap if the real length needs fewer prefix bytes.
    const most = n * 3;
    const reserved = varintSize(most);
    this.ensure(reserved + most);
    const written = this.buf.write(value, this.pos + reserved);
    const needed = varintSize(written);
    if (needed < reserved) this.buf.copyWithin(this.pos + needed, this.pos + reserved, this.pos + reserved + written);
    this.varint(written);
    this.pos += written;
  }
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value >>>= 7;
    size++;
  }
  return size;
}

/** Writes one value of a column type. */
export type ValueEncoder = (out: RowBinaryBuffer, value: never) => void;

const TWO_32 = 2 ** 32;

function uint(bytes: 1 | 2 | 4, type: string): ValueEncoder {
  const max = 2 ** (bytes * 8);
  return (out: RowBinaryBuffer, value: number) => {
    if (!(value >= 0 && value < max) || !Number.isInteger(value)) throw new RangeError(`${value} is not a ${type}`);
    out.ensure(bytes);
    if (bytes === 1) out.buf[out.pos] = value;
    else if (bytes === 2) out.buf.writeUInt16LE(value, out.pos);
    else out.buf.writeUInt32LE(value, out.pos);
    out.pos += bytes;
  };
}

/** UInt64 from an integer number (exact beyond 2^53 when it is one) or a bigint (any UInt64). */
function uint64(out: RowBinaryBuffer, value: number | bigint): void {
  out.ensure(8);
  if (typeof value === 'bigint') {
    out.buf.writeBigUInt64LE(value, out.pos);
  } else {
    if (!(value >= 0 && value < 2 ** 64) || !Number.isInteger(value)) throw new RangeError(`${value} is not a UInt64`);
    const high = Math.floor(value / TWO_32);
    out.buf.writeUInt32LE(value - high * TWO_32, out.pos);
    out.buf.writeUInt32LE(high, out.pos + 4);
  }
  out.pos += 8;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/**
 * Eight bytes a bigint is stored through: a BigInt64Array takes one without allocating, where
 * Buffer's writeBigInt64LE splits it with bigint arithmetic (3% of the OTLP pipeline: every span
 * row has a start time and a duration). Only where the platform's byte order is RowBinary's.
 */
const int64Scratch = new BigInt64Array(1);
const int64ScratchBytes = new Uint8Array(int64Scratch.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Int64 (and DateTime64 ticks) from a bigint or an integer number. */
function int64(out: RowBinaryBuffer, value: bigint | number): void {
  out.ensure(8);
  if (typeof value === 'bigint') {
    if (!LITTLE_ENDIAN) out.buf.writeBigInt64LE(value, out.pos);
    else {
      if (value < INT64_MIN || value > INT64_MAX) throw new RangeError(`${value} is not an Int64`);
      int64Scratch[0] = value;
      const buf = out.buf;
      const p = out.pos;
      for (let i = 0; i < 8; i++) buf[p + i] = int64ScratchBytes[i]!;
    }
  } else {
    if (!(value >= -(2 ** 63) && value < 2 ** 63) || !Number.isInteger(value))
      throw new RangeError(`${value} is not an Int64`);
    // Two's complement halves: floor keeps the high half right for negatives.
    const high = Math.floor(value / TWO_32);
    out.buf.writeInt32LE(high, out.pos + 4);
    out.buf.writeUInt32LE(value - high * TWO_32, out.pos);
  }
  out.pos += 8;
}

function float64(out: RowBinaryBuffer, value: number): void {
  out.ensure(8);
  out.buf.writeDoubleLE(value, out.pos);
  out.pos += 8;
}

function bool(out: RowBinaryBuffer, value: boolean): void {
  out.ensure(1);
  out.buf[out.pos++] = value ? 1 : 0;
}

function string(out: RowBinaryBuffer, value: string): void {
  out.string(value);
}

/** Hex digit values by UTF-16 code unit; -1 for anything else (every code unit has an entry). */
const HEX = new Int8Array(65536).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) HEX[65 + i] = HEX[97 + i] = 10 + i;

const DASH = 45;

/** Offsets of the 16 bytes in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, in RowBinary order. */
const UUID_BYTE_AT = Uint8Array.from([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8], (byte) => {
  const digit = byte * 2;
  return digit + (digit >= 8 ? 1 : 0) + (digit >= 12 ? 1 : 0) + (digit >= 16 ? 1 : 0) + (digit >= 20 ? 1 : 0);
});

/** Where a span id's 16 hex digits go in RowBinary: the low half, UUID bytes 8-15, reversed. */
const SPAN_ID_BYTE_AT = Uint8Array.from([7, 6, 5, 4, 3, 2, 1, 0], (byte) => byte * 2);

/**
 * A UUID column, from the 8-4-4-4-12 text or from an OpenTelemetry span id's 16 hex digits (the
 * UUID's low 8 bytes, the high 8 zero: records.ts). Span rows keep the decoder's hex rather than
 * a UUID string made to be parsed back here, which with the parse was a tenth of the OTLP main
 * thread (PERFORMANCE.md). Each column remembers its last value: the project id repeats on every
 * row and an entity's id on each of its span rows, and the same string costs a comparison.
 */
function uuidColumn(): ValueEncoder {
  let lastValue: string | undefined;
  const lastBytes = new Uint8Array(16);
  return (out: RowBinaryBuffer, value: string) => {
    out.ensure(16);
    const buf = out.buf;
    const p = out.pos;
    if (value === lastValue) {
      for (let i = 0; i < 16; i++) buf[p + i] = lastBytes[i]!;
    } else {
      if (value.length === 16) spanIdHalves(buf, p, value);
      else uuidHalves(buf, p, value);
      for (let i = 0; i < 16; i++) lastBytes[i] = buf[p + i]!;
      lastValue = value;
    }
    out.pos = p + 16;
  };
}

// Every span row carries several UUIDs: one table lookup per digit, no per-byte calls (profiled).
function uuidHalves(buf: Buffer, p: number, value: string): void {
  if (
    value.length !== 36 ||
    value.charCodeAt(8) !== DASH ||
    value.charCodeAt(13) !== DASH ||
    value.charCodeAt(18) !== DASH ||
    value.charCodeAt(23) !== DASH
  ) {
    throw new RangeError(`${JSON.stringify(value)} is not a UUID`);
  }
  let invalid = 0;
  for (let i = 0; i < 16; i++) {
    const at = UUID_BYTE_AT[i]!;
    const hi = HEX[value.charCodeAt(at)]!;
    const lo = HEX[value.charCodeAt(at + 1)]!;
    invalid |= hi | lo; // negative once any digit is not hex
    buf[p + i] = (hi << 4) | lo;
  }
  if (invalid < 0) throw new RangeError(`${JSON.stringify(value)} is not a UUID`);
}

function spanIdHalves(buf: Buffer, p: number, value: string): void {
  buf.fill(0, p, p + 8);
  let invalid = 0;
  for (let i = 0; i < 8; i++) {
    const at = SPAN_ID_BYTE_AT[i]!;
    const hi = HEX[value.charCodeAt(at)]!;
    const lo = HEX[value.charCodeAt(at + 1)]!;
    invalid |= hi | lo;
    buf[p + 8 + i] = (hi << 4) | lo;
  }
  if (invalid < 0) throw new RangeError(`${JSON.stringify(value)} is not a UUID or a span id`);
}

function fixedString(size: number): ValueEncoder {
  return (out: RowBinaryBuffer, value: string) => {
    out.ensure(size);
    const written = out.buf.write(value, out.pos, size);
    if (Buffer.byteLength(value) > size)
      throw new RangeError(`${JSON.stringify(value)} is longer than FixedString(${size})`);
    out.buf.fill(0, out.pos + written, out.pos + size);
    out.pos += size;
  };
}

const DAY_MS = 86_400_000;

/** Date from `YYYY-MM-DD`: days since 1970-01-01. */
function date(out: RowBinaryBuffer, value: string): void {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (!(ms >= 0 && ms < 65536 * DAY_MS)) throw new RangeError(`${JSON.stringify(value)} is not a Date`);
  out.ensure(2);
  out.buf.writeUInt16LE(ms / DAY_MS, out.pos);
  out.pos += 2;
}

function nullable(inner: ValueEncoder): ValueEncoder {
  const write = inner as (out: RowBinaryBuffer, value: unknown) => void;
  return (out: RowBinaryBuffer, value: unknown) => {
    if (value === null || value === undefined) return out.u8(1);
    out.u8(0);
    write(out, value);
  };
}

function array(element: ValueEncoder): ValueEncoder {
  const write = element as (out: RowBinaryBuffer, value: unknown) => void;
  return (out: RowBinaryBuffer, values: readonly unknown[]) => {
    out.varint(values.length);
    for (const value of values) write(out, value);
  };
}

/** A map from a plain object (attributes): its own string keys in insertion order. */
function map(key: ValueEncoder, value: ValueEncoder): ValueEncoder {
  const writeKey = key as (out: RowBinaryBuffer, value: string) => void;
  const writeValue = value as (out: RowBinaryBuffer, value: unknown) => void;
  return (out: RowBinaryBuffer, entries: Record<string, unknown>) => {
    let count = 0;
    for (const _ in entries) count++;
    out.varint(count);
    for (const k in entries) {
      writeKey(out, k);
      writeValue(out, entries[k]);
    }
  };
}

/** A named tuple from an object with those fields (e.g. span events: time, name, attributes). */
function tuple(elements: Array<{ name: string; encode: ValueEncoder }>): ValueEncoder {
  const fields = elements.map((e) => ({
    name: e.name,
    write: e.encode as (out: RowBinaryBuffer, value: unknown) => void,
  }));
  return (out: RowBinaryBuffer, value: Record<string, unknown>) => {
    for (const field of fields) field.write(out, value[field.name]);
  };
}

/**
 * The encoder of a ClickHouse type, spelled as `system.columns.type` spells it (so the row
 * formats' declared types can be checked against the migrated tables).
 */
export function encoderOf(type: string): ValueEncoder {
  const { name, args } = parseType(type);
  const only = (): string => {
    if (args.length !== 1) throw new Error(`unsupported column type ${type}`);
    return args[0]!;
  };
  switch (name) {
    case 'String':
      return string;
    case 'UUID':
      return uuidColumn();
    case 'Bool':
      return bool;
    case 'UInt8':
      return uint(1, name);
    case 'UInt16':
      return uint(2, name);
    case 'UInt32':
      return uint(4, name);
    case 'UInt64':
      return uint64;
    case 'Int64':
      return int64;
    case 'Float64':
      return float64;
    case 'Date':
      return date;
    case 'DateTime':
      // Epoch seconds; the timezone argument only changes how it is shown.
      if (args.length > 1) break;
      return uint(4, type);
    case 'DateTime64':
      // Records carry nanoseconds; another precision would need scaling, so it is refused.
      if (args[0] !== '9') break;
      return int64;
    case 'FixedString':
      return fixedString(Number(only()));
    case 'LowCardinality':
      return encoderOf(only());
    case 'Nullable':
      return nullable(encoderOf(only()));
    case 'Array':
      return array(encoderOf(only()));
    case 'Map':
      if (args.length !== 2) break;
      return map(encoderOf(args[0]!), encoderOf(args[1]!));
    case 'Tuple':
      return tuple(
        args.map((element) => {
          const named = /^([A-Za-z_][A-Za-z0-9_]*) (.+)$/s.exec(element);
          if (!named) throw new Error(`unsupported column type ${type}: tuple elements must be named`);
          return { name: named[1]!, encode: encoderOf(named[2]!) };
        }),
      );
  }
  throw new Error(`unsupported column type ${type}`);
}

/** `Map(String, Array(UInt8))` -> { name: 'Map', args: ['String', 'Array(UInt8)'] }. */
function parseType(type: string): { name: string; args: string[] } {
  const open = type.indexOf('(');
  if (open === -1) return { name: type.trim(), args: [] };
  if (!type.endsWith(')')) throw new Error(`unsupported column type ${type}`);
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = open + 1;
  for (let i = start; i < type.length - 1; i++) {
    const c = type[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      args.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(type.slice(start, type.length - 1).trim());
  return { name: type.slice(0, open).trim(), args };
}

import { corrupt, truncated } from '../errors.js';

const utf8 = new TextDecoder('utf-8');
const TWO_POW_32 = 4294967296;

/**
 * Cursor over an in-memory byte range with bounds-checked reads. Every read
 * past the end throws SymbolFileError('truncated'), so parsers driven by
 * file-controlled counts stop at the end of their data instead of looping.
 *
 * Numbers are JS doubles: 64-bit values above 2^53 - 1 come back as Infinity,
 * which Number.isSafeInteger and every bounds check reject. Real addresses and
 * offsets stay far below that; tombstones (all ones) land there on purpose.
 */
export class ByteReader {
  pos = 0;
  readonly length: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly label: string,
    readonly littleEndian = true,
  ) {
    this.length = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.length - this.pos;
  }

  seek(pos: number): void {
    if (!(Number.isSafeInteger(pos) && pos >= 0 && pos <= this.length)) {
      throw truncated(`${this.label}: offset ${pos} outside ${this.length} bytes`);
    }
    this.pos = pos;
  }

  skip(count: number): void {
    this.seek(this.pos + count);
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  i8(): number {
    this.need(1);
    return this.view.getInt8(this.pos++);
  }

  u16(): number {
    this.need(2);
    const value = this.view.getUint16(this.pos, this.littleEndian);
    this.pos += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return value;
  }

  u64(): number {
    this.need(8);
    const first = this.view.getUint32(this.pos, this.littleEndian);
    const second = this.view.getUint32(this.pos + 4, this.littleEndian);
    this.pos += 8;
    const [low, high] = this.littleEndian ? [first, second] : [second, first];
    return high < 0x200000 ? high * TWO_POW_32 + low : Number.POSITIVE_INFINITY;
  }

  /** Little-endian unsigned integer of 1, 2, 3, 4 or 8 bytes (DWARF strx3/addrx3 use 3). */
  uint(size: number): number {
    switch (size) {
      case 1:
        return this.u8();
      case 2:
        return this.u16();
      case 3: {
        const low = this.u16();
        return low + this.u8() * 0x10000;
      }
      case 4:
        return this.u32();
      case 8:
        return this.u64();
      default:
        throw corrupt(`${this.label}: unsupported integer size ${size}`);
    }
  }

  uleb(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const byte = this.u8();
      // Digits past bit 63 cannot matter for any value we accept; ignoring them keeps `result` finite.
      if (scale < 2 ** 64) result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) break;
      scale *= 128;
    }
    return result <= Number.MAX_SAFE_INTEGER ? result : Number.POSITIVE_INFINITY;
  }

  sleb(): number {
    let result = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = this.u8();
      if (scale < 2 ** 64) result += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    if (byte & 0x40) result -= Math.min(scale, 2 ** 64);
    return result;
  }

  /** Reads a NUL-terminated string and moves past the terminator. */
  cstring(): string {
    const end = this.bytes.indexOf(0, this.pos);
    if (end < 0) throw truncated(`${this.label}: unterminated string at offset ${this.pos}`);
    const text = decodeUtf8(this.bytes, this.pos, end);
    this.pos = end + 1;
    return text;
  }

  /** Skips a NUL-terminated string, returning where it started. */
  skipCstring(): number {
    const start = this.pos;
    const end = this.bytes.indexOf(0, start);
    if (end < 0) throw truncated(`${this.label}: unterminated string at offset ${start}`);
    this.pos = end + 1;
    return start;
  }

  /** `count` bytes as a view into the underlying buffer (no copy). */
  subarray(count: number): Uint8Array {
    this.need(count);
    const out = this.bytes.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  private need(count: number): void {
    if (!(count >= 0 && this.pos + count <= this.length)) {
      throw truncated(
        `${this.label}: ${count} bytes needed at offset ${this.pos}, only ${this.length - this.pos} left`,
      );
    }
  }
}

/** Longest string a string-table lookup scans for its terminator (the longest real symbol names are a few KiB). */
export const MAX_TABLE_STRING_BYTES = 64 * 1024;

/**
 * The NUL-terminated string at `offset` of a string section. The scan for the
 * terminator stops after `maxLength` bytes, so many lookups into one long
 * unterminated run cannot cost more than that each.
 */
export function cstringAt(
  bytes: Uint8Array,
  offset: number,
  label: string,
  maxLength = MAX_TABLE_STRING_BYTES,
): string {
  if (!(Number.isSafeInteger(offset) && offset >= 0 && offset < bytes.length)) {
    throw truncated(`${label}: string offset ${offset} outside ${bytes.length} bytes`);
  }
  const window = bytes.subarray(offset, offset + maxLength + 1);
  const length = window.indexOf(0);
  if (length < 0) {
    if (window.length > maxLength)
      throw corrupt(`${label}: string at offset ${offset} is longer than ${maxLength} bytes`);
    throw truncated(`${label}: unterminated string at offset ${offset}`);
  }
  return decodeUtf8(bytes, offset, offset + length);
}

/** Whether the NUL-terminated string at `offset` equals `expected` (ASCII), without scanning further than its length. */
export function cstringEquals(bytes: Uint8Array, offset: number, expected: string): boolean {
  if (!(offset >= 0 && offset + expected.length < bytes.length)) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected.charCodeAt(i)) return false;
  return bytes[offset + expected.length] === 0;
}

/** Fixed-width, NUL-padded name field (Mach-O segment and section names). */
export function fixedString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decodeUtf8(bytes, 0, end < 0 ? bytes.length : end);
}

function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  // Symbol names are nearly always short ASCII, where fromCharCode beats TextDecoder's call overhead.
  // (Not `+=` per byte: that leaves rope strings that the table would keep at several times the size.)
  if (end - start <= 64 && bytes.subarray(start, end).every((byte) => byte < 0x80)) {
    return String.fromCharCode(...bytes.subarray(start, end));
  }
  return utf8.decode(bytes.subarray(start, end));
}

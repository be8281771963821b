/**
 * Protobuf wire-format reader: the primitives the OTLP message decoders (protobuf.ts) are built
 * from. Every read is bounded by the current message's end (`limit`), so a length prefix or varint
 * that runs past its enclosing message is a decode error rather than a read of a neighbour's bytes,
 * and every loop advances by at least one byte, so no input can make decoding hang.
 */
import { OtlpDecodeError } from './errors.js';

export const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

const TWO_POW_32 = 0x1_0000_0000;
/** High 32-bit words below this keep a uint64 within Number.MAX_SAFE_INTEGER. */
const SAFE_HIGH_WORD_LIMIT = 0x20_0000;

/** The 32-bit FNV prime: multiplying by it spreads the sampled bytes over the hash. */
const FNV_PRIME = 0x01000193;

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * What was recently decoded from short byte ranges, by their bytes: a direct-mapped table of
 * byte-verified entries, so a repeat costs a hash and a comparison instead of a decode, and
 * answers with the same instance. Telemetry repeats itself (attribute keys and many whole
 * attributes recur in every span), and decoding them, with the objects that made, was most of
 * decode time. Bounded at `slots` x `maxBytes` bytes of keys, plus the values.
 */
export class ByteRangeCache<T> {
  /**
   * The slots' key bytes, `maxBytes` per slot, in one block: storing a key copies into it, so a
   * miss allocates nothing (a copy of its own per key was a small ArrayBuffer for the garbage
   * collector to track and sweep, one per miss).
   */
  private readonly keyBytes: Uint8Array;
  private readonly keyView: DataView;
  /** Each slot's key length; -1 for an empty slot. */
  private readonly keyLengths: Int32Array;
  private readonly values: (T | undefined)[];

  constructor(
    private readonly slots: number,
    readonly maxBytes: number,
  ) {
    this.keyBytes = new Uint8Array(slots * maxBytes);
    this.keyView = new DataView(this.keyBytes.buffer);
    this.keyLengths = new Int32Array(slots).fill(-1);
    this.values = new Array(slots).fill(undefined);
  }

  /**
   * The value stored for these bytes, if the slot holds them. The comparison reads four bytes at a
   * time through `view` (over the same memory as `bytes`; readers pass the one they hold): most
   * attributes are hits, and comparing a byte at a time was decoding's largest cost (PERFORMANCE.md).
   */
  get(bytes: Uint8Array, start: number, end: number, view = viewOf(bytes)): T | undefined {
    const slot = this.slotOf(bytes, start, end);
    const length = end - start;
    if (this.keyLengths[slot] !== length) return undefined;
    const keyView = this.keyView;
    const slotStart = slot * this.maxBytes;
    let i = start;
    // Little-endian on both sides, so equal words mean equal bytes on any platform.
    for (let at = slotStart; i + 4 <= end; i += 4, at += 4)
      if (keyView.getInt32(at, true) !== view.getInt32(i, true)) return undefined;
    const keys = this.keyBytes;
    for (let at = slotStart + i - start; i < end; i++, at++) if (keys[at] !== bytes[i]) return undefined;
    return this.values[slot];
  }

  /** Stores a value for these bytes (at most `maxBytes` of them), replacing the slot's entry. */
  set(bytes: Uint8Array, start: number, end: number, value: T): void {
    const slot = this.slotOf(bytes, start, end);
    const keys = this.keyBytes;
    const at = slot * this.maxBytes - start;
    for (let i = start; i < end; i++) keys[at + i] = bytes[i]!;
    this.keyLengths[slot] = end - start;
    this.values[slot] = value;
  }

  // A hash of the length and a few sampled bytes picks the slot; get's byte comparison makes a
  // collision cost a decode, never a wrong value.
  private slotOf(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let hash = Math.imul(length, FNV_PRIME);
    hash = Math.imul(hash ^ bytes[start]!, FNV_PRIME);
    hash = Math.imul(hash ^ bytes[start + (length >>> 1)]!, FNV_PRIME);
    hash = Math.imul(hash ^ bytes[end - 1]!, FNV_PRIME);
    hash = Math.imul(hash ^ bytes[Math.max(start, end - 2)]!, FNV_PRIME);
    return (hash >>> 0) % this.slots;
  }
}

/**
 * Recently decoded short strings, shared by all readers: decoding UTF-8 was a third of decode
 * time, and the same instance back also spares V8 re-hashing it as a property key.
 */
const strings = new ByteRangeCache<string>(4096, 48);

export class WireReader {
  pos = 0;
  /** End of the message being read: the buffer's end, or the end of the embedded message entered. */
  limit: number;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  /** The same memory as a Buffer, for Node's native UTF-8 and hex encoding (no copy). */
  private readonly text: Buffer;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.limit = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(message: string): never {
    throw new OtlpDecodeError(`malformed protobuf at byte ${this.pos}: ${message}`);
  }

  /** Reads a field tag; field number 0 is never valid. */
  tag(): number {
    const tag = this.uint32();
    if (tag >>> 3 === 0) this.fail(`invalid field number 0 (tag ${tag})`);
    return tag;
  }

  /**
   * Reads the length prefix of an embedded message and narrows `limit` to it. Returns the outer
   * limit, which the caller hands to `leave` once the embedded message's fields are read.
   */
  enter(message: string): number {
    const end = this.lengthDelimitedEnd(message);
    const outer = this.limit;
    this.limit = end;
    return outer;
  }

  leave(outerLimit: number): void {
    this.limit = outerLimit;
  }

  /** A varint truncated to its low 32 bits, as protobuf reads uint32, int32 and enum fields. */
  uint32(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= this.limit) this.fail('varint runs past the end of its message');
      const byte = bytes[pos++]!;
      if (shift < 32) value |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    return this.fail('varint longer than 10 bytes');
  }

  /** An int32 or enum field: the low 32 bits of the varint as a signed number. */
  int32(): number {
    return this.uint32() | 0;
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  /** An int64 field: a number when it is a safe integer, otherwise a bigint. */
  int64(): number | bigint {
    const [low, high] = this.varint64Words();
    if (high < SAFE_HIGH_WORD_LIMIT) return high * TWO_POW_32 + low;
    const value = BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low));
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }

  fixed32(): number {
    const at = this.advance(4);
    return this.view.getUint32(at, true);
  }

  fixed64(): bigint {
    const at = this.advance(8);
    return this.view.getBigUint64(at, true);
  }

  /** A fixed64 time in Unix nanoseconds; past MAX_UNIX_NANOS (the top bit set) it reads as not set, 0n. */
  unixNanos(): bigint {
    const at = this.advance(8);
    return this.view.getUint32(at + 4, true) >= 0x8000_0000 ? 0n : this.view.getBigUint64(at, true);
  }

  /** A fixed64 count as a number: exact up to 2^53, which counts never reach. */
  fixed64AsNumber(): number {
    const at = this.advance(8);
    return this.view.getUint32(at + 4, true) * TWO_POW_32 + this.view.getUint32(at, true);
  }

  /** An sfixed64 field as a double: exact up to 2^53, the nearest double beyond. */
  sfixed64AsNumber(): number {
    const at = this.advance(8);
    return this.view.getInt32(at + 4, true) * TWO_POW_32 + this.view.getUint32(at, true);
  }

  double(): number {
    const at = this.advance(8);
    return this.view.getFloat64(at, true);
  }

  string(): string {
    const end = this.lengthDelimitedEnd('string');
    const start = this.pos;
    this.pos = end;
    if (start === end) return '';
    let text = this.cached(strings, start, end);
    if (text === undefined) {
      text = this.text.toString('utf8', start, end);
      this.cache(strings, start, end, text);
    }
    return text;
  }

  /** The value `cache` holds for the bytes from `start` to `end` of this buffer, if any. */
  cached<T>(cache: ByteRangeCache<T>, start: number, end: number): T | undefined {
    return end - start <= cache.maxBytes ? cache.get(this.bytes, start, end, this.view) : undefined;
  }

  /** Keeps `value` in `cache` as what the bytes from `start` to `end` decode to (when short enough). */
  cache<T>(cache: ByteRangeCache<T>, start: number, end: number, value: T): void {
    if (end - start <= cache.maxBytes) cache.set(this.bytes, start, end, value);
  }

  /** A bytes field, copied so the result does not pin the request body. */
  bytesCopy(): Uint8Array {
    const end = this.lengthDelimitedEnd('bytes');
    const start = this.pos;
    this.pos = end;
    return this.bytes.slice(start, end);
  }

  /**
   * A trace or span id: lowercase hex of exactly `byteLength` bytes, or '' when the field is empty.
   * Any other length is an error: OTLP ids have fixed sizes.
   */
  id(field: string, byteLength: number): string {
    const end = this.lengthDelimitedEnd(field);
    const start = this.pos;
    const length = end - start;
    if (length === 0) return '';
    if (length !== byteLength) this.fail(`${field} must be ${byteLength} bytes, got ${length}`);
    // Node's native hex encoding yields a flat string, which is cheaper to hash as a map key
    // later than one concatenated from per-byte pieces.
    const hex = this.text.toString('hex', start, end);
    this.pos = end;
    return hex;
  }

  /** Skips a field this decoder does not read, whatever its wire type. */
  skip(tag: number): void {
    switch (tag & 7) {
      case WIRE_VARINT:
        this.uint32();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_LENGTH_DELIMITED:
        this.pos = this.lengthDelimitedEnd(`field ${tag >>> 3}`);
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        // Groups (3, 4) are proto2-only and no OTLP message uses them; 6 and 7 do not exist.
        this.fail(`unsupported wire type ${tag & 7} for field ${tag >>> 3}`);
    }
  }

  /** Reads a length prefix and checks the bytes it announces fit in the current message. */
  private lengthDelimitedEnd(what: string): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.limit) this.fail(`${what} of ${length} bytes runs past the end of its message`);
    return end;
  }

  /** Moves past `count` fixed-width bytes and returns where they start. */
  private advance(count: number): number {
    const at = this.pos;
    if (at + count > this.limit) this.fail(`${count}-byte value runs past the end of its message`);
    this.pos = at + count;
    return at;
  }

  /** A varint of up to 64 bits as unsigned [low, high] 32-bit words. */
  private varint64Words(): [number, number] {
    const bytes = this.bytes;
    let low = 0;
    let high = 0;
    for (let index = 0; index < 10; index++) {
      if (this.pos >= this.limit) this.fail('varint runs past the end of its message');
      const byte = bytes[this.pos++]!;
      const payload = byte & 0x7f;
      if (index < 4) low |= payload << (7 * index);
      else if (index === 4) {
        low |= payload << 28;
        high |= payload >>> 4;
      } else high |= payload << (7 * index - 32);
      if (byte < 0x80) return [low >>> 0, high >>> 0];
    }
    return this.fail('varint longer than 10 bytes');
  }
}

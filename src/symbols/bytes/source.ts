import { truncated } from '../errors.js';

/**
 * Random access to the bytes of a symbol file. The HTTP edge implements it
 * over a file descriptor (fs.readSync), so identifying a 200 MB upload reads a
 * few headers instead of the whole file; tests and small inputs use
 * `bytesSource`.
 */
export interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes starting at `offset`; callers never ask past `size`. */
  read(offset: number, length: number): Uint8Array;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read(offset, length) {
      assertRange(bytes.length, offset, length, 'read');
      return bytes.subarray(offset, offset + length);
    },
  };
}

/** A window of another source, e.g. one architecture slice of a fat Mach-O. */
export function sliceSource(src: ByteSource, offset: number, size: number, what: string): ByteSource {
  assertRange(src.size, offset, size, what);
  return {
    size,
    read(innerOffset, length) {
      assertRange(size, innerOffset, length, what);
      return src.read(offset + innerOffset, length);
    },
  };
}

/** Bounds-checked read; `what` names the structure in the error message. */
export function readRange(src: ByteSource, offset: number, length: number, what: string): Uint8Array {
  assertRange(src.size, offset, length, what);
  const bytes = src.read(offset, length);
  if (bytes.length !== length) {
    throw truncated(`${what}: short read (${bytes.length} of ${length} bytes at offset ${offset})`);
  }
  return bytes;
}

/** Written so that NaN and non-integers fail too. */
export function assertRange(size: number, offset: number, length: number, what: string): void {
  const ok =
    Number.isSafeInteger(offset) &&
    Number.isSafeInteger(length) &&
    offset >= 0 &&
    length >= 0 &&
    offset + length <= size;
  if (!ok) {
    throw truncated(`${what}: bytes ${offset}..${offset + length} lie outside the ${size} available`);
  }
}

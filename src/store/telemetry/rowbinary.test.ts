import { describe, expect, it } from 'vitest';
import { RowBinaryBuffer } from './rowbinary.js';
import { layoutFormat } from './rows.js';

const UUID_ROWS = layoutFormat<{ u: string }>('t', { u: 'UUID' });
const encode = (u: string) => {
  const out = new RowBinaryBuffer();
  UUID_ROWS.encode([{ u }] as never[], out);
  return Buffer.from(out.bytes()).toString('hex');
};

describe('UUID in RowBinary', () => {
  it('writes each 8-byte half little-endian, as ClickHouse reads it', () => {
    expect(encode('00112233-4455-6677-8899-aabbccddeeff')).toBe('7766554433221100ffeeddccbbaa9988');
    expect(encode('00112233-4455-6677-8899-AABBCCDDEEFF')).toBe('7766554433221100ffeeddccbbaa9988');
  });

  it('refuses anything but 8-4-4-4-12 hex digits', () => {
    for (const bad of [
      '',
      '00112233445566778899aabbccddeeff',
      '00112233-4455-6677-8899-aabbccddeefg',
      'g0112233-4455-6677-8899-aabbccddeeff',
      '00112233-4455-6677-8899-aabbccddee\u0666f', // an Arabic-Indic digit is not a hex digit
      '00112233_4455-6677-8899-aabbccddeeff',
    ]) {
      expect(() => encode(bad), bad).toThrow(RangeError);
    }
  });
});

describe('an OpenTelemetry span id in a UUID column', () => {
  it('is the UUID with those 8 bytes low and 8 zero bytes high, leading zero bytes kept', () => {
    expect(encode('00000000000000ff')).toBe(encode('00000000-0000-0000-0000-0000000000ff'));
    expect(encode('0102030405060708')).toBe('0000000000000000' + '0807060504030201');
    expect(encode('A1B2C3D4E5F60718')).toBe(encode('00000000-0000-0000-a1b2-c3d4e5f60718'));
    // An all-zero span id (a parent the sender left zeroed) is the nil UUID, as "no parent" is stored.
    expect(encode('0000000000000000')).toBe(encode('00000000-0000-0000-0000-000000000000'));
  });

  it('refuses any other length or a digit that is not hex', () => {
    for (const bad of ['000000000000001', '00000000000000001', '000000000000000g', '00000000000000\u06660']) {
      expect(() => encode(bad), bad).toThrow(RangeError);
    }
  });

  it('writes each row its own id when a column repeats and alternates values', () => {
    const ids = ['0102030405060708', '0102030405060708', '00112233-4455-6677-8899-aabbccddeeff', '0102030405060708'];
    const out = new RowBinaryBuffer();
    UUID_ROWS.encode(ids.map((u) => ({ u })) as never[], out);
    expect(Buffer.from(out.bytes()).toString('hex')).toBe(ids.map(encode).join(''));
    // A refused value is not remembered: sent again, it is refused again rather than copied.
    for (let attempt = 0; attempt < 2; attempt++) expect(() => encode('010203040506070g')).toThrow(RangeError);
  });
});

describe('Int64 from a bigint', () => {
  const INT64_ROWS = layoutFormat<{ i: bigint }>('t', { i: 'Int64' });
  const encodeInt64 = (i: bigint) => {
    const out = new RowBinaryBuffer();
    INT64_ROWS.encode([{ i }] as never[], out);
    return Buffer.from(out.bytes()).toString('hex');
  };

  it("writes the two's complement little-endian, across the whole range", () => {
    for (const value of [0n, 1n, -1n, 1_700_000_000_123_456_789n, -(2n ** 63n), 2n ** 63n - 1n, -(2n ** 32n) - 5n]) {
      const expected = Buffer.alloc(8);
      expected.writeBigInt64LE(value);
      expect(encodeInt64(value), String(value)).toBe(expected.toString('hex'));
    }
  });

  it('refuses a value outside Int64 rather than wrapping it', () => {
    for (const value of [2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n]) {
      expect(() => encodeInt64(value), String(value)).toThrow(RangeError);
    }
  });
});

const MAP_ROWS = layoutFormat<{ m: Record<string, string> }>('t', { m: 'Map(String, String)' });

/** The RowBinary of a Map(String, String), written out by hand: LEB128 count, then each key and value. */
function expectedMap(entries: Record<string, string>): string {
  const leb128 = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb128(n >>> 7)]);
  const text = (s: string): number[] => [...leb128(Buffer.byteLength(s)), ...Buffer.from(s)];
  const pairs = Object.entries(entries).flatMap(([k, v]) => [...text(k), ...text(v)]);
  return Buffer.from([...leb128(Object.keys(entries).length), ...pairs]).toString('hex');
}

describe('Map in RowBinary', () => {
  it('writes the entry count as a LEB128 varint before the entries, however many there are', () => {
    for (const size of [0, 1, 127, 128, 300, 20_000]) {
      const entries = Object.fromEntries(Array.from({ length: size }, (_, i) => [`key.${i}`, `välue ${i}`]));
      // Rows before and after: the count's room is made inside a buffer already holding bytes.
      const out = new RowBinaryBuffer(16);
      MAP_ROWS.encode([{ m: { a: 'b' } }, { m: entries }, { m: { c: 'd' } }] as never[], out);
      const expected = expectedMap({ a: 'b' }) + expectedMap(entries) + expectedMap({ c: 'd' });
      expect(Buffer.from(out.bytes()).toString('hex'), `${size} entries`).toBe(expected);
    }
  });
});

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

import { describe, expect, it } from 'vitest';
import { ByteRangeCache } from './wire.js';

describe('ByteRangeCache', () => {
  it('answers a stored value for the same bytes at any position, and nothing for other bytes', () => {
    const cache = new ByteRangeCache<string>(64, 16);
    const first = Buffer.from('xx/api/orders');
    cache.set(first, 2, first.length, 'orders');
    const second = Buffer.from('/api/orders--');
    expect(cache.get(second, 0, 11)).toBe('orders');
    expect(cache.get(Buffer.from('/api/ordersX'), 0, 12)).toBeUndefined();
    expect(cache.get(Buffer.from('/api/Orders'), 0, 11)).toBeUndefined();
  });

  it('a key replaced in its slot is no longer answered, and an empty range is a key like any other', () => {
    const cache = new ByteRangeCache<string>(1, 8);
    const bytes = Buffer.from('abcdefgh');
    cache.set(bytes, 0, 4, 'abcd');
    cache.set(bytes, 4, 8, 'efgh');
    expect(cache.get(bytes, 0, 4)).toBeUndefined();
    expect(cache.get(Buffer.from('efgh'), 0, 4)).toBe('efgh');
    expect(cache.get(bytes, 2, 2)).toBeUndefined();
  });

  it('keeps its own copy of the key, never a view of the request body it came from', () => {
    const cache = new ByteRangeCache<string>(64, 16);
    const body = Buffer.alloc(1024 * 1024, 0x61);
    body.write('service.name', 100);
    cache.set(body, 100, 112, 'service.name');
    // Keys live in the cache's own block of slots x maxBytes, which a body never becomes.
    const { keyBytes } = cache as unknown as { keyBytes: Uint8Array };
    expect(keyBytes.buffer.byteLength).toBe(64 * 16);
    expect(keyBytes.buffer).not.toBe(body.buffer);
    // A body reused or overwritten afterwards (pooled buffers) does not change what the cache answers.
    body.fill(0x62, 100, 112);
    expect(cache.get(Buffer.from('service.name'), 0, 12)).toBe('service.name');
  });

  it('tells apart keys that differ in any one byte, whatever their length and offset', () => {
    const cache = new ByteRangeCache<number>(1, 32);
    for (let length = 0; length <= 32; length++) {
      // An odd offset into a larger block: words are read unaligned from the request body.
      const body = new Uint8Array(64).map((_, i) => (i * 37 + length) & 0xff).subarray(3);
      const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
      cache.set(body, 5, 5 + length, length);
      expect(cache.get(body, 5, 5 + length, view)).toBe(length);
      for (let changed = 5; changed < 5 + length; changed++) {
        body[changed]! ^= 0x10;
        expect(cache.get(body, 5, 5 + length, view), `length ${length}, byte ${changed}`).toBeUndefined();
        expect(cache.get(body, 5, 5 + length), `length ${length}, byte ${changed}`).toBeUndefined();
        body[changed]! ^= 0x10;
      }
    }
  });
});

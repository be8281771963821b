import fs from 'node:fs';
import koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { fixMallocThresholds, releaseFreedMemory } from '../../src/server/native-memory.js';

const glibc = process.platform === 'linux' && fs.existsSync('/proc/self/status') && canLoadLibc();

function canLoadLibc(): boolean {
  try {
    koffi.load('libc.so.6');
    return true;
  } catch {
    return false;
  }
}

function residentAnonymousMb(): number {
  const line = fs
    .readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('RssAnon:'));
  return Number(line?.split(/\s+/)[1]) / 1024;
}

describe.skipIf(!glibc)('native memory (glibc)', () => {
  it('fixes the thresholds unless GLIBC_TUNABLES sets malloc options of its own', async () => {
    expect(await fixMallocThresholds(undefined)).toBe(true);
    expect(await fixMallocThresholds('glibc.pthread.rseq=0')).toBe(true);
    expect(await fixMallocThresholds('glibc.malloc.arena_max=2')).toBe(false);
  });

  it('returns memory freed inside a malloc arena, which glibc alone keeps', async () => {
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const free = libc.func('void free(void *ptr)');
    const memset = libc.func('void *memset(void *s, int c, size_t n)');
    // 640 blocks of 100 KB (below the mmap threshold, so inside the arena), written so that they
    // are resident; the last stays allocated so that the freed ones are not at the heap's top,
    // which glibc would return by itself.
    const size = 100 * 1024;
    const blocks = Array.from({ length: 640 }, () => {
      const block = malloc(size);
      memset(block, 1, size);
      return block;
    });
    const pinned = blocks.pop();
    for (const block of blocks) free(block);
    const freedMb = (blocks.length * size) / 1024 / 1024;

    const before = residentAnonymousMb();
    expect(await releaseFreedMemory()).toBe(true);
    const after = residentAnonymousMb();
    free(pinned);

    expect(before - after).toBeGreaterThan(freedMb * 0.75);
  });
});

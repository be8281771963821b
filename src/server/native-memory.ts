/**
 * What glibc's allocator keeps of memory the process has freed.
 *
 * chDB's statements run on Node's thread pool and allocate through glibc's malloc, which gives
 * each thread its own arena. Freed memory stays in the arena (only the top of a heap is ever
 * returned), and glibc raises its mmap threshold after each large free, so later large buffers
 * are carved from the arenas too. After a first start (migrations on both stores) the arenas
 * held 45–90 MB of free memory, which made the idle figure swing between 470 and 535 MB
 * (docs/PERFORMANCE.md, "glibc's arenas"). Two calls fix it: a fixed mmap and trim threshold
 * before the engines load (large buffers are mapped and returned on free, as glibc does by
 * default until its first adjustment), and malloc_trim(0) once the service is ready and then
 * every few minutes, which returns the free pages inside every arena.
 *
 * glibc has no JavaScript binding; koffi (a foreign function interface with prebuilt binaries)
 * calls it. Elsewhere (macOS, musl) this is a no-op; an operator's GLIBC_TUNABLES wins over the
 * thresholds.
 */

/** mallopt parameters, from glibc's malloc.h. */
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;
/** glibc's initial mmap threshold, kept fixed instead of growing to 32 MB. */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;
/** How often the free pages of the arenas are returned while the service runs. */
export const TRIM_INTERVAL_MS = 5 * 60_000;

interface Glibc {
  mallopt(parameter: number, value: number): number;
  mallocTrim(pad: number): number;
}

let glibc: Promise<Glibc | null> | undefined;

function loadGlibc(): Promise<Glibc | null> {
  glibc ??= (async () => {
    if (process.platform !== 'linux') return null;
    try {
      const { default: koffi } = await import('koffi');
      const libc = koffi.load('libc.so.6');
      const mallopt = libc.func('int mallopt(int param, int value)');
      const mallocTrim = libc.func('int malloc_trim(size_t pad)');
      return {
        mallopt: (parameter, value) => mallopt(parameter, value) as number,
        mallocTrim: (pad) => mallocTrim(pad) as number,
      };
    } catch {
      return null; // not glibc (musl), or no prebuilt koffi for this platform
    }
  })();
  return glibc;
}

/**
 * Fixes glibc's mmap and trim thresholds. Call before the engines load; true when applied.
 * `tunables` is the process's GLIBC_TUNABLES: an operator's malloc settings there are kept.
 */
export async function fixMallocThresholds(tunables: string | undefined): Promise<boolean> {
  if (tunables?.includes('glibc.malloc.')) return false;
  const libc = await loadGlibc();
  if (!libc) return false;
  return (
    libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) === 1 &&
    libc.mallopt(M_TRIM_THRESHOLD, MMAP_THRESHOLD_BYTES) === 1
  );
}

/** Returns the free pages of every malloc arena to the system; false where there is no glibc. */
export async function releaseFreedMemory(): Promise<boolean> {
  const libc = await loadGlibc();
  if (!libc) return false;
  libc.mallocTrim(0);
  return true;
}

/** Releases freed memory now and every TRIM_INTERVAL_MS; the returned function stops it. */
export function keepReleasingFreedMemory(): () => void {
  void releaseFreedMemory();
  const timer = setInterval(() => void releaseFreedMemory(), TRIM_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

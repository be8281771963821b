/**
 * How V8 sizes the old generation in a service process.
 *
 * V8 sets the next old-generation limit from the live size times a growing factor it picks to keep
 * the main thread's share of GC time small; it does not count the helper threads that mark
 * concurrently. Under ingest load that factor stayed near its minimum (a limit ~20 MB above ~45 MB
 * live), so a mark-compact ran every ~300 ms and its concurrent marking took about half of one
 * of the two cores from chDB and the main thread (docs/PERFORMANCE.md, "The old generation's
 * growing factor"). A fixed factor of 2 makes them about half as frequent for some tens of MB of
 * heap under load. Applied once the service is ready, so start-up (and its idle memory) keeps
 * V8's defaults.
 */
import v8 from 'node:v8';

/** The old generation may grow to twice its live size before the next mark-compact. */
export const HEAP_GROWING_PERCENT = 100;

export function useServiceHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * The new rows of one live-tail poll (live-tail.ts), kept apart from the hook and free of imports
 * so it can be tested against the real route without a browser.
 */

/** Rows asked for per request of a poll. */
export const POLL_PAGE_SIZE = 500;

/**
 * The rows of a poll not seen before, newest first: page after page (newest first) while the
 * answer says there is more, until `max` new ones, so a burst or a long pause is not cut to its
 * newest page. Pages shift as rows arrive meanwhile; a row answered twice counts once.
 */
export async function freshRows<Row>(
  fetchPage: (page: number) => Promise<{ items: Row[]; hasMore: boolean }>,
  keyOf: (row: Row) => string,
  seen: ReadonlySet<string>,
  max: number,
): Promise<Row[]> {
  const fresh: Row[] = [];
  const keys = new Set(seen);
  for (let page = 1; fresh.length < max; page++) {
    const answer = await fetchPage(page);
    for (const row of answer.items) {
      const key = keyOf(row);
      if (keys.has(key)) continue;
      keys.add(key);
      fresh.push(row);
    }
    if (!answer.hasMore || answer.items.length === 0) break;
  }
  return fresh.slice(0, max);
}

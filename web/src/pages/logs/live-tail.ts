/**
 * Live tail: polls the log route every POLL_MS for rows newer than the newest one seen, asking
 * OVERLAP_MS further back so a row stored late (or with the same millisecond) is not missed;
 * rows answered twice are dropped by their identity (rowKey); a poll pages on while the answer has
 * more (freshRows), so a burst is not cut to one page. Keeps the newest MAX_ROWS and the
 * arrival rate over the last RATE_WINDOW_MS: only rows newer than the newest one held when a poll
 * starts count as arrivals (the overlap also answers older rows that were not on screen, which did
 * not just arrive), and the first poll, which fills in around the rows on screen, counts none. While `paused` (the person scrolled away from the
 * top) it does not poll, so the rows under their eyes stay put.
 */
import { useEffect, useRef, useState } from 'react';
import { api, read } from '@/lib/api';
import { freshRows, POLL_PAGE_SIZE } from './fresh-rows';
import { rowKey } from './search';
import type { LogPage, LogRecord, LogSearchBody } from './types';

export const POLL_MS = 2_000;
export const OVERLAP_MS = 5_000;
export const MAX_ROWS = 2_000;
const RATE_WINDOW_MS = 10_000;
/** Where the first poll starts when nothing was seen yet. */
const FIRST_LOOK_MS = 60_000;

export interface LiveTail {
  rows: LogRecord[];
  /** Rows per second over the last ten seconds (or since the tail started, when shorter). */
  rate: number;
  error: unknown;
}

const newestFirst = (a: LogRecord, b: LogRecord) =>
  (a.timestamp ?? '') < (b.timestamp ?? '') ? 1 : (a.timestamp ?? '') > (b.timestamp ?? '') ? -1 : 0;

/** `seed` (the rows on screen when the tail starts) is read once per start. */
export function useLiveTail({
  enabled,
  paused,
  projectId,
  filters,
  seed,
}: {
  enabled: boolean;
  paused: boolean;
  projectId: string;
  filters: Omit<LogSearchBody, 'pagination'>;
  seed: LogRecord[];
}): LiveTail {
  const [state, setState] = useState<LiveTail>({ rows: [], rate: 0, error: null });
  const seedRef = useRef(seed);
  seedRef.current = seed;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const filterKey = JSON.stringify(filters);

  useEffect(() => {
    if (!enabled) return;
    const body = JSON.parse(filterKey) as Omit<LogSearchBody, 'pagination'>;
    let rows = [...seedRef.current].sort(newestFirst).slice(0, MAX_ROWS);
    const arrivals: Array<{ at: number; count: number }> = [];
    /** When the rate starts counting: the end of the first poll. */
    let countingSince: number | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ rows, rate: 0, error: null });

    const poll = async () => {
      if (pausedRef.current) return;
      const now = Date.now();
      const newestSeen = rows[0]?.timestamp;
      const newest = newestSeen ? Date.parse(newestSeen) : now - FIRST_LOOK_MS;
      try {
        const range = {
          fromDate: new Date(Math.min(newest, now) - OVERLAP_MS).toISOString(),
          // A little past now: a sender's clock slightly ahead of ours is still tailed.
          toDate: new Date(now + OVERLAP_MS).toISOString(),
        };
        const fresh = await freshRows(
          (page) =>
            read<LogPage>(
              api.POST('/api/logs', {
                params: { query: { projectId } },
                body: {
                  ...body,
                  ...range,
                  orderBy: 'timestamp',
                  sortDirection: 'desc',
                  pagination: { page, pageSize: POLL_PAGE_SIZE },
                },
              }),
            ),
          rowKey,
          new Set(rows.map(rowKey)),
          MAX_ROWS,
        );
        if (stopped) return;
        rows = [...fresh, ...rows].sort(newestFirst).slice(0, MAX_ROWS);
        const at = Date.now();
        if (countingSince === undefined) {
          countingSince = at;
        } else {
          const arrived = newestSeen
            ? fresh.filter((row) => row.timestamp != null && Date.parse(row.timestamp) > newest).length
            : fresh.length;
          arrivals.push({ at, count: arrived });
        }
        while (arrivals.length > 0 && arrivals[0]!.at < at - RATE_WINDOW_MS) arrivals.shift();
        const seconds = Math.max(1, Math.min(RATE_WINDOW_MS, at - countingSince) / 1000);
        const rate = arrivals.reduce((sum, arrival) => sum + arrival.count, 0) / seconds;
        setState({ rows, rate, error: null });
      } catch (error) {
        if (!stopped) setState((previous) => ({ ...previous, error }));
      }
    };

    const loop = async () => {
      await poll();
      if (!stopped) timer = setTimeout(() => void loop(), POLL_MS);
    };
    void loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [enabled, projectId, filterKey]);

  return state;
}

/**
 * The live tail's poll (web/src/pages/logs/fresh-rows.ts) against the real log route: a burst
 * larger than one page arrives whole, rows already shown are not answered again, and `max` bounds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRows, POLL_PAGE_SIZE } from '../../web/src/pages/logs/fresh-rows.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

const BURST = POLL_PAGE_SIZE * 2 + 137;

interface LogPage {
  items: Array<{ timestamp: string; body: string }>;
  hasMore: boolean;
}
/** The page's identity of a row (search.ts's rowKey also has the fields these rows leave empty). */
const rowKey = (row: LogPage['items'][number]) => `${row.timestamp}|${row.body}`;

describe('live tail poll', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  const now = Date.now();
  beforeAll(async () => {
    service = await startTestService();
    owner = await registerUser(service.app);
    const logRecords = Array.from({ length: BURST }, (_, i) => ({
      timeUnixNano: String(BigInt(now - 10_000 + i) * 1_000_000n),
      severityNumber: 9,
      body: { stringValue: `burst record ${i}` },
    }));
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/otel/v1/logs',
      headers: { authorization: `Bearer ${owner.project.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords }] }] }),
    });
    expect(response.statusCode).toBe(200);
  });
  afterAll(async () => service?.close());

  const fetchPage = async (page: number): Promise<LogPage> => {
    const response = await service.app.inject({
      method: 'POST',
      url: `/api/logs?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        fromDate: new Date(now - 60_000).toISOString(),
        toDate: new Date(now + 5_000).toISOString(),
        orderBy: 'timestamp',
        sortDirection: 'desc',
        pagination: { page, pageSize: POLL_PAGE_SIZE },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LogPage;
  };

  it('pages through a burst larger than one page, newest first, each row once', async () => {
    const rows = await freshRows(fetchPage, rowKey, new Set(), 2_000);
    expect(rows).toHaveLength(BURST);
    expect(rows[0]!.body).toBe(`burst record ${BURST - 1}`);
    expect(rows.at(-1)!.body).toBe('burst record 0');
    expect(new Set(rows.map(rowKey)).size).toBe(BURST);
  });

  it('leaves out the rows already shown, and stops at max', async () => {
    const shown = await freshRows(fetchPage, rowKey, new Set(), 300);
    expect(shown.map((row) => row.body)).toEqual(
      Array.from({ length: 300 }, (_, i) => `burst record ${BURST - 1 - i}`),
    );
    const rest = await freshRows(fetchPage, rowKey, new Set(shown.map(rowKey)), 2_000);
    expect(rest).toHaveLength(BURST - 300);
    expect(rest[0]!.body).toBe(`burst record ${BURST - 301}`);
  });
});

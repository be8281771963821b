/**
 * The hourly endpoint rollup answers exactly what the raw table answers: endpoint lists, the
 * grouped list, stats and hour-bucketed dashboard series are the same before and after rolling,
 * after a re-send (which the raw table deduplicates and a plain materialized view would count
 * twice), and after late rows land in an hour already rolled; a range's partial hours read raw.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEndpoints } from '../../../src/api/telemetry/endpoints.js';
import { MAX_MARKED_HOURS_PER_REQUEST } from '../../../src/application/rollup-marks.js';
import { markUnknownHours } from '../../../src/store/telemetry/queries/rollups.js';
import { observeQueries } from '../../../src/store/telemetry/queries/run.js';
import { ROLLUP_MARK_ROWS, rowsOf } from '../../../src/store/telemetry/rows.js';
import { registerUser, reportTraces, startTestService, type TestService } from '../../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../../support/telemetry-engines.js';

const HOUR = 3600_000;
const MINUTE = 60_000;
const MS = 1_000_000;

export function rollupContract(engine: TelemetryEngineName): void {
  describe(`hourly endpoint rollup on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    // The start of the current hour; the crafted data lies in the three hours from 53 h before it
    // (reads use the rollup for ranges of at least ROLLUP_MIN_HOURS whole hours).
    const end = Date.now();
    const top = Math.floor(end / HOUR) * HOUR;
    const at = (ms: number) => new Date(ms).toISOString();
    const trace = (endpoint: string, recordedAt: number, durationMs: number, statusCode = 200) => ({
      id: randomUUID(),
      endpoint,
      duration: durationMs * MS,
      recordedAt: at(recordedAt),
      statusCode,
      bodySize: 1,
      clientIP: '',
    });
    const first = [
      trace('GET /a', top - 53 * HOUR + 10 * MINUTE, 50),
      trace('GET /a', top - 53 * HOUR + 11 * MINUTE, 200),
      trace('GET /a', top - 53 * HOUR + 12 * MINUTE, 2000, 500),
      trace('GET /a', top - 52 * HOUR + 10 * MINUTE, 400),
      trace('POST /a', top - 52 * HOUR + 11 * MINUTE, 30, 201),
      ...[1, 2, 3, 4].map((i) => trace('GET /b', top - 51 * HOUR + i * MINUTE, 10 * i, 404)),
      // In the current hour even when the run starts in its first seconds (end - 30 s could fall in the previous one).
      trace('GET /b', top + Math.floor((end - top) / 2), 5),
    ];

    const report = async (traces: unknown[]) => {
      const response = await reportTraces(service.app, owner.project.token, traces);
      expect(response.statusCode, response.body).toBe(200);
    };
    const read = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await service.app.inject({
        method,
        url: `${url}${url.includes('?') ? '&' : '?'}projectId=${owner.project.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    /** Every answer the rollup serves, over a range of whole and partial hours, and the statement tags used. */
    const answers = async () => {
      const tags: string[] = [];
      observeQueries((tag) => tags.push(tag));
      try {
        const range = { fromDate: at(top - 54 * HOUR - 7 * MINUTE), toDate: at(end) };
        const threeDays = { fromDate: at(top - 72 * HOUR), toDate: at(top) };
        return {
          endpoints: (await read('POST', '/api/endpoints', { ...range, pagination: { page: 1, pageSize: 50 } })).items,
          grouped: (await read('POST', '/api/endpoints/grouped', range)).items,
          stats: await read('POST', '/api/stats', range),
          dashboard: await read('GET', `/api/dashboard?fromDate=${threeDays.fromDate}&toDate=${threeDays.toDate}`),
          overview: await read('GET', `/api/dashboard/overview?fromDate=${range.fromDate}&toDate=${range.toDate}`),
          tags,
        };
      } finally {
        observeQueries(null);
      }
    };
    const withoutTags = ({ tags: _tags, ...rest }: Awaited<ReturnType<typeof answers>>) => rest;

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env, ROLLUP_INTERVAL_SECONDS: '0' });
      owner = await registerUser(service.app);
      await report(first);
    });
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('answers the same from the rollup as from the raw table, and uses it for whole rolled hours', async () => {
      const raw = await answers();
      expect(raw.tags).toContain('endpoints.list');
      const a = raw.endpoints.find((item: { name: string }) => item.name === 'GET /a');
      expect(a).toMatchObject({ requests: 4, serverErrors: 1 });
      expect(raw.stats).toMatchObject({ requests: 10, serverErrors: 1, clientErrors: 4 });
      expect(raw.overview.stats).toEqual(raw.stats);
      expect(raw.dashboard.requests.reduce((sum: number, n: number) => sum + n, 0)).toBe(9);

      // The three crafted hours ended more than ten minutes ago; the current one has not.
      expect(await service.services.rollups.runOnce()).toBe(3);
      expect(await service.services.rollups.runOnce()).toBe(0);
      const rolled = await answers();
      expect(rolled.tags).toEqual(
        expect.arrayContaining(['endpoints.list.rollup', 'endpoints.grouped.rollup', 'endpoints.list.total.rollup']),
      );
      expect(withoutTags(rolled)).toEqual(withoutTags(raw));
      const rows = await service.services.telemetry.query<{ n: number }>(
        'SELECT toUInt64(sum(requests)) AS n FROM endpoint_hourly FINAL WHERE project_id = {p:UUID}',
        { p: owner.project.id },
      );
      expect(rows[0]!.n).toBe(9);
      // The rolled hours are answered from the rollup: with their raw rows gone the answers stand.
      await service.services.telemetry.command(
        'DELETE FROM endpoints WHERE project_id = {p:UUID} AND recorded_at < fromUnixTimestamp64Milli({before:Int64})',
        {
          p: owner.project.id,
          before: top - 50 * HOUR,
        },
      );
      expect(withoutTags(await answers())).toEqual(withoutTags(raw));
    });

    it('counts a re-sent frame once, before and after the re-roll it triggers', async () => {
      const before = withoutTags(await answers());
      await report(first);
      expect(withoutTags(await answers())).toEqual(before);
      // The re-send marked its three closed hours; the re-roll reads them deduplicated.
      expect(await service.services.rollups.runOnce()).toBe(3);
      expect(withoutTags(await answers())).toEqual(before);
    });

    it('counts late rows in a rolled hour at once, and after the re-roll', async () => {
      await report([trace('GET /a', top - 52 * HOUR + 30 * MINUTE, 80)]);
      const late = await answers();
      expect(late.endpoints.find((item: { name: string }) => item.name === 'GET /a')).toMatchObject({ requests: 5 });
      expect(late.stats).toMatchObject({ requests: 11 });
      expect(await service.services.rollups.runOnce()).toBe(1);
      const rerolled = await answers();
      expect(rerolled.tags).toContain('endpoints.list.rollup');
      expect(withoutTags(rerolled)).toEqual(withoutTags(late));
    });

    it('reads the partial hours of a range raw', async () => {
      // From 15 minutes into the hour 52 h back: of that hour only the late row at :30 is in range.
      const items = (
        await read('POST', '/api/endpoints', { fromDate: at(top - 52 * HOUR + 15 * MINUTE), toDate: at(end) })
      ).items;
      expect(
        Object.fromEntries(items.map((item: { name: string; requests: number }) => [item.name, item.requests])),
      ).toEqual({ 'GET /a': 1, 'GET /b': 5 });
    });

    it('reads raw for an Apdex threshold or a filter the rollup does not keep', async () => {
      const tags: string[] = [];
      observeQueries((tag) => tags.push(tag));
      try {
        const range = { fromDate: at(top - 54 * HOUR), toDate: at(end) };
        const custom = (await read('POST', '/api/endpoints', { ...range, apdexThresholdMs: 100 })).items;
        const slow = (
          await read('POST', '/api/endpoints', { ...range, filters: [{ field: 'statusCode', op: 'gte', value: 500 }] })
        ).items;
        const byRoute = (
          await read('POST', '/api/endpoints', { ...range, filters: [{ field: 'route', op: 'eq', value: '/a' }] })
        ).items;
        expect(tags.filter((tag) => tag.startsWith('endpoints.'))).toEqual([
          'endpoints.list',
          'endpoints.list',
          'endpoints.list.rollup',
        ]);
        expect(custom.find((item: { name: string }) => item.name === 'GET /a')).toMatchObject({ requests: 5 });
        expect(slow.map((item: { name: string; requests: number }) => [item.name, item.requests])).toEqual([
          ['GET /a', 1],
        ]);
        expect(byRoute.map((item: { name: string }) => item.name).sort()).toEqual(['GET /a', 'POST /a']);
      } finally {
        observeQueries(null);
      }
    });

    it('stays exact when current and stale hours alternate past the spelled-out ranges', async () => {
      // 140 hours of one row each, from 200 h back, all rolled; then every other hour is marked
      // stale (70 gaps, more than the raw part spells out as ranges). Sent in requests of 35
      // hours, within the hours one request marks.
      const base = top - 200 * HOUR;
      const many = Array.from({ length: 140 }, (_, i) => trace('GET /many', base + i * HOUR + 5 * MINUTE, 10 + i));
      for (let i = 0; i < many.length; i += 35) await report(many.slice(i, i + 35));
      expect(await service.services.rollups.runOnce()).toBe(140);
      const range = { fromDate: at(base), toDate: at(base + 140 * HOUR) };
      const rolledAnswer = (await read('POST', '/api/endpoints', range)).items;
      await service.services.writer.write([
        rowsOf(
          ROLLUP_MARK_ROWS,
          Array.from({ length: 70 }, (_, i) => ({
            tableName: 'endpoints' as const,
            projectId: owner.project.id,
            hour: (base + 2 * i * HOUR) / 1000,
          })),
        ),
      ]);
      const mixed = (await read('POST', '/api/endpoints', range)).items;
      expect(mixed).toEqual(rolledAnswer);
      expect(mixed).toEqual([expect.objectContaining({ name: 'GET /many', requests: 140 })]);
    });

    it('marks a live hour once per process, and an hour that ended on every write', async () => {
      // The latest mark of an hour (rows of rollup_hours may be merged at any time, so not a count).
      const lastMark = async (hour: number) =>
        (
          await service.services.telemetry.query<{ at: string }>(
            'SELECT toString(max(marked_at)) AS at FROM rollup_hours WHERE project_id = {p:UUID} AND hour = toDateTime({h:UInt32})',
            { p: owner.project.id, h: hour / 1000 },
          )
        )[0]!.at;
      const live = Date.now() - 1000;
      const liveHour = Math.floor(live / HOUR) * HOUR;
      await report([trace('GET /live', live, 5)]);
      const liveMark = await lastMark(liveHour);
      await report([trace('GET /live', live + 100, 5)]);
      expect(await lastMark(liveHour)).toBe(liveMark);
      const closed = top - 52 * HOUR;
      await report([trace('GET /late', closed + 40 * MINUTE, 5)]);
      const lateMark = await lastMark(closed);
      await report([trace('GET /late', closed + 41 * MINUTE, 5)]);
      expect((await lastMark(closed)) > lateMark).toBe(true);
    });

    it('marks at most MAX_MARKED_HOURS_PER_REQUEST hours of a request, the latest within the mark window, and stores its rows', async () => {
      const spread = await registerUser(service.app);
      const now = Date.now();
      const pastHours = 5000;
      const traces = [
        ...Array.from({ length: pastHours }, (_, i) => trace('GET /spread', now - (i + 1) * HOUR, 5)),
        ...[0, 1, 2].map((i) => trace('GET /spread', Date.UTC(2100, 0, 1, i), 5)),
      ];
      const response = await reportTraces(service.app, spread.project.token, traces);
      expect(response.statusCode, response.body).toBe(200);

      // Every row is stored; those older than the tables' 90-day TTL expire by it, marks or not.
      const retained = 89 * 24;
      const [stored] = await service.services.telemetry.query<{ past: string; future: string }>(
        `SELECT toString(countIf(recorded_at >= fromUnixTimestamp64Milli({since:Int64}) AND recorded_at < now64())) AS past,
                toString(countIf(toYear(recorded_at) = 2100)) AS future
           FROM endpoints FINAL WHERE project_id = {p:UUID}`,
        { p: spread.project.id, since: now - retained * HOUR },
      );
      expect(stored).toEqual({ past: String(retained), future: '3' });
      const marked = await service.services.telemetry.query<{ hour: number }>(
        'SELECT DISTINCT toUnixTimestamp(hour) AS hour FROM rollup_hours WHERE project_id = {p:UUID} ORDER BY hour DESC',
        { p: spread.project.id },
      );
      // The latest hours of the request: the 48 hours before the current one.
      const latest = Array.from(
        { length: MAX_MARKED_HOURS_PER_REQUEST },
        (_, i) => (Math.floor((now - (i + 1) * HOUR) / HOUR) * HOUR) / 1000,
      );
      expect(marked.map((row) => row.hour)).toEqual(latest);

      // The job's start marks the hours it does not know within the same window, the rows of
      // 2100 left out.
      await service.services.telemetry.command('DELETE FROM rollup_hours WHERE project_id = {p:UUID}', {
        p: spread.project.id,
      });
      await markUnknownHours(service.services.telemetry);
      const [known] = await service.services.telemetry.query<{ hours: string; last: number }>(
        'SELECT toString(uniqExact(hour)) AS hours, toUnixTimestamp(max(hour)) AS last FROM rollup_hours WHERE project_id = {p:UUID}',
        { p: spread.project.id },
      );
      expect(Number(known!.hours)).toBeGreaterThanOrEqual(retained);
      expect(known!.last).toBe(latest[0]);
      // Thousands of hours to roll: not the business of the tests after this one.
      await service.services.telemetry.command('DELETE FROM rollup_hours WHERE project_id = {p:UUID}', {
        p: spread.project.id,
      });
    });

    it('stores and rolls around instants outside the hours the rollup can hold (before 1970, after 2106)', async () => {
      const outside = [trace('GET /epoch', Date.UTC(1900, 0, 1), 5), trace('GET /epoch', Date.UTC(2200, 0, 1), 5)];
      await report(outside);
      await service.services.rollups.runOnce();
      const rows = await service.services.telemetry.query<{ n: string }>(
        "SELECT toString(count()) AS n FROM rollup_hours WHERE project_id = {p:UUID} AND (hour = toDateTime(0, 'UTC') OR hour >= toDateTime('2106-01-01', 'UTC'))",
        { p: owner.project.id },
      );
      expect(rows).toEqual([{ n: '0' }]);
      // Ranges of at least ROLLUP_MIN_HOURS across either end of the rollup's hours, read by the
      // list route's own function with no retention: through the API a plan keeps no 1900 row.
      const unretained = { now: Date.now(), keptFromMs: Number.NEGATIVE_INFINITY };
      for (const [fromDate, toDate] of <Array<[string, string]>>[
        ['1899-12-30T00:00:00Z', '1900-01-03T00:00:00Z'],
        ['1969-12-30T00:00:00Z', '1970-01-03T00:00:00Z'],
        ['2199-12-30T00:00:00Z', '2200-01-03T00:00:00Z'],
      ]) {
        const body = { fromDate, toDate, pagination: { page: 1, pageSize: 50 } };
        const listed = await listEndpoints(service.services, owner.project.id, body, 'name', unretained);
        const expected = fromDate.startsWith('1969') ? [] : [['GET /epoch', 1]];
        expect(
          listed.items.map((item: { name: string; requests: number }) => [item.name, item.requests]),
          fromDate,
        ).toEqual(expected);
      }
      const throughApi = await read('POST', '/api/endpoints', {
        fromDate: '1899-12-30T00:00:00Z',
        toDate: '1900-01-03T00:00:00Z',
      });
      expect(throughApi.items).toEqual([]);
    });
  });
}

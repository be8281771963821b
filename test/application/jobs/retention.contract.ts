/**
 * Plans' retention applied: a project's telemetry rows and stored objects older than the days its
 * organization's plan keeps (hot + warm) are deleted, per organization, while a plan keeping
 * longer loses nothing and no plan outlives a table's TTL. Data goes in through the real ingest
 * and upload routes, one organization on the default plan and one subscribed to a longer one; the
 * service clock moves forward (rows are written at real time, the cut-off is the clock's). Run
 * on both telemetry engines.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanCatalogue } from '../../../src/core/plans.js';
import { usageMonth } from '../../../src/ingest/usage.js';
import { applyProviderSubscription } from '../../../src/store/meta/repositories/billing.js';
import { projectIngestUsage } from '../../../src/store/meta/repositories/ingest-usage.js';
import { KEPT_TABLES, PURGED_TABLES } from '../../../src/store/telemetry/queries/purge.js';
import { RETAINED_TABLES, ttlDaysOf } from '../../../src/store/telemetry/queries/retention.js';
import { writePlansFile } from '../../support/access.js';
import { fillProject, objectsOf, uploadDartSymbols, uploadTokenOf, type Project } from '../../support/project-data.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../../support/telemetry-engines.js';

const DAY_MS = 24 * 3600 * 1000;

const limits = (hot: number, warm: number) => ({
  projects: 10,
  seats: 10,
  ingest_gb_monthly: 10,
  retention_days_hot: hot,
  retention_days_warm: warm,
  synthetics_checks: 0,
  session_recordings: 1000,
});
const CATALOGUE: PlanCatalogue = {
  defaultPlan: 'free',
  plans: [
    {
      code: 'free',
      name: 'Free',
      limits: limits(14, 0),
      currency: 'usd',
      prices: { month: 0, year: 0 },
      stripePrices: {},
    },
    // 40 hot + 20 warm: kept 60 days.
    {
      code: 'team',
      name: 'Team',
      limits: limits(40, 20),
      currency: 'usd',
      prices: { month: 4900, year: null },
      stripePrices: {},
    },
  ],
};

export function retentionContract(engine: TelemetryEngineName): void {
  describe(`plan retention on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let free: Project;
    let team: Project;
    let clock = Date.now();
    const written = Date.now();
    const age = (days: number) => {
      clock = written + days * DAY_MS;
    };

    /** Rows per retained table that has any for the project. */
    async function rowsOf(projectId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const { table } of RETAINED_TABLES) {
        const [row] = await service.services.telemetry.query<{ n: string }>(
          `SELECT toString(count()) AS n FROM ${table} WHERE project_id = {p:UUID}`,
          { p: projectId },
        );
        if (Number(row!.n) > 0) counts[table] = Number(row!.n);
      }
      return counts;
    }
    const families = async (projectId: string) =>
      [...new Set((await objectsOf(service, projectId)).map((key) => key.split('/')[0]))].sort();

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService(
        { ...environment.env, PLANS_FILE: writePlansFile(CATALOGUE) },
        { now: () => clock },
      );
      const freeOwner = await registerUser(service.app);
      const teamOwner = await registerUser(service.app);
      await service.services.meta.query("UPDATE projects SET framework = 'flutter'");
      await service.services.meta.transaction((tx) =>
        applyProviderSubscription(
          tx,
          {
            organizationId: teamOwner.organization.id,
            provider: 'stripe',
            providerSubscriptionId: 'sub_retention',
            providerCustomerId: 'cus_retention',
            planCode: 'team',
            status: 'active',
            interval: 'month',
            currentPeriodStart: new Date(written),
            currentPeriodEnd: new Date(written + 400 * DAY_MS),
            cancelAtPeriodEnd: false,
            canceledAt: null,
            eventAt: new Date(written),
          },
          new Date(written),
        ),
      );
      const project = async (owner: Awaited<ReturnType<typeof registerUser>>): Promise<Project> => ({
        id: owner.project.id,
        token: owner.project.token,
        uploadToken: await uploadTokenOf(service, owner.project.id),
      });
      free = await project(freeOwner);
      team = await project(teamOwner);
      for (const each of [free, team]) {
        await uploadDartSymbols(service, each);
        await fillProject(service, each);
      }
    }, 120_000);
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('knows every table holding records, with the time column and days of its TTL', async () => {
      const tables = await service.services.telemetry.query<{ name: string; engine_full: string }>(
        "SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations' ORDER BY name",
      );
      expect(tables.map((table) => table.name)).toEqual([...PURGED_TABLES, ...KEPT_TABLES].sort());
      const retained = RETAINED_TABLES.map((t) => t.table).sort();
      expect(retained).toEqual(PURGED_TABLES.filter((name) => name !== 'rollup_hours').sort());
      for (const { table, timeColumn, shippedTtlDays } of RETAINED_TABLES) {
        const { engine_full } = tables.find((row) => row.name === table)!;
        expect(engine_full, table).toMatch(new RegExp(`TTL (toDateTime\\(${timeColumn}\\)|${timeColumn}) \\+ `));
        // The job reads the TTL back from the engine: it must read the shipped one.
        expect(ttlDaysOf(engine_full), table).toBe(shippedTtlDays);
      }
    });

    it('deletes nothing while every plan still keeps the data', async () => {
      const before = { free: await rowsOf(free.id), team: await rowsOf(team.id) };
      // Every table fillProject writes, so that what is deleted later is seen to go.
      expect(Object.keys(before.free).sort()).toEqual(
        RETAINED_TABLES.map((t) => t.table)
          .filter((name) => name !== 'endpoint_hourly')
          .sort(),
      );
      expect(await families(free.id)).toEqual(['ai', 'dartsymbols', 'profiles', 'recordings', 'symboltables']);
      age(13);
      expect(await service.services.retention.runOnce()).toEqual({ tableDeletes: 0, objectsDeleted: 0 });
      expect(await rowsOf(free.id)).toEqual(before.free);
      expect(await rowsOf(team.id)).toEqual(before.team);
    });

    it("past 14 days, the free plan's project loses its telemetry and recordings, profiles and conversations; the team plan's keeps all", async () => {
      const teamBefore = await rowsOf(team.id);
      const teamObjects = await objectsOf(service, team.id);
      const month = usageMonth(new Date(written));
      const usage = await projectIngestUsage(service.services.meta, free.id, month);
      age(15);
      const run = await service.services.retention.runOnce();
      expect(run.tableDeletes).toBe(10);
      expect(run.objectsDeleted).toBeGreaterThanOrEqual(3);
      expect(await rowsOf(free.id)).toEqual({});
      // Symbol files are not telemetry: a crash from an old release still needs them.
      expect(await families(free.id)).toEqual(['dartsymbols', 'symboltables']);
      // The billing record stays.
      expect(await projectIngestUsage(service.services.meta, free.id, month)).toEqual(usage);
      expect(await rowsOf(team.id)).toEqual(teamBefore);
      expect(await objectsOf(service, team.id)).toEqual(teamObjects);
      // A second run finds nothing left to delete and issues no statement.
      expect(await service.services.retention.runOnce()).toEqual({ tableDeletes: 0, objectsDeleted: 0 });
    });

    it('past 60 days, the team plan (40 hot + 20 warm) loses the tables kept 90 days; the 30-day tables are left to their TTL', async () => {
      const teamBefore = await rowsOf(team.id);
      age(59);
      expect(await service.services.retention.runOnce()).toEqual({ tableDeletes: 0, objectsDeleted: 0 });
      age(61);
      const run = await service.services.retention.runOnce();
      expect(run).toEqual({ tableDeletes: 6, objectsDeleted: 1 });
      const thirtyDayTables: string[] = RETAINED_TABLES.filter((t) => t.shippedTtlDays === 30).map((t) => t.table);
      expect(await rowsOf(team.id)).toEqual(
        Object.fromEntries(Object.entries(teamBefore).filter(([table]) => thirtyDayTables.includes(table))),
      );
      expect(await families(team.id)).toEqual(['dartsymbols', 'profiles', 'recordings', 'symboltables']);
    });

    it("a TTL raised by hand lets the plan's own days apply to that table", async () => {
      // The team plan keeps 60 days; logs were left to their 30-day TTL. An operator keeps logs 120 days.
      const logsBefore = (await rowsOf(team.id)).logs;
      expect(logsBefore).toBeGreaterThan(0);
      await service.services.telemetry.command('ALTER TABLE logs MODIFY TTL toDateTime(timestamp) + INTERVAL 120 DAY');
      const run = await service.services.retention.runOnce();
      expect(run.tableDeletes).toBe(1);
      expect((await rowsOf(team.id)).logs).toBeUndefined();
    });

    it('a session started before the plan keeps goes with its recording, rows and stored events, however late the segments arrived', async () => {
      // Back to the time the rows are written at: a new project on the free plan (14 days).
      clock = Date.now();
      const owner = await registerUser(service.app);
      const late = randomUUID();
      const kept = randomUUID();
      const at = (agoMs: number) => new Date(Date.now() - agoMs).toISOString();
      // The late session began 15 days ago; both sessions' segments arrive now.
      await reportFrame(service.app, owner.project.token, {
        sessions: [
          { id: late, startedAt: at(15 * DAY_MS) },
          { id: kept, startedAt: at(3600_000) },
        ],
        sessionRecordings: [late, kept].map((sessionId) => ({ sessionId, segmentIndex: 0, events: [{ type: 2 }] })),
      });
      const segmentsBySession = async () =>
        (
          await service.services.telemetry.query<{ session_id: string }>(
            'SELECT session_id FROM session_recordings WHERE project_id = {p:UUID}',
            { p: owner.project.id },
          )
        )
          .map((row) => row.session_id)
          .sort();
      const sessionObjects = async () =>
        (await objectsOf(service, owner.project.id)).map((key) => key.split('/')[2]).sort();
      expect(await segmentsBySession()).toEqual([late, kept].sort());
      expect(await sessionObjects()).toEqual([late, kept].sort());

      // One DELETE of the late session's segments, one of the session; its stored events deleted.
      // Before: the segments, received within the 14 days, and their object stayed.
      expect(await service.services.retention.runOnce()).toEqual({ tableDeletes: 2, objectsDeleted: 1 });
      expect(await segmentsBySession()).toEqual([kept]);
      expect(await sessionObjects()).toEqual([kept]);
      expect(await service.services.retention.runOnce()).toEqual({ tableDeletes: 0, objectsDeleted: 0 });
    });
  });
}

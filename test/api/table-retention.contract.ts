/**
 * GET /api/billing/usage says how long each telemetry table keeps a row as the engine has it
 * (`tableRetentionDays`), so that the dashboard tells an operator's TTL, not the migrations'. The
 * TTLs are changed with the ALTER an operator runs (docs/OPERATIONS.md §6) and read back through
 * the route, on both telemetry engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_RETENTION_REFRESH_MS } from '../../src/application/table-retention.js';
import { RETAINED_TABLES } from '../../src/store/telemetry/queries/retention.js';
import { MINUTE, TestClock, bearer, call } from '../support/access.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../support/telemetry-engines.js';

const SHIPPED = Object.fromEntries(RETAINED_TABLES.map((t) => [t.table, t.shippedTtlDays]));

export function tableRetentionContract(engine: TelemetryEngineName): void {
  describe(`the tables' retention in the usage answer on ${engine}`, () => {
    const clock = new TestClock();
    let environment: EngineEnvironment;
    let service: TestService;
    let user: Awaited<ReturnType<typeof registerUser>>;
    const tableRetentionDays = async () => {
      const usage = await call(service.app, { method: 'GET', url: '/api/billing/usage', headers: bearer(user.token) });
      expect(usage.status).toBe(200);
      return usage.body!.usage.tableRetentionDays;
    };

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService(environment.env, { now: clock.now });
      user = await registerUser(service.app);
    });
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it("answers every table's TTL as the migrations ship it", async () => {
      expect(await tableRetentionDays()).toEqual(SHIPPED);
    });

    it('answers a TTL changed by hand, and null for a table left without one, once its answer is a few minutes old', async () => {
      await service.services.telemetry.command(
        'ALTER TABLE sessions MODIFY TTL toDateTime(started_at) + INTERVAL 7 DAY',
      );
      await service.services.telemetry.command('ALTER TABLE profiles REMOVE TTL');
      // Within the refresh interval the process answers what it read.
      clock.advance(TABLE_RETENTION_REFRESH_MS - MINUTE);
      expect(await tableRetentionDays()).toEqual(SHIPPED);
      clock.advance(MINUTE);
      expect(await tableRetentionDays()).toEqual({ ...SHIPPED, sessions: 7, profiles: null });
    });
  });
}

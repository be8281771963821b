/**
 * Stored objects expire with their rows: recordings and profiles after 30 days, AI
 * conversations after 90, symbol files never. The data goes in through the real routes; the
 * service clock moves forward (object write times are real, the cut-off is the clock's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_RETENTION } from '../../../src/application/jobs/object-expiry-job.js';
import { fillProject, objectsOf, uploadDartSymbols, uploadTokenOf, type Project } from '../../support/project-data.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

const DAY_MS = 24 * 3600 * 1000;

describe('object expiry', () => {
  let service: TestService;
  let project: Project;
  let clock = Date.now();
  const families = async () =>
    [...new Set((await objectsOf(service, project.id)).map((key) => key.split('/')[0]))].sort();

  beforeAll(async () => {
    service = await startTestService({}, { now: () => clock });
    const owner = await registerUser(service.app);
    await service.services.meta.query("UPDATE projects SET framework = 'flutter' WHERE id = $1", [owner.project.id]);
    project = {
      id: owner.project.id,
      token: owner.project.token,
      uploadToken: await uploadTokenOf(service, owner.project.id),
    };
    await uploadDartSymbols(service, project);
    await fillProject(service, project);
  }, 60_000);
  afterAll(async () => service?.close());

  it('keeps the same days as the TTL of the table whose rows point to the objects', async () => {
    for (const { table, days } of OBJECT_RETENTION) {
      const [row] = await service.services.telemetry.query<{ engine_full: string }>(
        'SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = {table:String}',
        { table },
      );
      expect(row!.engine_full, table).toMatch(
        new RegExp(`TTL .*\\+ (toIntervalDay\\(${days}\\)|INTERVAL ${days} DAY)`),
      );
    }
  });

  it('deletes nothing young, recordings and profiles after 30 days, AI conversations after 90, symbol files never', async () => {
    expect(await families()).toEqual(['ai', 'dartsymbols', 'profiles', 'recordings', 'symboltables']);
    expect(await service.services.objectExpiry.runOnce()).toBe(0);
    expect(await families()).toEqual(['ai', 'dartsymbols', 'profiles', 'recordings', 'symboltables']);

    clock += 31 * DAY_MS;
    expect(await service.services.objectExpiry.runOnce()).toBeGreaterThanOrEqual(2);
    expect(await families()).toEqual(['ai', 'dartsymbols', 'symboltables']);

    clock += 60 * DAY_MS;
    expect(await service.services.objectExpiry.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await families()).toEqual(['dartsymbols', 'symboltables']);
  });
});

/**
 * Deleting a project removes its data: every telemetry row (but the organization's ingest usage,
 * a billing record) and every stored object — session recordings, OTLP profiles, AI
 * conversations, uploaded symbol files and the symbol tables built from them — while the data of
 * the organization's other project and of another organization stays whole. All of it is sent
 * through the real ingest and upload routes. Run on both telemetry engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectObjectPrefixes } from '../../../src/application/jobs/project-purge-job.js';
import { KEPT_TABLES, PURGED_TABLES } from '../../../src/store/telemetry/queries/purge.js';
import { usageMonth } from '../../../src/ingest/usage.js';
import { projectIngestUsage } from '../../../src/store/meta/repositories/ingest-usage.js';
import { fillProject, objectsOf, uploadDartSymbols, uploadTokenOf, type Project } from '../../support/project-data.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../../support/telemetry-engines.js';

export function projectPurgeContract(engine: TelemetryEngineName): void {
  describe(`deleting a project purges its data on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    let victim: Project;
    let sibling: Project;
    let stranger: Project;
    // The service clock: purges wait a settle time after the delete.
    let clock = Date.now();
    const SETTLE_MS = 10_000 + 30_000 + 60_000;

    /** Rows per telemetry table that has any for the project. */
    async function rowsOf(projectId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const table of [...PURGED_TABLES, ...KEPT_TABLES]) {
        const [row] = await service.services.telemetry.query<{ n: string }>(
          `SELECT toString(count()) AS n FROM ${table} WHERE project_id = {p:UUID}`,
          { p: projectId },
        );
        if (Number(row!.n) > 0) counts[table] = Number(row!.n);
      }
      return counts;
    }

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env }, { now: () => clock });
      owner = await registerUser(service.app);
      const created = await service.app.inject({
        method: 'POST',
        url: `/api/projects?projectId=${owner.project.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { name: 'Sibling', framework: 'flutter' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const other = await registerUser(service.app);
      await service.services.meta.query("UPDATE projects SET framework = 'flutter'");
      victim = {
        id: owner.project.id,
        token: owner.project.token,
        uploadToken: await uploadTokenOf(service, owner.project.id),
      };
      sibling = {
        id: created.json().id,
        token: created.json().token,
        uploadToken: await uploadTokenOf(service, created.json().id),
      };
      stranger = {
        id: other.project.id,
        token: other.project.token,
        uploadToken: await uploadTokenOf(service, other.project.id),
      };
      for (const project of [victim, sibling, stranger]) {
        await uploadDartSymbols(service, project);
        await fillProject(service, project);
      }
    }, 120_000);
    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('every kind of telemetry and object was stored for each project (so the purge has something to remove)', async () => {
      for (const project of [victim, sibling, stranger]) {
        const rows = await rowsOf(project.id);
        // Every table but the hourly rollup, which a job builds later from closed hours, and the
        // usage table earlier versions wrote (usage is in the metadata store now).
        for (const table of PURGED_TABLES.filter((name) => name !== 'endpoint_hourly')) {
          expect(rows[table], `${table} of ${project.id}`).toBeGreaterThan(0);
        }
        const families = new Set((await objectsOf(service, project.id)).map((key) => key.split('/')[0]));
        expect([...families].sort()).toEqual(['ai', 'dartsymbols', 'profiles', 'recordings', 'symboltables']);
      }
    });

    it('the purged and kept tables are every telemetry table keyed by project', async () => {
      const tables = await service.services.telemetry.query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations' ORDER BY name",
      );
      expect(tables.map((table) => table.name)).toEqual([...PURGED_TABLES, ...KEPT_TABLES].sort());
      for (const prefix of projectObjectPrefixes(victim.id))
        expect(prefix.endsWith(`/${victim.id}/`), prefix).toBe(true);
    });

    it('DELETE removes the project’s rows and objects in the background once ingest has settled, keeps its ingest usage, and touches no other project', async () => {
      const before = {
        sibling: await rowsOf(sibling.id),
        stranger: await rowsOf(stranger.id),
        siblingObjects: await objectsOf(service, sibling.id),
        strangerObjects: await objectsOf(service, stranger.id),
      };
      const month = usageMonth(new Date());
      const usage = await projectIngestUsage(service.services.meta, victim.id, month);
      expect(usage!.requests).toBeGreaterThan(0);
      const deleted = await service.app.inject({
        method: 'DELETE',
        url: `/api/projects?projectId=${victim.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(deleted.json()).toEqual({ status: 'deleted' });
      // Ingest admitted before the delete may still write: the purge waits the settle time.
      expect(await service.services.purges.runOnce()).toBe(0);
      expect(Object.keys(await rowsOf(victim.id)).length).toBeGreaterThan(1);
      clock += SETTLE_MS + 1000;
      expect(await service.services.purges.runOnce()).toBe(1);
      expect(await service.services.meta.query('SELECT project_id FROM project_purges')).toEqual([]);

      expect(await rowsOf(victim.id)).toEqual({});
      // Usage stays billed (the metadata store's usage table has no key to projects).
      expect(await projectIngestUsage(service.services.meta, victim.id, month)).toEqual(usage);
      expect(await objectsOf(service, victim.id)).toEqual([]);
      expect(await rowsOf(sibling.id)).toEqual(before.sibling);
      expect(await rowsOf(stranger.id)).toEqual(before.stranger);
      expect(await objectsOf(service, sibling.id)).toEqual(before.siblingObjects);
      expect(await objectsOf(service, stranger.id)).toEqual(before.strangerObjects);
    });

    it('a purge that fails stays recorded with its error and is done on a later run', async () => {
      // A purge recorded for a project whose data cannot be deleted yet: the object store refuses.
      const project = sibling.id;
      await service.services.meta.query('DELETE FROM projects WHERE id = $1', [project]);
      await service.services.meta.query('INSERT INTO project_purges (project_id, requested_at) VALUES ($1, $2)', [
        project,
        new Date(clock - SETTLE_MS - 1000),
      ]);
      const objects = service.services.objects;
      const realDelete = objects.delete.bind(objects);
      objects.delete = async () => {
        throw new Error('object store unavailable');
      };
      try {
        expect(await service.services.purges.runOnce()).toBe(0);
      } finally {
        objects.delete = realDelete;
      }
      expect(
        await service.services.meta.query('SELECT attempts, last_error FROM project_purges WHERE project_id = $1', [
          project,
        ]),
      ).toEqual([{ attempts: 1, last_error: 'object store unavailable' }]);
      expect(await service.services.purges.runOnce()).toBe(1);
      expect(await rowsOf(project)).toEqual({});
      expect(await projectIngestUsage(service.services.meta, project, usageMonth(new Date()))).not.toBeNull();
      expect(await objectsOf(service, project)).toEqual([]);
      expect(Object.keys(await rowsOf(stranger.id)).length).toBeGreaterThan(2);
    });
  });
}

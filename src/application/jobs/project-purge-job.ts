/**
 * Removes the data of deleted projects: deleting a project (store/meta/repositories/projects.ts)
 * records a purge in the same statement, and this job deletes the project's telemetry rows and
 * stored objects, then the record. A purge waits `settleMs` after the delete, so that ingest
 * requests admitted before it (a token cached up to PROJECT_CACHE_TTL_MS, a body arriving for up
 * to BODY_TIMEOUT_MS) have written their rows. Runs at start and every PURGE_INTERVAL_MS. Every
 * step is safe to repeat, so a crash or a second process at worst repeats work; a failed purge
 * stays recorded (attempts, last_error) and is tried again next run.
 */
import type { MetaDb } from '../../store/meta/types.js';
import { finishPurge, pendingPurges, recordPurgeFailure } from '../../store/meta/repositories/project-purges.js';
import { OBJECT_KEY_FAMILIES, type ObjectStore } from '../../store/objects/index.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import { purgeProjectTelemetry } from '../../store/telemetry/queries/purge.js';
import { TABLE_FORMAT_VERSION } from '../../symbols/table/serialize.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

export const PURGE_INTERVAL_MS = 60_000;
const BATCH = 20;

/**
 * Where a project's objects lie: `<family>/<projectId>/` for session recordings, OTLP profiles,
 * AI conversations, uploaded symbol files and source maps, `symboltables/v<N>/<projectId>/` for the lookup
 * tables built from those files.
 */
export function projectObjectPrefixes(projectId: string): string[] {
  const families = OBJECT_KEY_FAMILIES.filter((family) => family !== 'symboltables').map(
    (family) => `${family}/${projectId}/`,
  );
  const tables = Array.from({ length: TABLE_FORMAT_VERSION }, (_, i) => `symboltables/v${i + 1}/${projectId}/`);
  return [...families, ...tables];
}

/** Deletes every object of the project, a listed page at a time; returns how many. */
export async function deleteProjectObjects(objects: ObjectStore, projectId: string): Promise<number> {
  let deleted = 0;
  for (const prefix of projectObjectPrefixes(projectId)) {
    let after: string | undefined;
    do {
      const page = await objects.list(prefix, after === undefined ? {} : { after });
      for (const key of page.keys) await objects.delete(key);
      deleted += page.keys.length;
      after = page.next;
    } while (after !== undefined);
  }
  return deleted;
}

export interface PurgeStores {
  meta: MetaDb;
  telemetry: TelemetryEngine;
  objects: ObjectStore;
}

export interface PurgeTiming {
  /** How long after the delete a purge waits. */
  settleMs: number;
  now: () => number;
}

/** Resolves runOnce() with the number of projects purged. */
export class ProjectPurgeJob extends PeriodicJob<number> {
  constructor(stores: PurgeStores, timing: PurgeTiming, options: PeriodicJobOptions) {
    super(async (closing) => {
      let purged = 0;
      // Failures stay pending; one pass over what is pending now, so they wait for the next run.
      const pending = await pendingPurges(stores.meta, new Date(timing.now() - timing.settleMs), BATCH);
      for (const { projectId } of pending) {
        if (closing()) break;
        try {
          await purgeProjectTelemetry(stores.telemetry, projectId);
          await deleteProjectObjects(stores.objects, projectId);
          await finishPurge(stores.meta, projectId);
          purged++;
        } catch (error) {
          await recordPurgeFailure(stores.meta, projectId, (error as Error).message);
          options.onError(error);
        }
      }
      return purged;
    }, options);
  }
}

/**
 * Applies each plan's retention: a project's telemetry and stored objects older than the days its
 * organization's plan keeps (retention_days_hot + retention_days_warm, at least one day) are
 * deleted. The tables' TTLs (shipped: 90 days; 30 for logs, sessions, recordings, profiles; read
 * from the engine at each run) still bound every plan: a plan keeping longer keeps the TTL. Runs
 * at start and every RETENTION_INTERVAL_MS, so rows past a plan's retention are gone within that
 * interval; every step is safe to repeat on several processes. A session goes with its recording
 * (rows and stored events), whenever the segments arrived. Symbol files and source maps are not
 * telemetry and never expire here.
 */
import { keptDays } from '../../core/plans.js';
import type { MetaDb } from '../../store/meta/types.js';
import { projectRetentionDays } from '../../store/meta/repositories/billing.js';
import type { ObjectStore } from '../../store/objects/index.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import {
  RECORDING_KEYS_PAGE,
  RETAINED_TABLES,
  deleteRecordingsOfSessionsBefore,
  deleteRowsBefore,
  recordingKeysOfSessionsBefore,
  retainedTableTtlDays,
} from '../../store/telemetry/queries/retention.js';
import { OBJECT_RETENTION, deleteObjectsWrittenBefore } from './object-expiry-job.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

const DAY_MS = 24 * 3600 * 1000;
export const RETENTION_INTERVAL_MS = 3600 * 1000;
/** Projects per DELETE statement, to keep each statement's parameter small. */
const PROJECTS_PER_STATEMENT = 500;

export interface RetentionStores {
  meta: MetaDb;
  telemetry: TelemetryEngine;
  objects: ObjectStore;
  /** The plan of an organization without a subscription. */
  defaultPlan: string;
  now: () => number;
}

export interface RetentionRun {
  /** DELETE statements issued (one per table and group of projects that had old rows). */
  tableDeletes: number;
  objectsDeleted: number;
}

export class RetentionJob extends PeriodicJob<RetentionRun> {
  constructor(stores: RetentionStores, options: PeriodicJobOptions) {
    super(async (closing) => {
      const run: RetentionRun = { tableDeletes: 0, objectsDeleted: 0 };
      // The tables' own TTLs, not the shipped ones: an operator may have changed one by hand.
      const ttlDays = await retainedTableTtlDays(stores.telemetry);
      const ttlOf = (table: string) => ttlDays.get(table) ?? Number.POSITIVE_INFINITY;
      const longestTtl = Math.max(
        ...RETAINED_TABLES.map((t) => ttlOf(t.table)),
        ...OBJECT_RETENTION.map((o) => o.days),
      );
      const byDays = new Map<number, string[]>();
      for (const { projectId, days } of await projectRetentionDays(stores.meta, stores.defaultPlan)) {
        const kept = keptDays(days);
        if (kept >= longestTtl) continue;
        const group = byDays.get(kept);
        if (group) group.push(projectId);
        else byDays.set(kept, [projectId]);
      }
      for (const [days, projectIds] of byDays) {
        const before = stores.now() - days * DAY_MS;
        // Before the sessions go: once they are gone, their late-arriving segments cannot be found.
        if (days < ttlOf('sessions')) {
          for (let i = 0; i < projectIds.length; i += PROJECTS_PER_STATEMENT) {
            const group = projectIds.slice(i, i + PROJECTS_PER_STATEMENT);
            if (!(await deleteRecordingsOfSessions(stores, group, before, closing, run))) return run;
          }
        }
        for (const table of RETAINED_TABLES.filter((t) => days < ttlOf(t.table))) {
          for (let i = 0; i < projectIds.length; i += PROJECTS_PER_STATEMENT) {
            if (closing()) return run;
            const group = projectIds.slice(i, i + PROJECTS_PER_STATEMENT);
            if (await deleteRowsBefore(stores.telemetry, table, group, before)) run.tableDeletes++;
          }
        }
        for (const { prefix } of OBJECT_RETENTION.filter((o) => days < o.days)) {
          for (const projectId of projectIds) {
            if (closing()) return run;
            run.objectsDeleted += await deleteObjectsWrittenBefore(
              stores.objects,
              `${prefix}${projectId}/`,
              new Date(before),
              closing,
            );
          }
        }
      }
      return run;
    }, options);
  }
}

/**
 * Deletes the recordings of the projects' sessions started before `before`, however late their
 * segments arrived: the stored events first, then the rows, so that a run stopped half-way leaves
 * rows the next run finds again, never an object no row names. False when stopped by closing.
 */
async function deleteRecordingsOfSessions(
  stores: RetentionStores,
  projectIds: readonly string[],
  before: number,
  closing: () => boolean,
  run: RetentionRun,
): Promise<boolean> {
  let after: string | undefined;
  do {
    if (closing()) return false;
    const keys = await recordingKeysOfSessionsBefore(stores.telemetry, projectIds, before, after);
    for (const key of keys) await stores.objects.delete(key);
    run.objectsDeleted += keys.length;
    after = keys.length === RECORDING_KEYS_PAGE ? keys.at(-1) : undefined;
  } while (after !== undefined);
  if (await deleteRecordingsOfSessionsBefore(stores.telemetry, projectIds, before)) run.tableDeletes++;
  return true;
}

/**
 * Stored objects expire with the rows that point to them: session recordings and OTLP profiles
 * after 30 days, AI conversations after 90, as the TTLs of session_recordings, profiles and
 * ai_traces (telemetry migration 0001; a test checks they agree). Uploaded symbol files do not
 * expire: a crash from an old release still needs them. The job lists each family and deletes
 * the objects written before its cut-off; it runs at start and every OBJECT_EXPIRY_INTERVAL_MS.
 * On S3 a bucket lifecycle rule per prefix does the same without listing.
 */
import type { ObjectStore } from '../../store/objects/index.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

const DAY_MS = 24 * 3600 * 1000;
export const OBJECT_EXPIRY_INTERVAL_MS = 6 * 3600 * 1000;

/** Key family -> days an object is kept, and the telemetry table whose TTL it follows. */
export const OBJECT_RETENTION = [
  { prefix: 'recordings/', days: 30, table: 'session_recordings' },
  { prefix: 'profiles/', days: 30, table: 'profiles' },
  { prefix: 'ai/', days: 90, table: 'ai_traces' },
] as const;

/** Resolves runOnce() with the number of objects deleted. */
export class ObjectExpiryJob extends PeriodicJob<number> {
  constructor(objects: ObjectStore, now: () => number, options: PeriodicJobOptions) {
    super(async (closing) => {
      let deleted = 0;
      for (const { prefix, days } of OBJECT_RETENTION) {
        if (closing()) break;
        deleted += await deleteObjectsWrittenBefore(objects, prefix, new Date(now() - days * DAY_MS), closing);
      }
      return deleted;
    }, options);
  }
}

/** Deletes the objects under `prefix` written before `before`, a listed page at a time; returns how many. */
export async function deleteObjectsWrittenBefore(
  objects: ObjectStore,
  prefix: string,
  before: Date,
  closing: () => boolean,
): Promise<number> {
  let deleted = 0;
  let after: string | undefined;
  do {
    if (closing()) break;
    const page = await objects.listWrittenBefore(prefix, before, after === undefined ? {} : { after });
    for (const key of page.keys) await objects.delete(key);
    deleted += page.keys.length;
    after = page.next;
  } while (after !== undefined);
  return deleted;
}

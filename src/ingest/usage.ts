/**
 * Ingest usage: decompressed bytes per project and calendar month (UTC). The record goes to the
 * metadata store (application/ingest-usage.ts) once every other row of the request is stored; the
 * organization's running monthly total is kept in the coordination store for the quota check.
 */
import type { IngestUsageRecord } from '../core/records.js';
import type { IngestProject } from '../core/projects.js';

export function usageMonth(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export function usageRecord(
  project: IngestProject,
  bytes: number,
  skippedRecords: number,
  now: Date,
): IngestUsageRecord {
  return {
    projectId: project.id,
    organizationId: project.organizationId,
    month: usageMonth(now),
    bytes,
    requests: 1,
    skippedRecords,
  };
}

/** Coordination-store key of an organization's monthly byte counter. */
export function usageCounterKey(organizationId: string, now: Date): string {
  return `usage:ingest-bytes:${organizationId}:${usageMonth(now).slice(0, 7)}`;
}

/** A counter outlives its month by a few days, then expires. */
export const USAGE_COUNTER_TTL_MS = 35 * 24 * 3600 * 1000;

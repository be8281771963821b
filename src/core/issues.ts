/**
 * The issue workflow, pure: an issue (one grouping hash of one project) is open, resolved
 * (optionally only up to the app version current when it was resolved) or ignored (for ever,
 * until a date, or until N more occurrences). What a batch of new occurrences does to each
 * state is decided here; the store applies it.
 */

import { parseIsoInstant } from './instants.js';

export const ISSUE_STATUSES = ['open', 'resolved', 'ignored'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export interface IssueState {
  hash: string;
  status: IssueStatus;
  /** Resolved "in the next version": occurrences of versions newer than this one regress it. */
  resolvedInVersion: string | null;
  ignoredUntil: Date | null;
  /** Ignored until this many more occurrences have arrived (counted in ignoredCount). */
  ignoreLimit: number | null;
  ignoredCount: number;
  regressedAt: Date | null;
}

/** What one batch carries for one hash. */
export interface IssueObservation {
  hash: string;
  count: number;
  lastSeenAt: Date;
  /** App versions seen in the batch (distinct). */
  versions: string[];
}

export type IssueTransition =
  | { kind: 'new'; hash: string; at: Date }
  | { kind: 'regressed'; hash: string; at: Date; version: string | null }
  | { kind: 'reopened'; hash: string; at: Date; reason: 'ignore-expired' | 'ignore-count' }
  /** Still ignored: only the occurrence count moves. */
  | { kind: 'counted'; hash: string; add: number };

/**
 * Compares two version strings: numeric dot-separated parts compare as numbers, others as text;
 * a pre-release suffix (`1.2.0-beta`) sorts before its release. Returns < 0, 0 or > 0.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = splitPre(a.trim().replace(/^v/i, ''));
  const [coreB = '', preB] = splitPre(b.trim().replace(/^v/i, ''));
  const partsA = coreA.split(/[.+]/);
  const partsB = coreB.split(/[.+]/);
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const x = partsA[i] ?? '0';
    const y = partsB[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const order = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    if (order !== 0) return order;
  }
  if (preA === undefined && preB === undefined) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB, undefined, { numeric: true });
}

function splitPre(version: string): [string, string | undefined] {
  const dash = version.indexOf('-');
  return dash < 0 ? [version, undefined] : [version.slice(0, dash), version.slice(dash + 1)];
}

/** The newest of a list of versions (empty strings ignored); null when none. */
export function newestVersion(versions: readonly string[]): string | null {
  let newest: string | null = null;
  for (const version of versions)
    if (version !== '' && (newest === null || compareVersions(version, newest) > 0)) newest = version;
  return newest;
}

/**
 * What a batch does to an issue in `state` (null: never seen, a new issue). Resolved: any
 * occurrence regresses it, or with resolvedInVersion only one of a newer version (an occurrence
 * without a version cannot be told newer, so it does not). Ignored: reopens once its date passed
 * or its occurrence budget is used up; otherwise the count moves. Open: nothing.
 */
export function transitionOf(state: IssueState | null, seen: IssueObservation): IssueTransition | null {
  if (state === null) return { kind: 'new', hash: seen.hash, at: seen.lastSeenAt };
  if (state.status === 'resolved') {
    if (state.resolvedInVersion === null)
      return { kind: 'regressed', hash: seen.hash, at: seen.lastSeenAt, version: newestVersion(seen.versions) };
    const newer = seen.versions.filter(
      (version) => version !== '' && compareVersions(version, state.resolvedInVersion!) > 0,
    );
    return newer.length > 0
      ? { kind: 'regressed', hash: seen.hash, at: seen.lastSeenAt, version: newestVersion(newer) }
      : null;
  }
  if (state.status === 'ignored') {
    if (state.ignoredUntil !== null && seen.lastSeenAt.getTime() >= state.ignoredUntil.getTime())
      return { kind: 'reopened', hash: seen.hash, at: seen.lastSeenAt, reason: 'ignore-expired' };
    if (state.ignoreLimit !== null && state.ignoredCount + seen.count >= state.ignoreLimit)
      return { kind: 'reopened', hash: seen.hash, at: seen.lastSeenAt, reason: 'ignore-count' };
    return state.ignoreLimit !== null ? { kind: 'counted', hash: seen.hash, add: seen.count } : null;
  }
  return null;
}

/** A status change asked for by a person (PUT .../status). */
export type StatusChange =
  | { status: 'open' }
  | { status: 'resolved'; inNextVersion: boolean; version?: string | undefined }
  | { status: 'ignored'; until?: Date | undefined; occurrences?: number | undefined };

/** Checks a status change body; answers the change or a message naming the field at fault. */
/** The conditions each status takes; any other is refused rather than ignored (`until` with status open). */
const CONDITIONS_OF = { open: [], resolved: ['inNextVersion', 'version'], ignored: ['until', 'occurrences'] } as const;

export function parseStatusChange(body: Record<string, unknown>, now: number): StatusChange | { error: string } {
  const status = body.status;
  if (typeof status === 'string' && Object.hasOwn(CONDITIONS_OF, status)) {
    const taken: readonly string[] = CONDITIONS_OF[status as IssueStatus];
    for (const [owner, conditions] of Object.entries(CONDITIONS_OF))
      for (const condition of conditions)
        if (body[condition] !== undefined && !taken.includes(condition))
          return { error: `${condition} is only meaningful with status ${owner}` };
  }
  if (status === 'open') return { status };
  if (status === 'resolved') {
    const inNextVersion = body.inNextVersion ?? false;
    if (typeof inNextVersion !== 'boolean') return { error: 'inNextVersion must be a boolean' };
    const version = body.version;
    if (version !== undefined && (typeof version !== 'string' || version.length === 0 || version.length > 128))
      return { error: 'version must be a string of 1 to 128 characters' };
    if (version !== undefined && !inNextVersion)
      return { error: 'version is only meaningful with inNextVersion: true' };
    return { status, inNextVersion, version };
  }
  if (status === 'ignored') {
    let until: Date | undefined;
    if (body.until !== undefined) {
      const ms = typeof body.until === 'string' ? parseIsoInstant(body.until) : null;
      if (ms === null) return { error: 'until must be an ISO 8601 timestamp' };
      until = new Date(ms);
      if (until.getTime() <= now) return { error: 'until must be in the future' };
    }
    const occurrences = body.occurrences;
    if (
      occurrences !== undefined &&
      (typeof occurrences !== 'number' ||
        !Number.isInteger(occurrences) ||
        occurrences < 1 ||
        occurrences > 1_000_000_000)
    ) {
      return { error: 'occurrences must be an integer from 1 to 1000000000' };
    }
    return { status, until, occurrences: occurrences as number | undefined };
  }
  return { error: `status must be one of ${ISSUE_STATUSES.join(', ')}` };
}

/**
 * New-issue and regression detection on the ingest path's own data. After a request's rows are
 * stored, its exceptions are reduced to their distinct hashes (count, last time, app versions);
 * hashes this process knows to be open are dropped (a per-project cache), and the rest go to
 * the metadata store in one transaction per batch (observeIssues), in the background: the
 * ingest answer never waits on it. A failed detection is retried by the next occurrence of the
 * same hash (its issue row is still missing or still resolved), so nothing is lost for good.
 */
import type { ExceptionRecord } from '../core/records.js';
import type { IssueObservation, IssueTransition } from '../core/issues.js';
import { observeIssues } from '../store/meta/repositories/issues.js';
import type { MetaDb } from '../store/meta/types.js';

/** Channel on which a process announces a project whose issue statuses a person changed. */
export const ISSUE_STATUS_CHANGED_CHANNEL = 'issue-status-changed';

export interface IssueDetectorOptions {
  /** How long a hash is taken as open without asking the store (bounds a missed invalidation). */
  cacheTtlMs: number;
  /** Most cached hashes per project; past it the project's cache starts over. */
  maxHashesPerProject: number;
  now: () => number;
  onError: (error: unknown) => void;
  /** Told about every change ingest made (new, regressed, reopened). */
  onTransitions?: (projectId: string, transitions: IssueTransition[]) => void;
}

export class IssueDetector {
  private readonly open = new Map<string, Map<string, number>>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly meta: MetaDb,
    private readonly options: IssueDetectorOptions,
  ) {}

  /** Reduces a batch to one observation per hash not known to be open. Pure bookkeeping, no I/O. */
  observationsOf(projectId: string, exceptions: readonly ExceptionRecord[]): IssueObservation[] {
    if (exceptions.length === 0) return [];
    const known = this.open.get(projectId);
    const now = this.options.now();
    const byHash = new Map<string, { count: number; last: bigint; versions: Set<string> }>();
    for (const record of exceptions) {
      const expires = known?.get(record.hash);
      if (expires !== undefined && expires > now) continue;
      let entry = byHash.get(record.hash);
      if (!entry) {
        entry = { count: 0, last: record.recordedAt, versions: new Set() };
        byHash.set(record.hash, entry);
      }
      entry.count++;
      if (record.recordedAt > entry.last) entry.last = record.recordedAt;
      entry.versions.add(record.appVersion);
    }
    return [...byHash].map(([hash, entry]) => ({
      hash,
      count: entry.count,
      lastSeenAt: new Date(Number(entry.last / 1_000_000n)),
      versions: [...entry.versions],
    }));
  }

  /** Called once a request's rows are stored; returns at once (the work runs in the background). */
  afterWrite(projectId: string, exceptions: readonly ExceptionRecord[]): void {
    const observations = this.observationsOf(projectId, exceptions);
    if (observations.length === 0) return;
    const work = this.detect(projectId, observations).then(() => undefined, this.options.onError);
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  async detect(projectId: string, observations: IssueObservation[]): Promise<IssueTransition[]> {
    const { transitions, open } = await observeIssues(this.meta, projectId, observations);
    let known = this.open.get(projectId);
    if (!known || known.size + open.length > this.options.maxHashesPerProject) {
      known = new Map();
      this.open.set(projectId, known);
    }
    const expires = this.options.now() + this.options.cacheTtlMs;
    for (const hash of open) known.set(hash, expires);
    if (transitions.length > 0) this.options.onTransitions?.(projectId, transitions);
    return transitions;
  }

  /** A person changed statuses in the project (here or on another process): ask the store again. */
  forgetProject(projectId: string): void {
    this.open.delete(projectId);
  }

  /** Resolves once every detection started so far has finished (tests, shutdown, the alert job). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

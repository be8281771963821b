/**
 * Ingest usage in the metadata store (repositories/ingest-usage.ts): recorded once a request's
 * rows are stored, read for the quota and the billing page.
 *
 * The recorder is a group commit of its own: a request waits until its usage is in the database
 * (a 200 counts exactly once; a request answered 503 counts nothing, so its retry counts once),
 * requests arriving while a statement runs share the next one, and a request that finds none
 * running waits LINGER_MS for company.
 */
import type { IngestUsageRecord } from '../core/records.js';
import {
  addIngestUsage,
  organizationIngestBytes,
  organizationsWithIngest,
  projectEverIngested,
} from '../store/meta/repositories/ingest-usage.js';
import type { MetaDb } from '../store/meta/types.js';
import type { TelemetryEngine } from '../store/telemetry/engine.js';
import {
  ingestBytesOfMonth,
  organizationsWithIngestInMonth,
  projectIngestedBefore,
} from '../store/telemetry/queries/usage.js';

/**
 * How long a record waits for company when no statement runs. On PGlite a statement costs about
 * a millisecond of the main thread whatever it holds, and requests answered one by one made one
 * each (269 statements for 352 requests under the report bench's load).
 */
const LINGER_MS = 2;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class IngestUsageRecorder {
  private pending: IngestUsageRecord[] = [];
  private waiters: Waiter[] = [];
  private inFlight: Promise<void> | null = null;
  private scheduled = false;

  constructor(private readonly meta: MetaDb) {}

  /** Resolves once the record is added to its project's month; rejects when the statement failed. */
  record(record: IngestUsageRecord): Promise<void> {
    const stored = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.pending.push(record);
    if (!this.inFlight && !this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.scheduled = false;
        if (!this.inFlight) this.flush();
      }, LINGER_MS);
    }
    return stored;
  }

  /** Waits until everything recorded so far is written (or failed). */
  async idle(): Promise<void> {
    while (this.inFlight || this.scheduled)
      await (this.inFlight ?? new Promise((resolve) => setTimeout(resolve, LINGER_MS)));
  }

  private flush(): void {
    const records = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    this.inFlight = addIngestUsage(this.meta, records)
      .then(
        () => {
          for (const waiter of waiters) waiter.resolve();
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      )
      .finally(() => {
        this.inFlight = null;
        if (this.pending.length > 0) this.flush();
      });
  }
}

/**
 * Decompressed bytes an organization's projects sent in a month (`YYYY-MM`): the metadata
 * store's rows plus those earlier versions wrote to the telemetry store's `ingest_usage` table.
 */
export async function ingestBytesOfOrganizationMonth(
  stores: { meta: MetaDb; telemetry: TelemetryEngine },
  organizationId: string,
  period: string,
): Promise<number> {
  const [recorded, earlier] = await Promise.all([
    organizationIngestBytes(stores.meta, organizationId, `${period}-01`),
    ingestBytesOfMonth(stores.telemetry, organizationId, period),
  ]);
  return recorded + earlier;
}

/**
 * Organizations that ingested in a month (`YYYY-MM`): those with rows in the metadata store, and
 * those with only the telemetry store's rows of earlier versions (in the month of the upgrade, an
 * organization whose ingest paused before it has no other).
 */
export async function organizationsWithIngestOfMonth(
  stores: { meta: MetaDb; telemetry: TelemetryEngine },
  period: string,
): Promise<string[]> {
  const [recorded, earlier] = await Promise.all([
    organizationsWithIngest(stores.meta, `${period}-01`),
    organizationsWithIngestInMonth(stores.telemetry, period),
  ]);
  return [...new Set([...recorded, ...earlier])];
}

/**
 * Whether the project ever had data stored, whatever its plan has kept of it: its usage in the
 * metadata store, or in the telemetry store's table of earlier versions.
 */
export async function projectEverIngestedIn(
  stores: { meta: MetaDb; telemetry: TelemetryEngine },
  projectId: string,
): Promise<boolean> {
  return (
    (await projectEverIngested(stores.meta, projectId)) || (await projectIngestedBefore(stores.telemetry, projectId))
  );
}

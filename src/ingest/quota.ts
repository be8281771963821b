/**
 * The monthly ingest quota: an organization whose decompressed ingest bytes this calendar month
 * (UTC) reached its plan's `ingest_gb_monthly` gets 503 + Retry-After on every ingest route until
 * the month turns or the plan grows. Nothing is sampled: below the quota everything is stored.
 *
 * The running total lives in the coordination store (shared by every process with Redis); when
 * it is missing — a restart on the in-memory store, a new month — it is seeded from the durable
 * usage of the metadata store (application/ingest-usage.ts). A gigabyte is 10^9 bytes.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../application/services.js';
import { serviceUnavailable } from '../http/errors.js';
import { findOrganizationPlan } from '../store/meta/repositories/billing.js';
import { projectOf } from './authenticate.js';
import { ingestBytesOfOrganizationMonth } from '../application/ingest-usage.js';
import { USAGE_COUNTER_TTL_MS, usageCounterKey, usageMonth } from './usage.js';

const BYTES_PER_GB = 1_000_000_000;
/** A plan change reaches ingest within this long. */
const PLAN_CACHE_MS = 60_000;
/** Clients retry every interval anyway; an hour keeps a long wait from outliving a plan upgrade. */
const MAX_RETRY_AFTER_S = 3600;

export class QuotaGate {
  private readonly limits = new Map<string, { bytes: number; expiresAt: number }>();

  constructor(
    private readonly services: Pick<Services, 'meta' | 'telemetry' | 'coord' | 'config'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** onRequest hook, after requireProject. */
  hook = async (request: FastifyRequest): Promise<void> => {
    const project = projectOf(request);
    const now = new Date(this.now());
    const [limit, used] = await Promise.all([
      this.limitBytes(project.organizationId),
      this.usedBytes(project.organizationId, now),
    ]);
    if (used >= limit) {
      throw serviceUnavailable(
        `ingest is paused: the organization used its monthly ingest quota (${limit / BYTES_PER_GB} GB)`,
        retryAfterSeconds(now),
      );
    }
  };

  private async limitBytes(organizationId: string): Promise<number> {
    const cached = this.limits.get(organizationId);
    if (cached && cached.expiresAt > this.now()) return cached.bytes;
    const plan = await findOrganizationPlan(
      this.services.meta,
      organizationId,
      this.services.config.billing.catalogue.defaultPlan,
    );
    const bytes = plan.limits.ingest_gb_monthly * BYTES_PER_GB;
    this.limits.set(organizationId, { bytes, expiresAt: this.now() + PLAN_CACHE_MS });
    return bytes;
  }

  private async usedBytes(organizationId: string, now: Date): Promise<number> {
    const key = usageCounterKey(organizationId, now);
    const counted = await this.services.coord.get(key);
    if (counted !== null) return Number(counted);
    const stored = await ingestBytesOfOrganizationMonth(this.services, organizationId, usageMonth(now).slice(0, 7));
    // incrBy creates the counter with its TTL; another process seeding at once adds the same base twice at worst.
    return this.services.coord.incrBy(key, stored, USAGE_COUNTER_TTL_MS);
  }
}

function retryAfterSeconds(now: Date): number {
  const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.min(MAX_RETRY_AFTER_S, Math.ceil((nextMonth - now.getTime()) / 1000)));
}

/**
 * Mails an organization's admins when its ingest this month reaches 80% of the plan's quota and
 * when it reaches 100% (ingest paused, src/ingest/quota.ts), once per threshold and month: each
 * warning is claimed in the metadata store under a lease before its mail goes out, so processes
 * running the job side by side send it once, and a claim whose process died before sending is
 * taken again by a later run. An admin the mail server refused is mailed again at the next run,
 * up to QUOTA_WARNING_MAX_ATTEMPTS times (see warnIfCrossed). Runs only where mail is configured;
 * without SMTP the organization page's usage bar is the warning.
 */
import { crossedPercents, quotaWarningMail } from '../../core/quota-warnings.js';
import { findOrganizationPlan } from '../../store/meta/repositories/billing.js';
import { findOrganization, listMembers } from '../../store/meta/repositories/organizations.js';
import {
  claimQuotaWarnings,
  fixQuotaWarningRecipients,
  markQuotaWarningsSent,
  pendingQuotaWarningRecipients,
  type QuotaWarningKey,
  recordQuotaWarningAttempt,
  releaseQuotaWarning,
} from '../../store/meta/repositories/quota-warnings.js';
import type { MetaDb } from '../../store/meta/types.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import { ingestBytesOfOrganizationMonth, organizationsWithIngestOfMonth } from '../ingest-usage.js';
import { describeMailFailure, type Mailer } from '../mail.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

export const QUOTA_WARNING_INTERVAL_MS = 5 * 60 * 1000;
/**
 * How long a claim is held before another run may take it: well past the time its mail can take
 * (the SMTP client's timeouts bound a message to about a minute), so only a dead process's is taken.
 */
export const QUOTA_WARNING_LEASE_MS = 10 * 60 * 1000;
/**
 * Mails of one warning to one admin, the first included: a day of runs, so a mail server down for
 * hours still delivers the warning once it is back (a refused mail reaches no one, so retrying
 * does not flood the admin).
 */
export const QUOTA_WARNING_MAX_ATTEMPTS = (24 * 60 * 60 * 1000) / QUOTA_WARNING_INTERVAL_MS;
const BYTES_PER_GB = 1_000_000_000;

export interface QuotaWarningDeps {
  meta: MetaDb;
  telemetry: TelemetryEngine;
  mailer: Mailer;
  /** The plan of an organization without a subscription. */
  defaultPlan: string;
  publicUrl: string;
  now: () => number;
  onMailError: (organizationId: string, description: string) => void;
  /** Defaults to QUOTA_WARNING_MAX_ATTEMPTS. */
  maxAttempts?: number;
}

/** The result of a run: the warnings that reached an admin (one per organization and run at most). */
export class QuotaWarningJob extends PeriodicJob<number> {
  constructor(deps: QuotaWarningDeps, options: PeriodicJobOptions) {
    super(async (closing) => {
      const now = new Date(deps.now());
      const month = now.toISOString().slice(0, 7);
      let mailed = 0;
      for (const organizationId of await organizationsWithIngestOfMonth(deps, month)) {
        if (closing()) break;
        if (await warnIfCrossed(deps, organizationId, month, now)) mailed++;
      }
      return mailed;
    }, options);
  }
}

/**
 * The claim (a row per threshold) is held while the mail goes out, so a second process's run finds
 * it and sends nothing; one not settled within QUOTA_WARNING_LEASE_MS (its process died) is taken
 * by the next run. The admins of the first claim are the warning's recipients; each send is
 * recorded as it ends, and an admin refused (the mail server down or refusing them) is mailed
 * again by the next run, which gets the claim back at once, while others are not mailed twice.
 * The warning is settled when every recipient has it, has used QUOTA_WARNING_MAX_ATTEMPTS or is no
 * longer an admin. A lower threshold claimed with a higher one is settled unmailed: the higher
 * threshold's mail says more.
 */
async function warnIfCrossed(deps: QuotaWarningDeps, organizationId: string, month: string, now: Date) {
  const plan = await findOrganizationPlan(deps.meta, organizationId, deps.defaultPlan);
  const limitBytes = plan.limits.ingest_gb_monthly * BYTES_PER_GB;
  const usedBytes = await ingestBytesOfOrganizationMonth(deps, organizationId, month);
  const crossed = crossedPercents(usedBytes, limitBytes);
  if (crossed.length === 0) return false;
  const monthStart = `${month}-01`;
  const staleBefore = new Date(now.getTime() - QUOTA_WARNING_LEASE_MS);
  const claimed = await claimQuotaWarnings(deps.meta, organizationId, monthStart, crossed, now, staleBefore);
  const warning: QuotaWarningKey = { organizationId, month: monthStart, percent: Math.max(...crossed) };
  const superseded = claimed.filter((percent) => percent !== warning.percent);
  if (superseded.length > 0) await markQuotaWarningsSent(deps.meta, organizationId, monthStart, superseded, now);
  if (!claimed.includes(warning.percent)) return false;
  const organization = await findOrganization(deps.meta, organizationId);
  if (!organization) return false;
  const admins = (await listMembers(deps.meta, organizationId)).filter((member) => member.role === 'admin');
  await fixQuotaWarningRecipients(
    deps.meta,
    warning,
    admins.map((admin) => admin.userId),
  );
  const maxAttempts = deps.maxAttempts ?? QUOTA_WARNING_MAX_ATTEMPTS;
  const pending = new Set(await pendingQuotaWarningRecipients(deps.meta, warning, maxAttempts));
  const mail = quotaWarningMail({
    organizationName: organization.name,
    percent: warning.percent,
    usedBytes,
    limitBytes,
    month,
    settingsUrl: `${deps.publicUrl}/settings/organization?organization=${organizationId}`,
  });
  const sends = await Promise.all(
    admins
      .filter((admin) => pending.has(admin.userId))
      .map(async (admin) => {
        const delivered = await deps.mailer.send({ to: admin.email, ...mail }).then(
          () => true,
          (failure: unknown) => {
            deps.onMailError(organizationId, describeMailFailure(failure));
            return false;
          },
        );
        const deliveredAt = delivered ? new Date(deps.now()) : null;
        const attempts = await recordQuotaWarningAttempt(deps.meta, warning, admin.userId, deliveredAt);
        return { delivered, retry: !delivered && attempts < maxAttempts };
      }),
  );
  if (sends.some((send) => send.retry)) await releaseQuotaWarning(deps.meta, warning);
  else await markQuotaWarningsSent(deps.meta, organizationId, monthStart, [warning.percent], new Date(deps.now()));
  return sends.some((send) => send.delivered);
}

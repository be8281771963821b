/**
 * Mails an organization's admins when its ingest this month reaches 80% of the plan's quota and
 * when it reaches 100% (ingest paused, src/ingest/quota.ts), once per threshold and month: each
 * warning is claimed in the metadata store before its mail goes out, so processes running the job
 * side by side send it once. When no admin's mail went out the claim is released and the next run
 * sends it again (see warnIfCrossed). Runs only where mail is configured; without SMTP the
 * organization page's usage bar is the warning.
 */
import { crossedPercents, quotaWarningMail } from '../../core/quota-warnings.js';
import { findOrganizationPlan } from '../../store/meta/repositories/billing.js';
import { findOrganization, listMembers } from '../../store/meta/repositories/organizations.js';
import {
  claimQuotaWarnings,
  releaseQuotaWarnings,
  sentQuotaWarnings,
} from '../../store/meta/repositories/quota-warnings.js';
import type { MetaDb } from '../../store/meta/types.js';
import type { TelemetryEngine } from '../../store/telemetry/engine.js';
import { ingestBytesOfOrganizationMonth, organizationsWithIngestOfMonth } from '../ingest-usage.js';
import { describeMailFailure, type Mailer } from '../mail.js';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

export const QUOTA_WARNING_INTERVAL_MS = 5 * 60 * 1000;
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
}

/** The result of a run: the warnings mailed (one per organization and run at most). */
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
 * it and sends nothing. A send that failed for every admin (the mail server down or refusing)
 * releases it: no one was told, and the next run claims and mails again — still once, as only a
 * wholly failed send gives the claim back. After a partial failure the claim stays: a retry would
 * mail again the admins who got it (every five minutes, were one address refused for good). A
 * lease with a separate sent time would also cover a process that dies between claim and send,
 * at the cost of a schema change for a window of one SMTP exchange; that warning is lost.
 */
async function warnIfCrossed(deps: QuotaWarningDeps, organizationId: string, month: string, now: Date) {
  const plan = await findOrganizationPlan(deps.meta, organizationId, deps.defaultPlan);
  const limitBytes = plan.limits.ingest_gb_monthly * BYTES_PER_GB;
  const usedBytes = await ingestBytesOfOrganizationMonth(deps, organizationId, month);
  const crossed = crossedPercents(usedBytes, limitBytes);
  if (crossed.length === 0) return false;
  const sent = new Set(await sentQuotaWarnings(deps.meta, organizationId, `${month}-01`));
  const fresh = crossed.filter((percent) => !sent.has(percent));
  const claimed = await claimQuotaWarnings(deps.meta, organizationId, `${month}-01`, fresh, now);
  if (claimed.length === 0) return false;
  const organization = await findOrganization(deps.meta, organizationId);
  if (!organization) return false;
  const admins = (await listMembers(deps.meta, organizationId)).filter((member) => member.role === 'admin');
  const mail = quotaWarningMail({
    organizationName: organization.name,
    percent: Math.max(...crossed),
    usedBytes,
    limitBytes,
    month,
    settingsUrl: `${deps.publicUrl}/settings/organization?organization=${organizationId}`,
  });
  const sends = await Promise.allSettled(admins.map((admin) => deps.mailer.send({ to: admin.email, ...mail })));
  const failures = sends.flatMap((send) => (send.status === 'rejected' ? [send.reason as unknown] : []));
  for (const failure of failures) deps.onMailError(organizationId, describeMailFailure(failure));
  if (failures.length > 0 && failures.length === sends.length) {
    await releaseQuotaWarnings(deps.meta, organizationId, `${month}-01`, claimed);
    return false;
  }
  return true;
}

/**
 * Applies a verified subscription change from the payment provider: stores the subscription
 * (older events arriving late are ignored) and suspends or reinstates the organization, telling
 * the ingest caches so its ingest stops or resumes at once.
 */
import type { Logger } from '../log.js';
import { UNPAID_SUSPENSION_REASON, suspendsOrganization } from '../../core/plans.js';
import type { Services } from '../services.js';
import { applyProviderSubscription } from '../../store/meta/repositories/billing.js';
import { findOrganization, liftSuspension, suspendOrganization } from '../../store/meta/repositories/organizations.js';
import { listProjectIds } from '../../store/meta/repositories/projects.js';
import { announceProjectChanges } from '../project-changes.js';
import { UUID } from '../../core/ids.js';
import type { SubscriptionChange } from './payments.js';

export async function applySubscriptionChange(
  services: Services,
  change: SubscriptionChange,
  log: Logger,
): Promise<void> {
  const { organizationId, planCode } = change;
  // Not ours (made outside checkout) or for a price no plan sells: acknowledged, so it is not re-sent.
  if (organizationId === null || !UUID.test(organizationId) || planCode === null) {
    log.warn(
      { subscription: change.providerSubscriptionId, organizationId, planCode },
      'subscription event ignored: no organization or no plan',
    );
    return;
  }
  const now = new Date(services.now());
  const standingChanged = await services.meta.transaction(async (tx) => {
    if (!(await findOrganization(tx, organizationId))) return false;
    const applied = await applyProviderSubscription(
      tx,
      {
        organizationId,
        provider: 'stripe',
        providerSubscriptionId: change.providerSubscriptionId,
        providerCustomerId: change.providerCustomerId,
        planCode,
        status: change.status,
        interval: change.interval,
        currentPeriodStart: change.currentPeriodStart,
        currentPeriodEnd: change.currentPeriodEnd,
        cancelAtPeriodEnd: change.cancelAtPeriodEnd,
        canceledAt: change.canceledAt,
        eventAt: change.eventAt,
      },
      now,
    );
    if (!applied) return false;
    return suspendsOrganization(change.status)
      ? suspendOrganization(tx, organizationId, UNPAID_SUSPENSION_REASON, now)
      : liftSuspension(tx, organizationId, UNPAID_SUSPENSION_REASON, now);
  });
  if (standingChanged) await announceProjectChanges(services, await listProjectIds(services.meta, organizationId));
}

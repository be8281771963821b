/** The plan in force for an organization, read in the caller's transaction. */
import type { Plan } from '../../core/plans.js';
import type { Services } from '../services.js';
import { findOrganizationPlan } from '../../store/meta/repositories/billing.js';
import type { MetaTx } from '../../store/meta/types.js';

export function planOf(services: Services, db: MetaTx, organizationId: string): Promise<Plan> {
  return findOrganizationPlan(db, organizationId, services.config.billing.catalogue.defaultPlan);
}

/** Plans (the configuration's catalogue, mirrored at start) and subscriptions. */
import { PLAN_GRANTING_STATUSES, type BillingInterval, type Plan, type PlanCatalogue } from '../../../core/plans.js';
import type { MetaTx } from '../types.js';

interface PlanRow {
  code: string;
  name: string;
  projects: number;
  seats: number;
  ingest_gb_monthly: number;
  retention_days_hot: number;
  retention_days_warm: number;
  synthetics_checks: number;
  session_recordings: number;
  currency: string;
  price_monthly_minor: number | null;
  price_yearly_minor: number | null;
  provider_prices: { stripe?: Partial<Record<BillingInterval, string>> };
}

const PLAN_COLUMNS = `code, name, projects, seats, ingest_gb_monthly, retention_days_hot, retention_days_warm, synthetics_checks,
  session_recordings, currency, price_monthly_minor, price_yearly_minor, provider_prices`;

const toPlan = (row: PlanRow): Plan => ({
  code: row.code,
  name: row.name,
  limits: {
    projects: row.projects,
    seats: row.seats,
    ingest_gb_monthly: row.ingest_gb_monthly,
    retention_days_hot: row.retention_days_hot,
    retention_days_warm: row.retention_days_warm,
    synthetics_checks: row.synthetics_checks,
    session_recordings: row.session_recordings,
  },
  currency: row.currency,
  prices: { month: row.price_monthly_minor, year: row.price_yearly_minor },
  stripePrices: row.provider_prices.stripe ?? {},
});

/**
 * Mirrors the catalogue into `plans`: its plans are upserted and active; a plan no longer in it
 * stays (subscriptions may reference it) but inactive.
 */
export async function syncPlans(db: MetaTx, catalogue: PlanCatalogue): Promise<void> {
  for (const [order, plan] of catalogue.plans.entries()) {
    const l = plan.limits;
    await db.query(
      `INSERT INTO plans (code, name, projects, seats, ingest_gb_monthly, retention_days_hot, retention_days_warm, synthetics_checks,
                          session_recordings, currency, price_monthly_minor, price_yearly_minor, provider_prices, active, sort_order, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, true, $14, now())
       ON CONFLICT (code) DO UPDATE SET
         name = EXCLUDED.name, projects = EXCLUDED.projects, seats = EXCLUDED.seats, ingest_gb_monthly = EXCLUDED.ingest_gb_monthly,
         retention_days_hot = EXCLUDED.retention_days_hot, retention_days_warm = EXCLUDED.retention_days_warm,
         synthetics_checks = EXCLUDED.synthetics_checks, session_recordings = EXCLUDED.session_recordings, currency = EXCLUDED.currency,
         price_monthly_minor = EXCLUDED.price_monthly_minor, price_yearly_minor = EXCLUDED.price_yearly_minor,
         provider_prices = EXCLUDED.provider_prices, active = true, sort_order = EXCLUDED.sort_order, updated_at = now()`,
      [
        plan.code,
        plan.name,
        l.projects,
        l.seats,
        l.ingest_gb_monthly,
        l.retention_days_hot,
        l.retention_days_warm,
        l.synthetics_checks,
        l.session_recordings,
        plan.currency,
        plan.prices.month,
        plan.prices.year,
        JSON.stringify({ stripe: plan.stripePrices }),
        order,
      ],
    );
  }
  await db.query('UPDATE plans SET active = false, updated_at = now() WHERE active AND NOT (code = ANY($1::text[]))', [
    catalogue.plans.map((p) => p.code),
  ]);
}

/**
 * The plan in force for an organization: that of its current subscription while the subscription
 * grants it (trialing, active, past_due), otherwise `defaultCode`.
 */
export async function findOrganizationPlan(db: MetaTx, organizationId: string, defaultCode: string): Promise<Plan> {
  const rows = await db.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM plans WHERE code = ${planCodeOf('$1', '$2', '$3')}`,
    [organizationId, defaultCode, [...PLAN_GRANTING_STATUSES]],
  );
  if (!rows[0]) throw new Error(`plan ${defaultCode} is missing from the plans table`);
  return toPlan(rows[0]);
}

/**
 * SQL for the code of the plan in force for an organization: the expressions name the
 * organization (a parameter or a column), the default plan's code and the granting statuses.
 */
export function planCodeOf(organization: string, defaultCode: string, grantingStatuses: string): string {
  return `COALESCE(
    (SELECT plan_code FROM subscriptions
      WHERE organization_id = ${organization} AND status = ANY(${grantingStatuses}::text[])
      ORDER BY created_at DESC LIMIT 1),
    ${defaultCode})`;
}

/**
 * Every project with the days of data its organization's plan keeps: the hot and the warm tier
 * together, since the telemetry store has one tier and keeps what a plan promises in it.
 */
export async function projectRetentionDays(
  db: MetaTx,
  defaultCode: string,
): Promise<Array<{ projectId: string; days: number }>> {
  const rows = await db.query<{ project_id: string; days: number }>(
    `SELECT p.id AS project_id, pl.retention_days_hot + pl.retention_days_warm AS days
       FROM projects p JOIN plans pl ON pl.code = ${planCodeOf('p.organization_id', '$1', '$2')}
      ORDER BY p.id`,
    [defaultCode, [...PLAN_GRANTING_STATUSES]],
  );
  return rows.map((row) => ({ projectId: row.project_id, days: Number(row.days) }));
}

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface Subscription {
  id: string;
  organizationId: string;
  planCode: string;
  status: SubscriptionStatus;
  provider: 'none' | 'stripe';
  providerCustomerId: string | null;
  interval: BillingInterval | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
}

interface SubscriptionRow {
  id: string;
  organization_id: string;
  plan_code: string;
  status: SubscriptionStatus;
  provider: 'none' | 'stripe';
  provider_customer_id: string | null;
  billing_interval: BillingInterval | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
}

const SUBSCRIPTION_COLUMNS = `id, organization_id, plan_code, status, provider, provider_customer_id, billing_interval,
  current_period_start, current_period_end, cancel_at_period_end, canceled_at`;

const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  organizationId: row.organization_id,
  planCode: row.plan_code,
  status: row.status,
  provider: row.provider,
  providerCustomerId: row.provider_customer_id,
  interval: row.billing_interval,
  currentPeriodStart: row.current_period_start,
  currentPeriodEnd: row.current_period_end,
  cancelAtPeriodEnd: row.cancel_at_period_end,
  canceledAt: row.canceled_at,
});

/** The organization's current (not ended) subscription, or null. */
export async function findCurrentSubscription(db: MetaTx, organizationId: string): Promise<Subscription | null> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
      WHERE organization_id = $1 AND status NOT IN ('canceled', 'incomplete_expired')`,
    [organizationId],
  );
  return rows[0] ? toSubscription(rows[0]) : null;
}

/** The payment provider's customer id the organization was last billed under, or null. */
export async function findProviderCustomerId(
  db: MetaTx,
  organizationId: string,
  provider: 'none' | 'stripe',
): Promise<string | null> {
  const rows = await db.query<{ provider_customer_id: string }>(
    `SELECT provider_customer_id FROM subscriptions
      WHERE organization_id = $1 AND provider = $2 AND provider_customer_id IS NOT NULL
      ORDER BY created_at DESC LIMIT 1`,
    [organizationId, provider],
  );
  return rows[0]?.provider_customer_id ?? null;
}

export interface ProviderSubscriptionState {
  organizationId: string;
  provider: 'stripe';
  providerSubscriptionId: string;
  providerCustomerId: string;
  planCode: string;
  status: SubscriptionStatus;
  interval: BillingInterval | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** Creation time of the provider event this state comes from. */
  eventAt: Date;
}

/**
 * Applies a provider's subscription state. Returns false (and changes nothing) when a newer event
 * for the same subscription was already applied. A subscription that becomes current ends any
 * other current one of the organization: the newest subscription is the one in force.
 */
export async function applyProviderSubscription(
  db: MetaTx,
  state: ProviderSubscriptionState,
  now: Date,
): Promise<boolean> {
  const existing = await db.query<{ id: string; provider_event_at: Date | null }>(
    'SELECT id, provider_event_at FROM subscriptions WHERE provider = $1 AND provider_subscription_id = $2 FOR UPDATE',
    [state.provider, state.providerSubscriptionId],
  );
  const row = existing[0];
  if (row?.provider_event_at && row.provider_event_at.getTime() > state.eventAt.getTime()) return false;
  if (state.status !== 'canceled' && state.status !== 'incomplete_expired') {
    await db.query(
      `UPDATE subscriptions SET status = 'canceled', canceled_at = $2, updated_at = $2
        WHERE organization_id = $1 AND status NOT IN ('canceled', 'incomplete_expired')
          AND NOT (provider = $3 AND provider_subscription_id = $4)`,
      [state.organizationId, now, state.provider, state.providerSubscriptionId],
    );
  }
  const values = [
    state.planCode,
    state.status,
    state.providerCustomerId,
    state.interval,
    state.currentPeriodStart,
    state.currentPeriodEnd,
    state.cancelAtPeriodEnd,
    state.canceledAt,
    state.eventAt,
    now,
  ];
  if (row) {
    await db.query(
      `UPDATE subscriptions SET plan_code = $2, status = $3, provider_customer_id = $4, billing_interval = $5, current_period_start = $6,
              current_period_end = $7, cancel_at_period_end = $8, canceled_at = $9, provider_event_at = $10, updated_at = $11
        WHERE id = $1`,
      [row.id, ...values],
    );
  } else {
    await db.query(
      `INSERT INTO subscriptions (plan_code, status, provider_customer_id, billing_interval, current_period_start, current_period_end,
                                  cancel_at_period_end, canceled_at, provider_event_at, updated_at, organization_id, provider, provider_subscription_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [...values, state.organizationId, state.provider, state.providerSubscriptionId],
    );
  }
  return true;
}

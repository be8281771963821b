/**
 * Plans: the catalogue (configuration, PLANS_FILE; a built-in one otherwise), the seven limits the
 * usage object reports, and the limit rules. A self-hosted install gets one generous plan; tests
 * load a catalogue with small limits to reach every 422.
 */
import { z } from 'zod';

export const PLAN_LIMIT_KEYS = [
  'projects',
  'seats',
  'ingest_gb_monthly',
  'retention_days_hot',
  'retention_days_warm',
  'synthetics_checks',
  'session_recordings',
] as const;
export type PlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];
export type PlanLimits = Record<PlanLimitKey, number>;

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export interface Plan {
  code: string;
  name: string;
  limits: PlanLimits;
  /** ISO 4217, lower case. */
  currency: string;
  /** Prices in minor units; null: not sold on that interval. */
  prices: Record<BillingInterval, number | null>;
  /** Stripe price ids per interval; a plan without one is not sold through checkout on it. */
  stripePrices: Partial<Record<BillingInterval, string>>;
}

export interface PlanCatalogue {
  /** The plan of an organization without a current subscription. */
  defaultPlan: string;
  plans: Plan[];
}

/**
 * The built-in catalogue. Retention figures are the telemetry store's TTLs (90 days; the
 * embedded store has no warm tier); the other limits are high enough never to be met by one team.
 */
export const BUILT_IN_CATALOGUE: PlanCatalogue = {
  defaultPlan: 'self-hosted',
  plans: [
    {
      code: 'self-hosted',
      name: 'Self-hosted',
      limits: {
        projects: 10_000,
        seats: 10_000,
        ingest_gb_monthly: 1_000_000,
        retention_days_hot: 90,
        retention_days_warm: 0,
        synthetics_checks: 10_000,
        session_recordings: 100_000_000,
      },
      currency: 'usd',
      prices: { month: null, year: null },
      stripePrices: {},
    },
  ],
};

const count = z.number().int().min(0).max(2_147_483_647);
const planSchema = z
  .object({
    code: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, _ and -, at most 40'),
    name: z.string().trim().min(1).max(100),
    limits: z
      .object(Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [key, count])) as Record<PlanLimitKey, typeof count>)
      .strict(),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/)
      .default('usd'),
    prices: z
      .object({ month: count.nullable().default(null), year: count.nullable().default(null) })
      .strict()
      .default({ month: null, year: null }),
    stripePrices: z
      .object({ month: z.string().min(1).optional(), year: z.string().min(1).optional() })
      .strict()
      .default({}),
  })
  .strict();

const catalogueSchema = z
  .object({ defaultPlan: z.string(), plans: z.array(planSchema).min(1) })
  .strict()
  .superRefine((catalogue, ctx) => {
    const codes = catalogue.plans.map((plan) => plan.code);
    const duplicate = codes.find((code, i) => codes.indexOf(code) !== i);
    if (duplicate !== undefined)
      ctx.addIssue({ code: 'custom', message: `plan code "${duplicate}" appears twice`, path: ['plans'] });
    if (!codes.includes(catalogue.defaultPlan)) {
      ctx.addIssue({
        code: 'custom',
        message: `defaultPlan "${catalogue.defaultPlan}" is not one of the plans`,
        path: ['defaultPlan'],
      });
    }
  });

/** Validates a parsed catalogue document; throws an Error naming the first problem and its path. */
export function parsePlanCatalogue(document: unknown): PlanCatalogue {
  const parsed = catalogueSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid plan catalogue');
}

/**
 * Days of telemetry a plan keeps, from its hot + warm retention (the telemetry store has one
 * tier): at least one, so a plan of zero days does not make every read empty.
 */
export const keptDays = (retentionDays: number): number => Math.max(1, retentionDays);

/** Subscription statuses (Stripe's set) under which the subscribed plan applies; others fall back to the default plan. */
export const PLAN_GRANTING_STATUSES = ['trialing', 'active', 'past_due'] as const;

/** True when an organization already at `current` of a counted limit may not add one more. */
export function limitReached(plan: Plan, key: 'projects' | 'seats', current: number): boolean {
  return current >= plan.limits[key];
}

/** The 422 message: names the limit and the plan, and what frees room (what counts towards seats, too). */
export function limitMessage(plan: Plan, key: 'projects' | 'seats'): string {
  const noun = key === 'projects' ? 'project' : 'seat';
  const allowed = plan.limits[key];
  const reached = `${noun} limit reached: the ${plan.name} plan allows ${allowed} ${noun}${allowed === 1 ? '' : 's'}`;
  return key === 'projects'
    ? `${reached}; delete a project or move to a plan with more`
    : `${reached}, members and pending invitations together; revoke an invitation, remove a member or move to a plan with more`;
}

/** Usage period of an instant: its calendar month in UTC, `YYYY-MM`. */
export function usagePeriod(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * A subscription left unpaid (the provider gave up retrying payment) suspends its organization;
 * any later state lifts the suspension it caused (and only that one).
 */
export const suspendsOrganization = (status: string): boolean => status === 'unpaid';
export const UNPAID_SUSPENSION_REASON = 'subscription unpaid';

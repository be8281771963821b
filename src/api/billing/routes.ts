/**
 * Billing: the public plan catalogue, the payment provider's webhook (public, signature
 * verified), and per organization (`?organizationId=`, optional for a member of one): usage,
 * subscription, checkout and the customer portal. A suspended organization keeps these, so its
 * admins can settle the account that suspended it.
 */
import type { FastifyRequest } from 'fastify';
import {
  BILLING_INTERVALS,
  PLAN_LIMIT_KEYS,
  usagePeriod,
  type BillingInterval,
  type Plan,
  type PlanLimitKey,
} from '../../core/plans.js';
import { HttpError, unprocessable } from '../../http/errors.js';
import { useRawBodies } from '../../http/body-parsers.js';
import { LIMITS } from '../../http/limits.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import {
  SUBSCRIPTION_STATUSES,
  findCurrentSubscription,
  findProviderCustomerId,
} from '../../store/meta/repositories/billing.js';
import { countMembers } from '../../store/meta/repositories/organizations.js';
import { countProjects } from '../../store/meta/repositories/projects.js';
import { principalOf, requireUser } from '../authenticate.js';
import { organizationScopeOf, requireOrganizationRole } from '../organization-scope.js';
import { ingestBytesOfOrganizationMonth } from '../../application/ingest-usage.js';
import { planOf } from '../../application/billing/plan-of.js';
import { applySubscriptionChange } from '../../application/billing/subscriptions.js';
import { errorAnswer } from '../answers.js';
import { RETAINED_TABLES, type RetainedTableName } from '../../store/telemetry/queries/retention.js';

export async function billingRoutes(scope: TypedScope, services: Services): Promise<void> {
  await scope.register(async (catalogue) => catalogueRoutes(catalogue, services));
  await scope.register(async (webhook) => webhookRoutes(webhook, services));
  await scope.register(async (account) => accountRoutes(account, services));
}

const limit = { type: 'integer' } as const;
const limitsAnswer = {
  type: 'object',
  required: PLAN_LIMIT_KEYS,
  properties: {
    projects: limit,
    seats: limit,
    ingest_gb_monthly: limit,
    retention_days_hot: limit,
    retention_days_warm: limit,
    synthetics_checks: limit,
    session_recordings: limit,
  } satisfies Record<PlanLimitKey, typeof limit>,
  description: "the plan's limits",
} as const;

const tableRetentionAnswer = {
  type: 'object',
  required: RETAINED_TABLES.map((t) => t.table),
  properties: Object.fromEntries(RETAINED_TABLES.map((t) => [t.table, { type: ['number', 'null'] }])) as Record<
    RetainedTableName,
    { type: ['number', 'null'] }
  >,
  description:
    "days each telemetry table keeps a row, read from its TTL in the engine (an operator may have changed one); null where it has no TTL the service can read. A plan keeping fewer days than a table's is what bounds that table",
} as const;

const plansSchema = {
  summary: 'The plan catalogue, and whether checkout and the customer portal can work here',
  response: {
    200: {
      type: 'object',
      required: ['plans', 'billingConfigured'],
      properties: {
        plans: {
          type: 'array',
          items: {
            type: 'object',
            required: ['code', 'name', 'default', 'limits', 'currency', 'prices'],
            properties: {
              code: { type: 'string' },
              name: { type: 'string' },
              default: { type: 'boolean', description: 'the plan of an organization without a subscription' },
              limits: limitsAnswer,
              currency: { type: 'string', description: 'ISO 4217, lower case' },
              prices: {
                type: 'object',
                required: BILLING_INTERVALS,
                properties: { month: { type: ['integer', 'null'] }, year: { type: ['integer', 'null'] } },
                description: 'price per interval in minor units; null when not sold on it',
              },
            },
          },
        },
        billingConfigured: { type: 'boolean' },
      },
    },
  },
} as const;

const webhookSchema = {
  summary: "The payment provider's webhook (signature verified)",
  response: {
    200: { type: 'object', required: ['received'], properties: { received: { type: 'boolean' } } },
    400: errorAnswer,
  },
} as const;

const organizationQuery = {
  type: 'object',
  properties: {
    organizationId: {
      type: 'string',
      description: 'the organization; optional for a member of only one',
    },
  },
} as const;

/** Refusals of an organization-scoped billing route (organization-scope.ts) and of its handler. */
const scopedErrors = { 400: errorAnswer, 403: errorAnswer, 404: errorAnswer } as const;

const usageSchema = {
  summary: "The organization's usage this month, against its plan's limits",
  querystring: organizationQuery,
  response: {
    200: {
      type: 'object',
      required: ['usage'],
      properties: {
        usage: {
          type: 'object',
          required: ['planCode', 'periodStart', 'counters', 'limits', 'tableRetentionDays'],
          properties: {
            planCode: { type: 'string' },
            periodStart: { type: 'string', description: 'the month counted, YYYY-MM' },
            counters: {
              type: 'object',
              required: ['ingest_bytes', 'projects', 'seats'],
              properties: {
                ingest_bytes: {
                  type: 'integer',
                  description: 'decompressed bytes ingested this calendar month across the projects',
                },
                projects: { type: 'integer' },
                seats: { type: 'integer' },
              },
            },
            limits: limitsAnswer,
            tableRetentionDays: tableRetentionAnswer,
          },
        },
      },
    },
    ...scopedErrors,
  },
} as const;

const subscriptionSchema = {
  summary: "The organization's subscription (the default plan, provider none, without one)",
  querystring: organizationQuery,
  response: {
    200: {
      type: 'object',
      required: ['subscription'],
      properties: {
        subscription: {
          type: 'object',
          required: [
            'planCode',
            'status',
            'provider',
            'interval',
            'currentPeriodStart',
            'currentPeriodEnd',
            'cancelAtPeriodEnd',
          ],
          properties: {
            planCode: { type: 'string' },
            status: { type: 'string', enum: SUBSCRIPTION_STATUSES },
            provider: { type: 'string', enum: ['none', 'stripe'] },
            interval: { type: ['string', 'null'], enum: [...BILLING_INTERVALS, null] },
            currentPeriodStart: { type: ['string', 'null'], format: 'date-time' },
            currentPeriodEnd: { type: ['string', 'null'], format: 'date-time' },
            cancelAtPeriodEnd: { type: 'boolean' },
          },
        },
      },
    },
    ...scopedErrors,
  },
} as const;

const urlAnswer = {
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', description: "the payment provider's page to send the person to" } },
} as const;

const portalSchema = {
  summary: "The payment provider's customer portal for the organization (admin)",
  querystring: organizationQuery,
  response: { 200: urlAnswer, ...scopedErrors, 422: errorAnswer, 502: errorAnswer },
} as const;

const planAnswer = (plan: Plan, defaultPlan: string) => ({
  code: plan.code,
  name: plan.name,
  default: plan.code === defaultPlan,
  limits: plan.limits,
  currency: plan.currency,
  prices: plan.prices,
});

function catalogueRoutes(scope: TypedScope, services: Services): void {
  const { catalogue } = services.config.billing;
  // `billingConfigured` tells a dashboard up front whether checkout and the portal can work.
  scope.get('/api/billing/plans', { schema: plansSchema }, async () => ({
    plans: catalogue.plans.map((plan) => planAnswer(plan, catalogue.defaultPlan)),
    billingConfigured: services.payments.name !== 'none',
  }));
}

function webhookRoutes(scope: TypedScope, services: Services): void {
  // The signature covers the exact bytes sent, so this route keeps the raw body.
  useRawBodies(scope, { maxBytes: LIMITS.applicationBytes, timeoutMs: services.config.bodyTimeoutMs });
  scope.post('/api/billing/stripe/webhook', { schema: webhookSchema }, async (request) => {
    const signature = request.headers['stripe-signature'];
    const change = services.payments.parseWebhook(
      request.rawBody ?? Buffer.alloc(0),
      typeof signature === 'string' ? signature : undefined,
      new Date(services.now()),
    );
    if (change) await applySubscriptionChange(services, change, request.log);
    return { received: true };
  });
}

function accountRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  const member = requireOrganizationRole(services, { minimum: 'read-only', from: 'query', allowSuspended: true });
  const admin = requireOrganizationRole(services, { minimum: 'admin', from: 'query', allowSuspended: true });
  const returnUrl = `${services.config.publicUrl}/billing`;

  scope.get('/api/billing/usage', { schema: usageSchema, onRequest: member }, async (request) => {
    const { organizationId } = organizationScopeOf(request);
    const period = usagePeriod(new Date(services.now()));
    const [plan, projects, seats, ingestBytes, tableRetentionDays] = await Promise.all([
      planOf(services, services.meta, organizationId),
      countProjects(services.meta, organizationId),
      countMembers(services.meta, organizationId),
      ingestBytesOfOrganizationMonth(services, organizationId, period),
      services.tableRetention.days(),
    ]);
    return {
      usage: {
        planCode: plan.code,
        periodStart: period,
        counters: { ingest_bytes: ingestBytes, projects, seats },
        limits: plan.limits,
        tableRetentionDays,
      },
    };
  });

  scope.get('/api/billing/subscription', { schema: subscriptionSchema, onRequest: member }, async (request) => {
    const { organizationId } = organizationScopeOf(request);
    const subscription = await findCurrentSubscription(services.meta, organizationId);
    if (!subscription) {
      // Without a subscription the default plan applies, as if subscribed to it with no provider.
      return {
        subscription: {
          planCode: services.config.billing.catalogue.defaultPlan,
          status: 'active' as const,
          provider: 'none' as const,
          interval: null,
          currentPeriodStart: null,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
        },
      };
    }
    return {
      subscription: {
        planCode: subscription.planCode,
        status: subscription.status,
        provider: subscription.provider,
        interval: subscription.interval,
        currentPeriodStart: subscription.currentPeriodStart?.toISOString() ?? null,
        currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      },
    };
  });

  scope.post(
    '/api/billing/checkout',
    {
      onRequest: admin,
      schema: {
        summary: "Start a checkout of a plan on an interval (admin); answers the provider's checkout page",
        querystring: organizationQuery,
        response: { 200: urlAnswer, ...scopedErrors, 422: errorAnswer, 502: errorAnswer },
        body: {
          type: 'object',
          required: ['planCode', 'interval'],
          additionalProperties: false,
          properties: { planCode: { type: 'string', maxLength: 40 }, interval: { type: 'string', maxLength: 20 } },
        },
      },
    },
    async (request) => {
      const { organizationId } = organizationScopeOf(request);
      const { planCode, interval } = request.body;
      if (!BILLING_INTERVALS.includes(interval as BillingInterval))
        throw unprocessable(`interval must be one of ${BILLING_INTERVALS.join(', ')}`);
      const plan = services.config.billing.catalogue.plans.find((p) => p.code === planCode);
      if (!plan) throw unprocessable(`unknown plan ${JSON.stringify(planCode)}`);
      const customerId = await findProviderCustomerId(services.meta, organizationId, services.payments.name);
      const url = await viaProvider(request, () =>
        services.payments.createCheckout({
          organizationId,
          plan,
          interval: interval as BillingInterval,
          customerId,
          customerEmail: principalOf(request).user.email,
          successUrl: `${returnUrl}?checkout=success`,
          cancelUrl: `${returnUrl}?checkout=canceled`,
        }),
      );
      return { url };
    },
  );

  scope.post('/api/billing/portal', { schema: portalSchema, onRequest: admin }, async (request) => {
    const customerId = await findProviderCustomerId(
      services.meta,
      organizationScopeOf(request).organizationId,
      services.payments.name,
    );
    return { url: await viaProvider(request, () => services.payments.createPortal(customerId, returnUrl)) };
  });
}

/** A provider failure other than a refusal of ours is the provider's: 502, details in the log only. */
async function viaProvider<T>(request: FastifyRequest, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    request.log.error({ err: error }, 'payment provider request failed');
    throw new HttpError(502, 'the payment provider did not complete the request: try again later');
  }
}

/**
 * Billing: the public plan catalogue, the payment provider's webhook (public, signature
 * verified), and per organization (`?organizationId=`, optional for a member of one): usage,
 * subscription, checkout and the customer portal. A suspended organization keeps these, so its
 * admins can settle the account that suspended it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BILLING_INTERVALS, usagePeriod, type BillingInterval, type Plan } from '../../core/plans.js';
import { HttpError, unprocessable } from '../../http/errors.js';
import { useRawBodies } from '../../http/body-parsers.js';
import { LIMITS } from '../../http/limits.js';
import type { Services } from '../../application/services.js';
import { findCurrentSubscription, findProviderCustomerId } from '../../store/meta/repositories/billing.js';
import { countMembers } from '../../store/meta/repositories/organizations.js';
import { countProjects } from '../../store/meta/repositories/projects.js';
import { principalOf, requireUser } from '../authenticate.js';
import { organizationScopeOf, requireOrganizationRole } from '../organization-scope.js';
import { ingestBytesOfMonth } from '../../store/telemetry/queries/usage.js';
import { planOf } from '../../application/billing/plan-of.js';
import { applySubscriptionChange } from '../../application/billing/subscriptions.js';

export async function billingRoutes(scope: FastifyInstance, services: Services): Promise<void> {
  await scope.register(async (catalogue) => catalogueRoutes(catalogue, services));
  await scope.register(async (webhook) => webhookRoutes(webhook, services));
  await scope.register(async (account) => accountRoutes(account, services));
}

const planAnswer = (plan: Plan, defaultPlan: string) => ({
  code: plan.code,
  name: plan.name,
  default: plan.code === defaultPlan,
  limits: plan.limits,
  currency: plan.currency,
  prices: plan.prices,
});

function catalogueRoutes(scope: FastifyInstance, services: Services): void {
  const { catalogue } = services.config.billing;
  // `billingConfigured` tells a dashboard up front whether checkout and the portal can work.
  scope.get('/api/billing/plans', async () => ({
    plans: catalogue.plans.map((plan) => planAnswer(plan, catalogue.defaultPlan)),
    billingConfigured: services.payments.name !== 'none',
  }));
}

function webhookRoutes(scope: FastifyInstance, services: Services): void {
  // The signature covers the exact bytes sent, so this route keeps the raw body.
  useRawBodies(scope, { maxBytes: LIMITS.applicationBytes, timeoutMs: services.config.bodyTimeoutMs });
  scope.post('/api/billing/stripe/webhook', async (request) => {
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

function accountRoutes(scope: FastifyInstance, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  const member = requireOrganizationRole(services, { minimum: 'read-only', from: 'query', allowSuspended: true });
  const admin = requireOrganizationRole(services, { minimum: 'admin', from: 'query', allowSuspended: true });
  const returnUrl = `${services.config.publicUrl}/billing`;

  scope.get('/api/billing/usage', { onRequest: member }, async (request) => {
    const { organizationId } = organizationScopeOf(request);
    const period = usagePeriod(new Date(services.now()));
    const [plan, projects, seats, ingestBytes] = await Promise.all([
      planOf(services, services.meta, organizationId),
      countProjects(services.meta, organizationId),
      countMembers(services.meta, organizationId),
      ingestBytesOfMonth(services.telemetry, organizationId, period),
    ]);
    return {
      usage: {
        planCode: plan.code,
        periodStart: period,
        counters: { ingest_bytes: ingestBytes, projects, seats },
        limits: plan.limits,
      },
    };
  });

  scope.get('/api/billing/subscription', { onRequest: member }, async (request) => {
    const { organizationId } = organizationScopeOf(request);
    const subscription = await findCurrentSubscription(services.meta, organizationId);
    if (!subscription) {
      // Without a subscription the default plan applies, as if subscribed to it with no provider.
      return {
        subscription: {
          planCode: services.config.billing.catalogue.defaultPlan,
          status: 'active',
          provider: 'none',
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

  scope.post<{ Body: { planCode: string; interval: string } }>(
    '/api/billing/checkout',
    {
      onRequest: admin,
      schema: {
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

  scope.post('/api/billing/portal', { onRequest: admin }, async (request) => {
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

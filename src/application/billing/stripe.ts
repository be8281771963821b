/**
 * Stripe as the payment provider (official `stripe` SDK): hosted checkout for subscriptions,
 * the hosted customer portal, and verified `customer.subscription.*` webhooks.
 */
import Stripe from 'stripe';
import { z } from 'zod';
import { BILLING_INTERVALS, type PlanCatalogue } from '../../core/plans.js';
import { badRequest, unprocessable } from '../../http/errors.js';
import { SUBSCRIPTION_STATUSES } from '../../store/meta/repositories/billing.js';
import type { CheckoutRequest, PaymentProvider, SubscriptionChange } from './payments.js';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Base URL of the API (https://api.stripe.com, or stripe-mock). */
  apiUrl: string;
}

/** Stripe's own default: a signed event older than five minutes is refused (replay protection). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * What the service reads of a verified event. A signature proves who sent a body, not that it has
 * this shape (a test event, an API version change, a hand-signed body): a body that does not is a
 * 400 naming the field, never a server fault.
 */
const eventSchema = z.object({ type: z.string(), created: z.number().int() });
const subscriptionSchema = z.object({
  id: z.string(),
  customer: z.union([z.string(), z.object({ id: z.string() })]),
  status: z.string(),
  metadata: z.record(z.string(), z.string()),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.number().int().nullable(),
  items: z.object({
    data: z.array(
      z.object({
        current_period_start: z.number().int(),
        current_period_end: z.number().int(),
        price: z.object({ id: z.string(), recurring: z.object({ interval: z.string() }).nullable().optional() }),
      }),
    ),
  }),
});
type EventSubscription = z.infer<typeof subscriptionSchema>;

/** The value at `path` of a verified event, checked against `schema`; 400 naming the first problem. */
function checked<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [path, ...(issue?.path ?? [])].filter((part) => part !== '').join('.');
  throw badRequest(`not a Stripe event of the expected shape: ${where || 'the body'}: ${issue?.message ?? 'invalid'}`);
}

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

export class StripePayments implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly options: StripeOptions,
    private readonly catalogue: PlanCatalogue,
  ) {
    const api = new URL(options.apiUrl);
    const protocol = api.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(options.secretKey, {
      host: api.hostname,
      port: api.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<string> {
    const price = request.plan.stripePrices[request.interval];
    if (price === undefined)
      throw unprocessable(`the ${request.plan.name} plan is not sold with a ${request.interval}ly interval`);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      client_reference_id: request.organizationId,
      ...(request.customerId !== null ? { customer: request.customerId } : { customer_email: request.customerEmail }),
      // The subscription carries the organization, so its webhooks can be attributed.
      subscription_data: { metadata: { organizationId: request.organizationId } },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return session.url;
  }

  async createPortal(customerId: string | null, returnUrl: string): Promise<string> {
    if (customerId === null) throw unprocessable('no billing account yet: subscribe through checkout first');
    const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return session.url;
  }

  parseWebhook(body: Buffer, signature: string | undefined, now: Date): SubscriptionChange | null {
    if (signature === undefined) throw badRequest('missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        body,
        signature,
        this.options.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        now.getTime(),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw badRequest('invalid Stripe signature');
      // The SDK parses the body after checking its signature: a signed body that is not JSON.
      if (error instanceof SyntaxError) throw badRequest('the webhook body is not JSON');
      throw error;
    }
    const { type, created } = checked(eventSchema, event, '');
    if (!SUBSCRIPTION_EVENTS.has(type)) return null;
    const subscription = checked(
      subscriptionSchema,
      (event as { data?: { object?: unknown } }).data?.object,
      'data.object',
    );
    return this.toChange(subscription, new Date(created * 1000));
  }

  private toChange(subscription: EventSubscription, eventAt: Date): SubscriptionChange {
    const item = subscription.items.data[0];
    const interval = BILLING_INTERVALS.find((i) => i === item?.price.recurring?.interval) ?? null;
    const status = SUBSCRIPTION_STATUSES.find((s) => s === subscription.status);
    if (status === undefined) throw badRequest(`unknown Stripe subscription status ${subscription.status}`);
    const priceId = item?.price.id;
    return {
      organizationId: subscription.metadata.organizationId ?? null,
      providerSubscriptionId: subscription.id,
      providerCustomerId: typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
      planCode:
        this.catalogue.plans.find((plan) => priceId !== undefined && Object.values(plan.stripePrices).includes(priceId))
          ?.code ?? null,
      status,
      interval,
      currentPeriodStart: item ? new Date(item.current_period_start * 1000) : null,
      currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      canceledAt: subscription.canceled_at === null ? null : new Date(subscription.canceled_at * 1000),
      eventAt,
    };
  }
}

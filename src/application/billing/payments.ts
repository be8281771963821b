/**
 * The payment-provider interface behind checkout, the customer portal and subscription webhooks.
 * Stripe implements it when configured (./stripe.ts); otherwise every billing action answers 422
 * "billing is not configured".
 */
import type { BillingInterval, Plan } from '../../core/plans.js';
import { unprocessable } from '../../http/errors.js';
import type { SubscriptionStatus } from '../../store/meta/repositories/billing.js';

export interface CheckoutRequest {
  organizationId: string;
  plan: Plan;
  interval: BillingInterval;
  /** The organization's existing customer, so one organization stays one customer. */
  customerId: string | null;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

/** A subscription's state as a verified webhook event reports it. */
export interface SubscriptionChange {
  /** From the subscription's metadata, set at checkout; null when the subscription was not made by us. */
  organizationId: string | null;
  providerSubscriptionId: string;
  providerCustomerId: string;
  /** The catalogue plan of the subscribed price; null when no plan matches. */
  planCode: string | null;
  status: SubscriptionStatus;
  interval: BillingInterval | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** When the provider created the event (orders late deliveries). */
  eventAt: Date;
}

export interface PaymentProvider {
  readonly name: 'none' | 'stripe';
  /** The URL of a hosted checkout page; 422 when the plan is not sold on that interval. */
  createCheckout(request: CheckoutRequest): Promise<string>;
  /** The URL of the hosted customer portal; 422 without a customer (nothing bought yet). */
  createPortal(customerId: string | null, returnUrl: string): Promise<string>;
  /**
   * Verifies a webhook body against its signature header at `now` and decodes it: the
   * subscription change it carries, or null for an event that changes no subscription. A bad
   * signature is a 400.
   */
  parseWebhook(body: Buffer, signature: string | undefined, now: Date): SubscriptionChange | null;
}

export const BILLING_NOT_CONFIGURED = 'billing is not configured';

export class UnconfiguredPayments implements PaymentProvider {
  readonly name = 'none' as const;

  createCheckout(): Promise<string> {
    return Promise.reject(unprocessable(BILLING_NOT_CONFIGURED));
  }

  createPortal(): Promise<string> {
    return Promise.reject(unprocessable(BILLING_NOT_CONFIGURED));
  }

  parseWebhook(): SubscriptionChange | null {
    throw unprocessable(BILLING_NOT_CONFIGURED);
  }
}

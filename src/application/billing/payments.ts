/**
 * The payment-provider interface behind checkout, the customer portal and subscription webhooks.
 * Stripe implements it when configured (./stripe.ts); otherwise every billing action answers 422
 * "billing is not configured".
 */
import type { BillingInterval, Plan } from '../../core/plans.js';
import { unprocessable } from '../../http/errors.js';
import type { ProviderSubscriptionState } from '../../store/meta/repositories/billing.js';

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

/**
 * A subscription's state as a verified webhook event reports it: the stored state's fields, but
 * the organization (from the subscription's metadata, set at checkout) and the catalogue plan of
 * the subscribed price may be unknown (null: not made by us, or no plan matches).
 */
export interface SubscriptionChange
  extends Omit<ProviderSubscriptionState, 'organizationId' | 'provider' | 'planCode'> {
  organizationId: string | null;
  planCode: string | null;
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

/**
 * Billing: the public catalogue, the usage object exactly as the spec has it (ingest bytes from the
 * telemetry store), the subscription, and checkout / portal / webhooks — unconfigured (422), and
 * with the Stripe SDK talking to a loopback server that answers like Stripe, with webhook
 * signatures made by the SDK's own test helper. No request leaves the machine.
 */
import http from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriod } from '../../src/core/plans.js';
import { RETAINED_TABLES } from '../../src/store/telemetry/queries/retention.js';
import { listenOnLoopback } from '../support/loopback.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { SMALL_CATALOGUE, TestClock, bearer, call, writePlansFile } from '../support/access.js';

const plansFile = writePlansFile(SMALL_CATALOGUE);
const as = (service: TestService, token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  call(service.app, { method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('billing without a payment provider', () => {
  let service: TestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    service = await startTestService({ PLANS_FILE: plansFile });
    user = await registerUser(service.app);
  });
  afterAll(async () => service?.close());

  it('publishes the plan catalogue without credentials', async () => {
    const plans = await call(service.app, { method: 'GET', url: '/api/billing/plans' });
    expect(plans.status).toBe(200);
    expect(plans.body!.plans).toEqual([
      {
        code: 'free',
        name: 'Free',
        default: true,
        limits: SMALL_CATALOGUE.plans[0]!.limits,
        currency: 'usd',
        prices: { month: 0, year: 0 },
      },
      {
        code: 'team',
        name: 'Team',
        default: false,
        limits: SMALL_CATALOGUE.plans[1]!.limits,
        currency: 'usd',
        prices: { month: 4900, year: 49000 },
      },
    ]);
    expect(plans.body!.billingConfigured).toBe(false);
  });

  it('usage: plan, period, decompressed ingest bytes of this month across the organization’s projects, and all seven limits', async () => {
    const second = await as(service, user.token, 'POST', `/api/projects?projectId=${user.project.id}`, {
      name: 'second',
      framework: 'go',
    });
    const stranger = await registerUser(service.app);
    const report = (token: string, body: string) =>
      call(service.app, {
        method: 'POST',
        url: '/api/report',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: body,
      });
    const one = JSON.stringify({ collectionFrames: [], appVersion: '1.0.0', serverName: 'a' });
    const two = JSON.stringify({ collectionFrames: [], appVersion: '2.0.0-beta', serverName: 'bb' });
    expect((await report(user.project.token, one)).status).toBe(200);
    expect((await report(second.body!.token, two)).status).toBe(200);
    expect((await report(stranger.project.token, two)).status).toBe(200);

    const usage = await as(service, user.token, 'GET', '/api/billing/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      usage: {
        planCode: 'free',
        periodStart: usagePeriod(new Date()),
        counters: { ingest_bytes: Buffer.byteLength(one) + Buffer.byteLength(two), projects: 2, seats: 1 },
        limits: {
          projects: 2,
          seats: 2,
          ingest_gb_monthly: 1,
          retention_days_hot: 7,
          retention_days_warm: 30,
          synthetics_checks: 1,
          session_recordings: 100,
        },
        // The tables' TTLs as the engine has them (table-retention.contract.ts changes one).
        tableRetentionDays: Object.fromEntries(RETAINED_TABLES.map((t) => [t.table, t.shippedTtlDays])),
      },
    });
    expect(usage.body!.usage.periodStart).toMatch(/^\d{4}-\d{2}$/);
    const explicit = await as(service, user.token, 'GET', `/api/billing/usage?organizationId=${user.organization.id}`);
    expect(explicit.body).toEqual(usage.body);
    expect(
      await as(service, stranger.token, 'GET', `/api/billing/usage?organizationId=${user.organization.id}`),
    ).toMatchObject({
      status: 403,
      body: { error: 'Access denied' },
    });

    // Usage an earlier version recorded as rows of the telemetry store still counts.
    await service.services.telemetry.command(
      `INSERT INTO ingest_usage (project_id, organization_id, month, bytes, requests, skipped_records)
       VALUES ({project:UUID}, {organization:UUID}, toStartOfMonth(today()), 1000, 1, 0)`,
      { project: user.project.id, organization: user.organization.id },
    );
    const withEarlier = await as(service, user.token, 'GET', '/api/billing/usage');
    expect(withEarlier.body!.usage.counters.ingest_bytes).toBe(usage.body!.usage.counters.ingest_bytes + 1000);
  });

  it('subscription: without one, the default plan with no provider', async () => {
    const subscription = await as(service, user.token, 'GET', '/api/billing/subscription');
    expect(subscription.body).toEqual({
      subscription: {
        planCode: 'free',
        status: 'active',
        provider: 'none',
        interval: null,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
      },
    });
  });

  it('checkout, portal and the webhook answer 422 "billing is not configured"; bad checkout bodies are 422 too', async () => {
    expect(
      await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'team', interval: 'month' }),
    ).toMatchObject({
      status: 422,
      body: { error: 'billing is not configured' },
    });
    expect(await as(service, user.token, 'POST', '/api/billing/portal')).toMatchObject({
      status: 422,
      body: { error: 'billing is not configured' },
    });
    const webhook = await call(service.app, {
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(webhook).toMatchObject({ status: 422, body: { error: 'billing is not configured' } });
    expect(
      await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'team', interval: 'weekly' }),
    ).toMatchObject({
      status: 422,
      body: { error: 'interval must be one of month, year' },
    });
    expect(
      await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'gold', interval: 'month' }),
    ).toMatchObject({
      status: 422,
      body: { error: 'unknown plan "gold"' },
    });
  });

  it('a member of several organizations names one; checkout and portal need an admin', async () => {
    const other = await registerUser(service.app);
    const invitation = await as(
      service,
      other.token,
      'POST',
      `/api/organizations/${other.organization.id}/invitations`,
      { email: user.user.email, role: 'read-only' },
    );
    await as(service, user.token, 'POST', '/api/invitations/accept', { token: invitation.body!.token });
    expect(await as(service, user.token, 'GET', '/api/billing/usage')).toMatchObject({
      status: 400,
      body: { error: 'organizationId query parameter is required: you are a member of several organizations' },
    });
    const theirs = await as(service, user.token, 'GET', `/api/billing/usage?organizationId=${other.organization.id}`);
    expect(theirs.status).toBe(200);
    expect(
      await as(service, user.token, 'POST', `/api/billing/portal?organizationId=${other.organization.id}`),
    ).toMatchObject({
      status: 403,
      body: { error: 'this needs the admin role in the organization' },
    });
  });
});

interface StripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/** A loopback server answering the two Stripe calls the service makes, recording each request. */
async function startFakeStripe() {
  const requests: StripeRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, form });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/checkout/sessions' && form.get('line_items[0][price]') === 'price_team_year') {
        res.statusCode = 400;
        res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such price: price_team_year' } }),
        );
      } else if (req.url === '/v1/checkout/sessions') {
        res.end(
          JSON.stringify({
            id: 'cs_test_1',
            object: 'checkout.session',
            url: 'https://checkout.stripe.test/c/pay/cs_test_1',
          }),
        );
      } else if (req.url === '/v1/billing_portal/sessions') {
        res.end(
          JSON.stringify({
            id: 'bps_1',
            object: 'billing_portal.session',
            url: 'https://billing.stripe.test/p/session/bps_1',
          }),
        );
      } else {
        res.statusCode = 404;
        res.end(
          JSON.stringify({
            error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` },
          }),
        );
      }
    });
  });
  const { url } = await listenOnLoopback(server);
  return {
    url,
    requests,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('billing through Stripe', () => {
  const WEBHOOK_SECRET = 'whsec_test_secret';
  const clock = new TestClock();
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let service: TestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let events = 0;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    service = await startTestService(
      {
        PLANS_FILE: plansFile,
        STRIPE_SECRET_KEY: 'sk_test_sightline',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      },
      { now: clock.now },
    );
    user = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
    await stripe?.close();
  });

  /** Sends a customer.subscription.* event, signed as Stripe signs it, created `ageSeconds` ago. */
  function sendSubscriptionEvent(
    type: string,
    subscription: { status: string; price?: string; organizationId?: string },
    ageSeconds = 0,
  ) {
    const nowSeconds = Math.floor(clock.now() / 1000);
    const payload = JSON.stringify({
      id: `evt_${++events}`,
      object: 'event',
      type,
      created: nowSeconds - ageSeconds,
      data: {
        object: {
          id: 'sub_1',
          object: 'subscription',
          customer: 'cus_1',
          status: subscription.status,
          metadata: { organizationId: subscription.organizationId ?? user.organization.id },
          cancel_at_period_end: false,
          canceled_at: subscription.status === 'canceled' ? nowSeconds : null,
          items: {
            object: 'list',
            data: [
              {
                id: 'si_1',
                current_period_start: nowSeconds - 3600,
                current_period_end: nowSeconds + 30 * 86400,
                price: { id: subscription.price ?? 'price_team_month', recurring: { interval: 'month' } },
              },
            ],
          },
        },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: nowSeconds,
    });
    return call(service.app, {
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  }

  const planCode = async () => (await as(service, user.token, 'GET', '/api/billing/usage')).body!.usage.planCode;

  it('says in the plan catalogue that billing is configured', async () => {
    const plans = await call(service.app, { method: 'GET', url: '/api/billing/plans' });
    expect(plans.body!.billingConfigured).toBe(true);
  });

  it('checkout asks Stripe for a subscription session of the plan’s price, tagged with the organization', async () => {
    const checkout = await as(service, user.token, 'POST', '/api/billing/checkout', {
      planCode: 'team',
      interval: 'month',
    });
    expect(checkout).toMatchObject({ status: 200, body: { url: 'https://checkout.stripe.test/c/pay/cs_test_1' } });
    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: 'Bearer sk_test_sightline',
    });
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_team_month',
      'line_items[0][quantity]': '1',
      client_reference_id: user.organization.id,
      customer_email: user.user.email,
      'subscription_data[metadata][organizationId]': user.organization.id,
      success_url: 'http://localhost:8080/billing?checkout=success',
      cancel_url: 'http://localhost:8080/billing?checkout=canceled',
    });
  });

  it('checkout of a plan not sold on the interval is 422; a Stripe refusal is 502', async () => {
    expect(
      await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'free', interval: 'month' }),
    ).toMatchObject({
      status: 422,
      body: { error: 'the Free plan is not sold with a monthly interval' },
    });
    expect(
      await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'team', interval: 'year' }),
    ).toMatchObject({
      status: 502,
      body: { error: 'the payment provider did not complete the request: try again later' },
    });
  });

  it('the portal needs a customer first', async () => {
    expect(await as(service, user.token, 'POST', '/api/billing/portal')).toMatchObject({
      status: 422,
      body: { error: 'no billing account yet: subscribe through checkout first' },
    });
  });

  it('a webhook without a valid signature changes nothing', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.created',
      created: 0,
      data: { object: {} },
    });
    const forged = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_someone_else',
      timestamp: Math.floor(clock.now() / 1000),
    });
    const send = (headers: Record<string, string>) =>
      call(service.app, {
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
    expect(await send({ 'stripe-signature': forged })).toMatchObject({
      status: 400,
      body: { error: 'invalid Stripe signature' },
    });
    expect(await send({})).toMatchObject({ status: 400, body: { error: 'missing Stripe-Signature header' } });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(clock.now() / 1000) - 301,
    });
    expect(await send({ 'stripe-signature': stale })).toMatchObject({
      status: 400,
      body: { error: 'invalid Stripe signature' },
    });
    expect(await planCode()).toBe('free');
  });

  it('a signed webhook body that is not JSON or not an event of the expected shape is a 400 saying so; an unknown event type is received; nothing changes', async () => {
    const nowSeconds = Math.floor(clock.now() / 1000);
    const send = (
      payload: string,
      signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: nowSeconds }),
    ) =>
      call(service.app, {
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    const event = (type: string, object: unknown) =>
      JSON.stringify({ id: 'evt_shape', object: 'event', type, created: nowSeconds, data: { object } });
    const subscription = {
      id: 'sub_shape',
      object: 'subscription',
      customer: 'cus_shape',
      status: 'active',
      metadata: { organizationId: user.organization.id },
      cancel_at_period_end: false,
      canceled_at: null,
      items: { object: 'list', data: [] as unknown[] },
    };
    const answers = [
      await send('{"id": "evt_cut'),
      await send(''),
      await send('[1, 2]'),
      await send(JSON.stringify({ id: 'evt_untyped', object: 'event', created: nowSeconds })),
      await send(JSON.stringify({ type: 'customer.subscription.created', created: nowSeconds })),
      await send(event('customer.subscription.updated', { ...subscription, items: undefined })),
      await send(event('customer.subscription.updated', { ...subscription, customer: 42 })),
      await send(event('customer.subscription.created', { ...subscription, items: { data: [{ price: {} }] } })),
      await send(event('invoice.paid', { id: 'in_1' })),
      await send(event('customer.subscription.created', subscription), 'not a signature header'),
    ].map(({ status, body }) => ({ status, body }));
    expect(answers).toEqual([
      { status: 400, body: { error: 'the webhook body is not JSON' } },
      { status: 400, body: { error: 'the webhook body is not JSON' } },
      { status: 400, body: { error: expect.stringMatching(/^not a Stripe event of the expected shape: the body: /) } },
      { status: 400, body: { error: expect.stringMatching(/^not a Stripe event of the expected shape: type: /) } },
      {
        status: 400,
        body: { error: expect.stringMatching(/^not a Stripe event of the expected shape: data\.object: /) },
      },
      {
        status: 400,
        body: { error: expect.stringMatching(/^not a Stripe event of the expected shape: data\.object\.items: /) },
      },
      {
        status: 400,
        body: { error: expect.stringMatching(/^not a Stripe event of the expected shape: data\.object\.customer: /) },
      },
      {
        status: 400,
        body: {
          error: expect.stringMatching(
            /^not a Stripe event of the expected shape: data\.object\.items\.data\.0\.current_period_start: /,
          ),
        },
      },
      { status: 200, body: { received: true } },
      { status: 400, body: { error: 'invalid Stripe signature' } },
    ]);
    expect(await planCode()).toBe('free');
  });

  it('a subscription event puts the organization on the plan; the subscription and portal follow', async () => {
    expect(await sendSubscriptionEvent('customer.subscription.created', { status: 'active' })).toMatchObject({
      status: 200,
      body: { received: true },
    });
    const usage = (await as(service, user.token, 'GET', '/api/billing/usage')).body!.usage;
    expect(usage).toMatchObject({ planCode: 'team', limits: { projects: 20, seats: 10 } });
    const subscription = (await as(service, user.token, 'GET', '/api/billing/subscription')).body!.subscription;
    expect(subscription).toMatchObject({
      planCode: 'team',
      status: 'active',
      provider: 'stripe',
      interval: 'month',
      cancelAtPeriodEnd: false,
    });
    expect(new Date(subscription.currentPeriodEnd).getTime()).toBeGreaterThan(clock.now());

    const portal = await as(service, user.token, 'POST', '/api/billing/portal');
    expect(portal).toMatchObject({ status: 200, body: { url: 'https://billing.stripe.test/p/session/bps_1' } });
    expect(Object.fromEntries(stripe.requests.at(-1)!.form)).toEqual({
      customer: 'cus_1',
      return_url: 'http://localhost:8080/billing',
    });

    // A later checkout bills the same customer.
    await as(service, user.token, 'POST', '/api/billing/checkout', { planCode: 'team', interval: 'month' });
    expect(stripe.requests.at(-1)!.form.get('customer')).toBe('cus_1');
  });

  it('an older event delivered late is ignored; events of unknown organizations or prices are acknowledged and ignored', async () => {
    clock.advance(10_000);
    expect((await sendSubscriptionEvent('customer.subscription.updated', { status: 'canceled' }, 60)).status).toBe(200);
    expect(await planCode()).toBe('team');
    expect(
      (await sendSubscriptionEvent('customer.subscription.updated', { status: 'active', price: 'price_unknown' }))
        .status,
    ).toBe(200);
    expect(await planCode()).toBe('team');
    expect(
      (
        await sendSubscriptionEvent('customer.subscription.created', {
          status: 'active',
          organizationId: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
    ).toBe(200);
  });

  it('an unpaid subscription suspends the organization (403 here, 503 on ingest, billing still reachable); paying lifts it', async () => {
    const report = () =>
      call(service.app, {
        method: 'POST',
        url: '/api/report',
        headers: bearer(user.project.token),
        payload: { collectionFrames: [], appVersion: '', serverName: '' },
      });
    expect((await report()).status).toBe(200);
    clock.advance(1000);
    await sendSubscriptionEvent('customer.subscription.updated', { status: 'unpaid' });
    expect(await as(service, user.token, 'GET', `/api/projects/connection?projectId=${user.project.id}`)).toMatchObject(
      {
        status: 403,
        body: { error: 'the organization is suspended' },
      },
    );
    expect((await report()).status).toBe(503);
    expect((await as(service, user.token, 'GET', '/api/billing/usage')).body!.usage.planCode).toBe('free');
    expect((await as(service, user.token, 'POST', '/api/billing/portal')).status).toBe(200);

    clock.advance(1000);
    await sendSubscriptionEvent('customer.subscription.updated', { status: 'active' });
    expect((await as(service, user.token, 'GET', `/api/projects/connection?projectId=${user.project.id}`)).status).toBe(
      200,
    );
    expect((await report()).status).toBe(200);
    expect(await planCode()).toBe('team');
  });

  it('a deleted subscription returns the organization to the default plan', async () => {
    clock.advance(1000);
    await sendSubscriptionEvent('customer.subscription.deleted', { status: 'canceled' });
    expect(await planCode()).toBe('free');
    expect((await as(service, user.token, 'GET', '/api/billing/subscription')).body!.subscription).toMatchObject({
      planCode: 'free',
      provider: 'none',
    });
  });
});

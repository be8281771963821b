import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_CATALOGUE,
  PLAN_LIMIT_KEYS,
  limitMessage,
  limitReached,
  parsePlanCatalogue,
  suspendsOrganization,
  usagePeriod,
} from './plans.js';

const plan = (code: string) => ({
  code,
  name: code.toUpperCase(),
  limits: Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [key, 1])),
});

describe('plans', () => {
  it('the built-in catalogue has one generous self-hosted plan with all seven limits', () => {
    const catalogue = parsePlanCatalogue(BUILT_IN_CATALOGUE);
    expect(catalogue.defaultPlan).toBe('self-hosted');
    expect(Object.keys(catalogue.plans[0]!.limits).sort()).toEqual([...PLAN_LIMIT_KEYS].sort());
    expect(catalogue.plans[0]!.limits.projects).toBeGreaterThanOrEqual(1000);
    expect(catalogue.plans[0]!.limits.seats).toBeGreaterThanOrEqual(1000);
  });

  it('fills defaults of a catalogue document', () => {
    const catalogue = parsePlanCatalogue({ defaultPlan: 'a', plans: [plan('a')] });
    expect(catalogue.plans[0]).toMatchObject({
      currency: 'usd',
      prices: { month: null, year: null },
      stripePrices: {},
    });
  });

  it('names the first problem of a bad catalogue with its path', () => {
    expect(() => parsePlanCatalogue({ defaultPlan: 'b', plans: [plan('a')] })).toThrow(
      'defaultPlan: defaultPlan "b" is not one of the plans',
    );
    expect(() => parsePlanCatalogue({ defaultPlan: 'a', plans: [plan('a'), plan('a')] })).toThrow(
      'plans: plan code "a" appears twice',
    );
    const missing = plan('a') as { limits: Record<string, number> };
    delete missing.limits.seats;
    expect(() => parsePlanCatalogue({ defaultPlan: 'a', plans: [missing] })).toThrow(/plans\.0\.limits\.seats/);
    expect(() =>
      parsePlanCatalogue({
        defaultPlan: 'a',
        plans: [{ ...plan('a'), limits: { ...plan('a').limits, projects: -1 } }],
      }),
    ).toThrow(/projects/);
    expect(() => parsePlanCatalogue({ defaultPlan: 'A', plans: [plan('A')] })).toThrow(/plans\.0\.code/);
  });

  it('a counted limit is reached at its value, and the message names the limit and the plan', () => {
    const free = parsePlanCatalogue({
      defaultPlan: 'free',
      plans: [{ ...plan('free'), name: 'Free', limits: { ...plan('free').limits, projects: 2 } }],
    }).plans[0]!;
    expect(limitReached(free, 'projects', 1)).toBe(false);
    expect(limitReached(free, 'projects', 2)).toBe(true);
    expect(limitMessage(free, 'projects')).toBe(
      'project limit reached: the Free plan allows 2 projects; delete a project or move to a plan with more',
    );
    expect(limitMessage(free, 'seats')).toBe(
      'seat limit reached: the Free plan allows 1 seat, members and pending invitations together; revoke an invitation, remove a member or move to a plan with more',
    );
  });

  it('the usage period is the UTC calendar month', () => {
    expect(usagePeriod(new Date('2026-03-31T23:59:59Z'))).toBe('2026-03');
    expect(usagePeriod(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('only an unpaid subscription suspends', () => {
    expect(suspendsOrganization('unpaid')).toBe(true);
    for (const status of ['active', 'trialing', 'past_due', 'canceled', 'incomplete'])
      expect(suspendsOrganization(status)).toBe(false);
  });
});

/** The billing variables of the configuration: a plan catalogue file and the Stripe pair. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { SMALL_CATALOGUE, writePlansFile } from './support/access.js';
import { runFolder } from './support/test-run-folder.js';

const failure = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('billing configuration', () => {
  it('defaults to the built-in self-hosted plan and no payment provider', () => {
    const { billing } = loadConfig({});
    expect(billing.catalogue.defaultPlan).toBe('self-hosted');
    expect(billing.stripe).toBeNull();
  });

  it('reads a plan catalogue file, and names the problem of a bad one', () => {
    expect(loadConfig({ PLANS_FILE: writePlansFile(SMALL_CATALOGUE) }).billing.catalogue).toEqual(SMALL_CATALOGUE);
    // In words, not Node's "ENOENT: no such file or directory, open …".
    expect(failure({ PLANS_FILE: '/nonexistent/plans.json' }).split('\n').at(-1)).toBe(
      '  PLANS_FILE="/nonexistent/plans.json": no such file',
    );
    expect(failure({ PLANS_FILE: 'plans.json' })).toContain(
      `PLANS_FILE="plans.json": no such file (read as ${path.resolve('plans.json')}: a relative path is from the working directory)`,
    );
    expect(failure({ PLANS_FILE: os.tmpdir() })).toContain(`PLANS_FILE="${os.tmpdir()}": is a folder, not a file`);
    const notJson = path.join(runFolder('sightline-plans-'), 'plans.json');
    fs.writeFileSync(notJson, '{ "defaultPlan": "free", }');
    expect(failure({ PLANS_FILE: notJson })).toMatch(new RegExp(`PLANS_FILE="${notJson}": not valid JSON: \\S`));
    const bad = writePlansFile({ ...SMALL_CATALOGUE, defaultPlan: 'gold' });
    expect(failure({ PLANS_FILE: bad })).toContain('defaultPlan: defaultPlan "gold" is not one of the plans');
  });

  it('turns Stripe on only with both secrets', () => {
    const stripe = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).billing.stripe;
    expect(stripe).toEqual({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiUrl: 'https://api.stripe.com' });
    expect(failure({ STRIPE_SECRET_KEY: 'sk_test_x' })).toContain(
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    );
    expect(failure({ STRIPE_SECRET_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toContain(
      'must be a Stripe secret or restricted key',
    );
  });
});

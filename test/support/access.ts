/** Helpers of the identity and access suites: a movable clock, plan catalogues, credentials. */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { PlanCatalogue } from '../../src/core/plans.js';
import { runFolder } from './test-run-folder.js';

/** The service clock of a test: starts at the real time and moves only when told. */
export class TestClock {
  private ms = Date.now();
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 3600 * SECOND;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Writes a plan catalogue to a temporary file and returns its path (for PLANS_FILE). */
export function writePlansFile(catalogue: PlanCatalogue): string {
  const file = path.join(runFolder('sightline-plans-'), 'plans.json');
  fs.writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

const limits = (projects: number, seats: number) => ({
  projects,
  seats,
  ingest_gb_monthly: 1,
  retention_days_hot: 7,
  retention_days_warm: 30,
  synthetics_checks: 1,
  session_recordings: 100,
});

/** Small limits, so every plan-limit 422 is reachable in a few requests. */
export const SMALL_CATALOGUE: PlanCatalogue = {
  defaultPlan: 'free',
  plans: [
    {
      code: 'free',
      name: 'Free',
      limits: limits(2, 2),
      currency: 'usd',
      prices: { month: 0, year: 0 },
      stripePrices: {},
    },
    {
      code: 'team',
      name: 'Team',
      limits: limits(20, 10),
      currency: 'usd',
      prices: { month: 4900, year: 49000 },
      stripePrices: { month: 'price_team_month', year: 'price_team_year' },
    },
  ],
};

/** Sends a request and returns status, headers and parsed body (null for an empty body). */
export async function call(app: FastifyInstance, options: InjectOptions) {
  const response = await app.inject(options);
  return {
    status: response.statusCode,
    headers: response.headers,
    raw: response.body,
    body: response.body === '' ? null : (JSON.parse(response.body) as Record<string, any>),
  };
}

/**
 * A real device flow through the routes: authorize from `remoteAddress`, approve as `approver`,
 * poll for the tokens; answers them with the address.
 */
export async function deviceLogin(
  app: FastifyInstance,
  approver: string,
  remoteAddress: string,
  userAgent = 'sightline-cli/0.1.0 node/20.19.0 linux',
) {
  const started = await call(app, {
    method: 'POST',
    url: '/api/auth/device/authorize',
    remoteAddress,
    headers: { 'user-agent': userAgent },
    payload: { client_id: 'sightline-cli' },
  });
  const approved = await call(app, {
    method: 'POST',
    url: '/api/device/approve',
    headers: bearer(approver),
    payload: { user_code: started.body?.user_code },
  });
  if (approved.status !== 200) throw new Error(`device approval failed: ${approved.status} ${approved.raw}`);
  const tokens = await call(app, {
    method: 'POST',
    url: '/api/auth/device/token',
    remoteAddress,
    payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.body?.device_code },
  });
  if (tokens.status !== 200) throw new Error(`device token failed: ${tokens.status} ${tokens.raw}`);
  return { ...(tokens.body as { access_token: string; refresh_token: string }), remoteAddress };
}

/** Creates a personal access token through the real route; answers the token. */
export async function createPersonalAccessToken(app: FastifyInstance, sessionToken: string, name: string) {
  const created = await call(app, {
    method: 'POST',
    url: '/api/personal-access-tokens',
    headers: bearer(sessionToken),
    payload: { name },
  });
  if (typeof created.body?.token !== 'string')
    throw new Error(`token creation failed: ${created.status} ${created.raw}`);
  return created.body.token as string;
}

/**
 * A new user invited by an admin into their organization with this role and registered through
 * the invitation (named by the role); answers the registration's answer.
 */
export async function joinByInvitation(
  app: FastifyInstance,
  admin: { token: string; organization: { id: string } },
  role: 'admin' | 'write' | 'read-only',
  email: string,
) {
  const invitation = await call(app, {
    method: 'POST',
    url: `/api/organizations/${admin.organization.id}/invitations`,
    headers: bearer(admin.token),
    payload: { email, role },
  });
  return call(app, {
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'correct horse battery', name: role, invitationToken: invitation.body!.token },
  });
}

/**
 * Making an account, shared by password registration and social sign-in: who may (the
 * REGISTRATION policy, or an invitation), and what an account starts with — an organization the
 * user administers and a first project, or, through an invitation, a membership of the inviting
 * organization. The same policy decides who may start a further organization (POST
 * /api/organizations), which gets what registration gives: `createOrganization`.
 */
import type { Role } from '../../core/roles.js';
import { HttpError, forbidden } from '../../http/errors.js';
import type { Services } from '../services.js';
import type { MetaTx } from '../../store/meta/types.js';
import {
  insertMembership,
  insertOrganization,
  listMemberships,
  type Organization,
} from '../../store/meta/repositories/organizations.js';
import { insertProject, type Project } from '../../store/meta/repositories/projects.js';
import { countUsers, insertUser, type User } from '../../store/meta/repositories/users.js';
import { acceptInvitation } from '../organizations/invitations.js';

export const REGISTRATION_CLOSED = 'registration is closed: ask an organization admin for an invitation';

/** Throws 403 unless the policy lets someone without an invitation make an account now. */
export async function assertRegistrationOpen(services: Services, db: MetaTx = services.meta): Promise<void> {
  const policy = services.config.auth.registration;
  if (policy === 'open') return;
  if (policy === 'first-user' && (await countUsers(db)) === 0) return;
  throw policy === 'invite-only' || policy === 'first-user'
    ? forbidden(REGISTRATION_CLOSED)
    : new HttpError(500, 'unknown registration policy');
}

export const ORGANIZATIONS_CLOSED =
  'registration is closed, so only an admin of an organization may create another one: ask an admin of this server';

/**
 * Throws 403 unless `userId` may start an organization. With registration open anyone signed in
 * may (registering again with another address would give them one anyway). Closed, an
 * organization — and its plan's quotas — is what the operator hands out, so only people already
 * trusted with one (its admins: the first user, whoever they made admin) may start another; a
 * member who joined through an invitation may not.
 */
export async function assertOrganizationCreationOpen(services: Services, db: MetaTx, userId: string): Promise<void> {
  if (services.config.auth.registration === 'open') return;
  const memberships = await listMemberships(db, userId);
  if (!memberships.some((membership) => membership.role === 'admin')) throw forbidden(ORGANIZATIONS_CLOSED);
}

/**
 * A new organization on the default plan (no subscription) with `userId` as its only admin: the
 * one registration starts a person with, and every later one (POST /api/organizations).
 */
export async function createOrganization(tx: MetaTx, name: string, userId: string): Promise<Organization> {
  const organization = await insertOrganization(tx, name);
  await insertMembership(tx, organization.id, userId, 'admin');
  return organization;
}

export interface NewAccount {
  email: string;
  name: string;
  /** Null for an account made through social sign-in: no password until a reset sets one. */
  passwordHash: string | null;
  organizationName?: string | undefined;
  /** Joins the inviting organization instead of starting one (checked and used here). */
  invitationToken?: string | undefined;
}

export interface CreatedAccount {
  user: User;
  organization: Organization;
  role: Role;
  /** The first project; null when the account joined an organization through an invitation. */
  project: Project | null;
}

/**
 * Creates the user and what they start with, inside the caller's transaction. The caller has
 * checked the registration policy (assertRegistrationOpen) unless an invitation is given. A taken
 * e-mail address fails with the unique violation of `users_email_key`.
 */
export async function createAccount(tx: MetaTx, account: NewAccount, now: Date): Promise<CreatedAccount> {
  const user = await insertUser(tx, { email: account.email, name: account.name, passwordHash: account.passwordHash });
  if (account.invitationToken !== undefined) {
    const membership = await acceptInvitation(tx, account.invitationToken, user.id, now);
    return { user, organization: membership.organization, role: membership.role, project: null };
  }
  const owner = account.name || account.email.split('@')[0]!;
  const organization = await createOrganization(
    tx,
    account.organizationName || `${owner.slice(0, 80)}'s organization`,
    user.id,
  );
  const project = await insertProject(tx, {
    organizationId: organization.id,
    name: 'My first project',
    framework: 'opentelemetry',
  });
  return { user, organization, role: 'admin', project };
}

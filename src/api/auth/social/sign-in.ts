/**
 * Who a social sign-in signs in. The rule, in order:
 * 1. the account (issuer and subject) is linked to a user: that user;
 * 2. a user has the provider's verified e-mail address: the account is linked to them;
 * 3. otherwise a new user (no password) with an organization and a first project, or a member of
 *    the inviting organization — under the registration policy, exactly like password registration.
 * An existing user's invitation is left open: they accept it on its page, as after a password sign-in.
 * An address the provider has not verified signs no one in: linking by an unverified address would
 * hand an existing account to whoever typed it at the provider.
 */
import { HttpError, unprocessable } from '../../../http/errors.js';
import type { Services } from '../../../application/services.js';
import { isUniqueViolation } from '../../../store/meta/types.js';
import { findUserByIdentity, linkIdentity } from '../../../store/meta/repositories/user-identities.js';
import { findUserCredentials, type User } from '../../../store/meta/repositories/users.js';
import { assertRegistrationOpen, createAccount } from '../../../application/auth/accounts.js';
import type { SocialProfile, SocialProvider } from './providers.js';

const RACED = 'another sign-in of this account happened at the same moment: sign in again';

export interface SocialSignInOutcome {
  user: User;
  /** The organization a new account joined through the invitation; null otherwise. */
  joinedOrganizationId: string | null;
}

export async function userOfSocialSignIn(
  services: Services,
  provider: SocialProvider,
  profile: SocialProfile,
  invitationToken: string | undefined,
): Promise<SocialSignInOutcome> {
  if (!profile.email || !profile.emailVerified)
    throw unprocessable(`your ${provider.name} account has no verified e-mail address`);
  const identity = {
    issuer: profile.issuer,
    subject: profile.subject,
    provider: provider.id,
    email: profile.email,
    createdAt: new Date(services.now()),
  };

  const linked = await findUserByIdentity(services.meta, identity);
  if (linked) return { user: linked, joinedOrganizationId: null };

  const existing = await findUserCredentials(services.meta, profile.email);
  if (existing) {
    const linkedTo = await linkIdentity(services.meta, { ...identity, userId: existing.user.id });
    if (linkedTo !== existing.user.id) throw new HttpError(409, RACED);
    return { user: existing.user, joinedOrganizationId: null };
  }

  // An invitation is the way in when registration is otherwise closed.
  if (invitationToken === undefined) await assertRegistrationOpen(services);
  try {
    return await services.meta.transaction(async (tx) => {
      const account = await createAccount(
        tx,
        { email: profile.email, name: profile.name.trim().slice(0, 200), passwordHash: null, invitationToken },
        identity.createdAt,
      );
      const linkedTo = await linkIdentity(tx, { ...identity, userId: account.user.id });
      if (linkedTo !== account.user.id) throw new HttpError(409, RACED);
      return {
        user: account.user,
        joinedOrganizationId: invitationToken === undefined ? null : account.organization.id,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw new HttpError(409, RACED);
    throw error;
  }
}

-- Password reset and social sign-in (OAuth 2.0 / OpenID Connect).

-- When the password last changed: session and CLI tokens issued (iat, whole seconds) before it
-- stop working. Null for a password never changed since the account was made.
ALTER TABLE users ADD COLUMN password_changed_at timestamptz;

-- Password reset links. The token (32 random bytes) is stored only as its SHA-256 and looked up by
-- it. Single use (used_at); a user has at most one open (unused) link, and a new request replaces
-- it in place, so an older mail's link stops working.
CREATE TABLE password_reset_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL CONSTRAINT password_reset_tokens_token_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  CONSTRAINT password_reset_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT password_reset_tokens_expiry CHECK (expires_at > created_at)
);
CREATE UNIQUE INDEX password_reset_tokens_open_key ON password_reset_tokens (user_id) WHERE used_at IS NULL;
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);

-- Accounts at social sign-in providers linked to users: one user per (issuer, subject), where
-- issuer is who vouches for the account (an OpenID Connect issuer URL, or GitHub's URL) and
-- subject its stable id there (OIDC `sub`, GitHub user id). A subject is unique only within its
-- issuer (OpenID Connect Core §2), so an operator pointing the `oidc` provider at another issuer
-- must not sign its accounts in as the old issuer's. `provider` is the sign-in option used;
-- `email` the verified address the provider gave when the link was made (for the record).
CREATE TABLE user_identities (
  issuer     text NOT NULL CONSTRAINT user_identities_issuer_length CHECK (char_length(issuer) BETWEEN 1 AND 2000),
  subject    text NOT NULL CONSTRAINT user_identities_subject_length CHECK (char_length(subject) BETWEEN 1 AND 255),
  provider   text NOT NULL CONSTRAINT user_identities_provider_format CHECK (provider ~ '^[a-z][a-z0-9-]{0,31}$'),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email      text NOT NULL CONSTRAINT user_identities_email_format CHECK (char_length(email) BETWEEN 3 AND 320 AND email LIKE '%_@_%'),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user_idx ON user_identities (user_id);

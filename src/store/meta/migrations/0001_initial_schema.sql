-- Sightline metadata schema, version 1.
--
-- Conventions (keep them in later migrations):
-- * Never edit a landed migration; add the next number. Each file runs in one transaction.
-- * No schema-qualified names: the schema comes from search_path (tests use scratch schemas).
-- * Entity tables: uuid primary key DEFAULT gen_random_uuid() (core since PostgreSQL 13).
-- * Times are timestamptz. created_at defaults to now(); updated_at is set by the writer (no triggers).
-- * Enumerations are text + CHECK (easy to extend: drop and re-add the constraint in a migration).
-- * Every foreign key column leads some index (cascades and joins stay cheap); a test checks it.
-- * Secrets are stored as SHA-256 hex (token_hash) only. The exceptions are the project tokens
--   (ingest, upload, source map): the dashboard shows them again (projects list, Connection page),
--   so they are stored as issued. Treat a database dump as holding live ingest/upload credentials.
-- * Case-insensitive e-mail: unique indexes on lower(email); look up with lower(email) = lower($1).

-- Accounts ---------------------------------------------------------------------------------------

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL CONSTRAINT users_email_format CHECK (char_length(email) BETWEEN 3 AND 320 AND email LIKE '%_@_%'),
  name          text NOT NULL DEFAULT '' CONSTRAINT users_name_length CHECK (char_length(name) <= 200),
  -- PHC string (argon2id today); null for an account that has no password yet.
  password_hash text CONSTRAINT users_password_hash_format CHECK (password_hash ~ '^\$[a-z0-9-]+\$'),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE organizations (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name             text NOT NULL CONSTRAINT organizations_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 100),
  -- Suspended: 403 on the application API, 503 on ingest.
  suspended_at     timestamptz,
  suspended_reason text CONSTRAINT organizations_suspended_reason_length CHECK (char_length(suspended_reason) <= 500),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role            text NOT NULL CONSTRAINT memberships_role CHECK (role IN ('admin', 'write', 'read-only')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE invitations (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email           text NOT NULL CONSTRAINT invitations_email_format CHECK (char_length(email) BETWEEN 3 AND 320 AND email LIKE '%_@_%'),
  role            text NOT NULL CONSTRAINT invitations_role CHECK (role IN ('admin', 'write', 'read-only')),
  token_hash      text NOT NULL CONSTRAINT invitations_token_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  invited_by      uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  accepted_at     timestamptz,
  accepted_by     uuid REFERENCES users (id) ON DELETE SET NULL,
  revoked_at      timestamptz,
  CONSTRAINT invitations_token_hash_key UNIQUE (token_hash),
  CONSTRAINT invitations_expiry CHECK (expires_at > created_at),
  CONSTRAINT invitations_single_outcome CHECK (accepted_at IS NULL OR revoked_at IS NULL)
);
-- One open invitation per address and organization (an expired one is renewed in place or revoked first).
CREATE UNIQUE INDEX invitations_open_email_key ON invitations (organization_id, lower(email))
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX invitations_organization_idx ON invitations (organization_id, created_at);
CREATE INDEX invitations_invited_by_idx ON invitations (invited_by) WHERE invited_by IS NOT NULL;
CREATE INDEX invitations_accepted_by_idx ON invitations (accepted_by) WHERE accepted_by IS NOT NULL;

CREATE TABLE organization_settings (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  settings        jsonb NOT NULL DEFAULT '{}' CONSTRAINT organization_settings_object CHECK (jsonb_typeof(settings) = 'object'),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX organization_settings_updated_by_idx ON organization_settings (updated_by) WHERE updated_by IS NOT NULL;

-- Projects ---------------------------------------------------------------------------------------

CREATE TABLE projects (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- Allowed characters are checked by the API (Unicode letters); the database bounds the length.
  name             text NOT NULL CONSTRAINT projects_name_length CHECK (char_length(name) BETWEEN 1 AND 100),
  -- Allowed values live in the core (dashboard picker list); the database checks the shape.
  framework        text NOT NULL CONSTRAINT projects_framework_format CHECK (framework ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  backend_url      text NOT NULL DEFAULT '' CONSTRAINT projects_backend_url_length CHECK (char_length(backend_url) <= 2048),
  -- Ingest token: 32 lowercase hex, compared as an exact string. Stored as issued (shown in the projects list).
  token            text NOT NULL CONSTRAINT projects_token_format CHECK (token ~ '^[0-9a-f]{32}$'),
  -- Symbol upload token and source-map upload token: 'tpu_' / 'tps_' + 40 lowercase hex.
  -- Stored as issued (shown on the project's Connection page); rotation overwrites them.
  upload_token     text NOT NULL CONSTRAINT projects_upload_token_format CHECK (upload_token ~ '^tpu_[0-9a-f]{40}$'),
  source_map_token text NOT NULL CONSTRAINT projects_source_map_token_format CHECK (source_map_token ~ '^tps_[0-9a-f]{40}$'),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT projects_token_key UNIQUE (token),
  CONSTRAINT projects_upload_token_key UNIQUE (upload_token),
  CONSTRAINT projects_source_map_token_key UNIQUE (source_map_token),
  -- Target of composite foreign keys that must stay inside the project's organization.
  CONSTRAINT projects_id_organization_key UNIQUE (id, organization_id)
);
CREATE INDEX projects_organization_idx ON projects (organization_id, created_at);

-- A project-level role narrows a member's organization role on one project; the effective role is
-- the lower of the two (an override above the organization role has no effect). Tied to the
-- membership: removing the member from the organization removes the overrides.
CREATE TABLE project_role_overrides (
  project_id      uuid NOT NULL,
  organization_id uuid NOT NULL,
  user_id         uuid NOT NULL,
  role            text NOT NULL CONSTRAINT project_role_overrides_role CHECK (role IN ('write', 'read-only')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, user_id),
  CONSTRAINT project_role_overrides_project_fkey FOREIGN KEY (project_id, organization_id)
    REFERENCES projects (id, organization_id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT project_role_overrides_membership_fkey FOREIGN KEY (organization_id, user_id)
    REFERENCES memberships (organization_id, user_id) ON DELETE CASCADE
);
CREATE INDEX project_role_overrides_membership_idx ON project_role_overrides (organization_id, user_id);

-- Credentials ------------------------------------------------------------------------------------

CREATE TABLE personal_access_tokens (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name         text NOT NULL CONSTRAINT personal_access_tokens_name_length CHECK (char_length(name) BETWEEN 1 AND 100),
  -- First 12 characters of the token ('tpp_' + 8), kept to recognise it in lists.
  prefix       text NOT NULL CONSTRAINT personal_access_tokens_prefix_format CHECK (char_length(prefix) = 12 AND left(prefix, 4) = 'tpp_'),
  -- SHA-256 hex of the whole token; the token itself is never stored.
  token_hash   text NOT NULL CONSTRAINT personal_access_tokens_token_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  last_used_at timestamptz,
  revoked_at   timestamptz,
  CONSTRAINT personal_access_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT personal_access_tokens_expiry CHECK (expires_at > created_at)
);
CREATE INDEX personal_access_tokens_user_idx ON personal_access_tokens (user_id, created_at);

-- RFC 8628 device authorization. 'expired' is not stored: it is pending past expires_at.
CREATE TABLE device_codes (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_code_hash     text NOT NULL CONSTRAINT device_codes_device_code_hash_format CHECK (device_code_hash ~ '^[0-9a-f]{64}$'),
  -- Short, typed by a person, useless after expires_at (600 s) and rate limited: stored as shown,
  -- normalised to upper case with the dash.
  user_code            text NOT NULL CONSTRAINT device_codes_user_code_format CHECK (user_code ~ '^[A-Z0-9]{4}-[A-Z0-9]{4}$'),
  client_id            text NOT NULL CONSTRAINT device_codes_client_id_length CHECK (char_length(client_id) BETWEEN 1 AND 100),
  status               text NOT NULL DEFAULT 'pending' CONSTRAINT device_codes_status CHECK (status IN ('pending', 'approved', 'denied', 'consumed')),
  -- The user who approved or denied.
  user_id              uuid REFERENCES users (id) ON DELETE CASCADE,
  interval_seconds     integer NOT NULL DEFAULT 5 CONSTRAINT device_codes_interval CHECK (interval_seconds BETWEEN 1 AND 300),
  last_polled_at       timestamptz,
  -- Shown on the approval page so the user can recognise the request.
  requester_ip         text CONSTRAINT device_codes_requester_ip_length CHECK (char_length(requester_ip) <= 64),
  requester_user_agent text CONSTRAINT device_codes_requester_user_agent_length CHECK (char_length(requester_user_agent) <= 512),
  created_at           timestamptz NOT NULL DEFAULT now(),
  expires_at           timestamptz NOT NULL,
  decided_at           timestamptz,
  consumed_at          timestamptz,
  CONSTRAINT device_codes_device_code_hash_key UNIQUE (device_code_hash),
  CONSTRAINT device_codes_expiry CHECK (expires_at > created_at),
  CONSTRAINT device_codes_decision CHECK ((status = 'pending') = (user_id IS NULL) AND (status = 'pending') = (decided_at IS NULL)),
  CONSTRAINT device_codes_consumption CHECK ((status = 'consumed') = (consumed_at IS NOT NULL))
);
CREATE UNIQUE INDEX device_codes_pending_user_code_key ON device_codes (user_code) WHERE status = 'pending';
CREATE INDEX device_codes_user_idx ON device_codes (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX device_codes_expires_idx ON device_codes (expires_at);

-- Refresh tokens of device logins rotate on every use; a family is one login. Reuse of a rotated
-- token revokes the whole family (RFC 9700).
CREATE TABLE refresh_token_families (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id      text NOT NULL CONSTRAINT refresh_token_families_client_id_length CHECK (char_length(client_id) BETWEEN 1 AND 100),
  created_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at     timestamptz,
  revoked_reason text CONSTRAINT refresh_token_families_revoked_reason
    CHECK (revoked_reason IN ('logout', 'reuse_detected', 'revoked_by_user', 'password_changed', 'admin')),
  CONSTRAINT refresh_token_families_revocation CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL))
);
CREATE INDEX refresh_token_families_user_idx ON refresh_token_families (user_id);

CREATE TABLE refresh_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  family_id   uuid NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
  token_hash  text NOT NULL CONSTRAINT refresh_tokens_token_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  rotated_at  timestamptz,
  replaced_by uuid REFERENCES refresh_tokens (id) ON DELETE SET NULL,
  CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT refresh_tokens_expiry CHECK (expires_at > created_at),
  CONSTRAINT refresh_tokens_replacement CHECK (replaced_by IS NULL OR rotated_at IS NOT NULL)
);
-- At most one live (unrotated) token per family: two racing rotations cannot both win.
CREATE UNIQUE INDEX refresh_tokens_live_key ON refresh_tokens (family_id) WHERE rotated_at IS NULL;
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_replaced_by_idx ON refresh_tokens (replaced_by) WHERE replaced_by IS NOT NULL;
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);

-- Billing ----------------------------------------------------------------------------------------

-- Mirror of the plan catalogue in configuration (upserted at start); subscriptions reference it.
-- A plan dropped from configuration is marked inactive, never deleted while referenced.
CREATE TABLE plans (
  code                 text PRIMARY KEY CONSTRAINT plans_code_format CHECK (code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  name                 text NOT NULL CONSTRAINT plans_name_length CHECK (char_length(name) BETWEEN 1 AND 100),
  -- Limits, named as in GET /api/billing/usage.
  projects             integer NOT NULL CONSTRAINT plans_projects CHECK (projects >= 0),
  seats                integer NOT NULL CONSTRAINT plans_seats CHECK (seats >= 0),
  ingest_gb_monthly    integer NOT NULL CONSTRAINT plans_ingest_gb_monthly CHECK (ingest_gb_monthly >= 0),
  retention_days_hot   integer NOT NULL CONSTRAINT plans_retention_days_hot CHECK (retention_days_hot >= 0),
  retention_days_warm  integer NOT NULL CONSTRAINT plans_retention_days_warm CHECK (retention_days_warm >= 0),
  synthetics_checks    integer NOT NULL CONSTRAINT plans_synthetics_checks CHECK (synthetics_checks >= 0),
  session_recordings   integer NOT NULL CONSTRAINT plans_session_recordings CHECK (session_recordings >= 0),
  -- Prices in minor units; null: not sold on that interval.
  currency             text NOT NULL DEFAULT 'usd' CONSTRAINT plans_currency CHECK (currency ~ '^[a-z]{3}$'),
  price_monthly_minor  integer CONSTRAINT plans_price_monthly CHECK (price_monthly_minor >= 0),
  price_yearly_minor   integer CONSTRAINT plans_price_yearly CHECK (price_yearly_minor >= 0),
  -- Payment-provider price ids, e.g. {"stripe": {"month": "price_...", "year": "price_..."}}.
  provider_prices      jsonb NOT NULL DEFAULT '{}' CONSTRAINT plans_provider_prices_object CHECK (jsonb_typeof(provider_prices) = 'object'),
  active               boolean NOT NULL DEFAULT true,
  sort_order           integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id          uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  plan_code                text NOT NULL REFERENCES plans (code) ON UPDATE CASCADE,
  -- Stripe's status set; provider 'none' (self-hosted, no billing) uses 'active'.
  status                   text NOT NULL CONSTRAINT subscriptions_status
    CHECK (status IN ('trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused')),
  provider                 text NOT NULL DEFAULT 'none' CONSTRAINT subscriptions_provider CHECK (provider IN ('none', 'stripe')),
  provider_customer_id     text CONSTRAINT subscriptions_provider_customer_id_length CHECK (char_length(provider_customer_id) <= 255),
  provider_subscription_id text CONSTRAINT subscriptions_provider_subscription_id_length CHECK (char_length(provider_subscription_id) <= 255),
  billing_interval         text CONSTRAINT subscriptions_billing_interval CHECK (billing_interval IN ('month', 'year')),
  current_period_start     timestamptz,
  current_period_end       timestamptz,
  cancel_at_period_end     boolean NOT NULL DEFAULT false,
  canceled_at              timestamptz,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subscriptions_period CHECK (current_period_end > current_period_start),
  CONSTRAINT subscriptions_provider_subscription_key UNIQUE (provider, provider_subscription_id)
);
-- One current (not ended) subscription per organization; ended ones stay as history.
CREATE UNIQUE INDEX subscriptions_current_key ON subscriptions (organization_id)
  WHERE status NOT IN ('canceled', 'incomplete_expired');
CREATE INDEX subscriptions_organization_idx ON subscriptions (organization_id, created_at);
CREATE INDEX subscriptions_plan_idx ON subscriptions (plan_code);
CREATE INDEX subscriptions_provider_customer_idx ON subscriptions (provider, provider_customer_id)
  WHERE provider_customer_id IS NOT NULL;

-- Project content --------------------------------------------------------------------------------

-- Uploaded debug symbols; the bytes live in the object store under object_key.
CREATE TABLE symbol_files (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id     uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind           text NOT NULL CONSTRAINT symbol_files_kind CHECK (kind IN ('dart', 'ios', 'proguard')),
  -- Normalised: lowercase hex, no dashes (Dart build id, Mach-O UUID, mapping id).
  build_id       text NOT NULL CONSTRAINT symbol_files_build_id_format CHECK (build_id ~ '^[0-9a-f]{8,128}$'),
  -- Dart: arm64, arm, x64, ia32. iOS: the Mach-O slice (arm64, arm64e, x86_64, ...). ProGuard: ''.
  arch           text NOT NULL DEFAULT '' CONSTRAINT symbol_files_arch_format CHECK (arch ~ '^[a-z0-9_]{0,16}$'),
  object_key     text NOT NULL CONSTRAINT symbol_files_object_key_length CHECK (char_length(object_key) BETWEEN 1 AND 1024),
  size           bigint NOT NULL CONSTRAINT symbol_files_size CHECK (size >= 0),
  content_sha256 text CONSTRAINT symbol_files_content_sha256_format CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT symbol_files_dart_arch CHECK (kind <> 'dart' OR arch IN ('arm64', 'arm', 'x64', 'ia32')),
  CONSTRAINT symbol_files_ios_arch CHECK (kind <> 'ios' OR arch <> ''),
  CONSTRAINT symbol_files_build_key UNIQUE (project_id, kind, build_id, arch),
  CONSTRAINT symbol_files_object_key_key UNIQUE (project_id, object_key)
);
CREATE INDEX symbol_files_project_uploaded_idx ON symbol_files (project_id, uploaded_at);

CREATE TABLE dashboards (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name       text NOT NULL CONSTRAINT dashboards_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  definition jsonb NOT NULL DEFAULT '{}' CONSTRAINT dashboards_definition_object CHECK (jsonb_typeof(definition) = 'object'),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboards_project_idx ON dashboards (project_id, name);
CREATE INDEX dashboards_created_by_idx ON dashboards (created_by) WHERE created_by IS NOT NULL;

-- Alerting: channels (where notifications go), rules (what to watch), deliveries (an outbox of
-- notifications, retried with backoff) and events (every delivery attempt and its outcome).
-- Rules and deliveries are claimed with a lease (lease_owner + lease_until, FOR UPDATE SKIP
-- LOCKED), so with several processes exactly one evaluates a rule or sends a delivery at a time.

CREATE TABLE alert_channels (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- null: an organization channel, usable by rules of every project of the organization.
  project_id        uuid REFERENCES projects (id) ON DELETE CASCADE,
  name              text NOT NULL CONSTRAINT alert_channels_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 100),
  kind              text NOT NULL CONSTRAINT alert_channels_kind CHECK (kind IN ('email', 'webhook', 'slack')),
  -- email: {addresses}; webhook: {url}; slack: {urlHint} (the URL itself is the secret).
  config            jsonb NOT NULL DEFAULT '{}',
  -- The webhook signing secret or the Slack webhook URL, AES-256-GCM under a key derived from
  -- the service's session secret (the service must sign and post with it, so it cannot be hashed).
  secret_ciphertext text,
  created_by        uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_channels_organization_idx ON alert_channels (organization_id);
CREATE INDEX alert_channels_project_idx ON alert_channels (project_id);
CREATE INDEX alert_channels_created_by_idx ON alert_channels (created_by);

CREATE TABLE alert_rules (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id         uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name               text NOT NULL CONSTRAINT alert_rules_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 100),
  kind               text NOT NULL CONSTRAINT alert_rules_kind CHECK (kind IN ('new_issue', 'regression', 'issue_frequency', 'endpoint_latency', 'error_rate', 'metric_threshold', 'log_match')),
  params             jsonb NOT NULL DEFAULT '{}',
  channel_ids        uuid[] NOT NULL DEFAULT '{}',
  enabled            boolean NOT NULL DEFAULT true,
  cooldown_seconds   integer NOT NULL DEFAULT 0 CONSTRAINT alert_rules_cooldown CHECK (cooldown_seconds BETWEEN 0 AND 604800),
  snoozed_until      timestamptz,
  state              text NOT NULL DEFAULT 'ok' CONSTRAINT alert_rules_state CHECK (state IN ('ok', 'firing', 'resolved')),
  state_changed_at   timestamptz,
  last_value         double precision,
  last_evaluated_at  timestamptz,
  -- When the last firing notification was sent (cooldown) and whether the current firing was notified.
  last_notified_at   timestamptz,
  firing_notified    boolean NOT NULL DEFAULT false,
  -- New-issue and regression rules: the last issue_activity id they have looked at.
  activity_cursor    bigint NOT NULL DEFAULT 0,
  next_evaluation_at timestamptz NOT NULL,
  lease_owner        uuid,
  lease_until        timestamptz,
  created_by         uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_rules_project_idx ON alert_rules (project_id);
CREATE INDEX alert_rules_due_idx ON alert_rules (next_evaluation_at) WHERE enabled;
CREATE INDEX alert_rules_created_by_idx ON alert_rules (created_by);

CREATE TABLE alert_deliveries (
  id              bigserial PRIMARY KEY,
  project_id      uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  rule_id         uuid REFERENCES alert_rules (id) ON DELETE CASCADE,
  channel_id      uuid NOT NULL REFERENCES alert_channels (id) ON DELETE CASCADE,
  state           text NOT NULL CONSTRAINT alert_deliveries_state CHECK (state IN ('firing', 'resolved')),
  -- The notification (title, lines, link, rule, value): rendered per channel kind when sent.
  payload         jsonb NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  status          text NOT NULL DEFAULT 'pending' CONSTRAINT alert_deliveries_status CHECK (status IN ('pending', 'delivered', 'failed')),
  next_attempt_at timestamptz NOT NULL,
  lease_owner     uuid,
  lease_until     timestamptz,
  created_at      timestamptz NOT NULL
);
CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_deliveries_project_idx ON alert_deliveries (project_id);
CREATE INDEX alert_deliveries_rule_idx ON alert_deliveries (rule_id);
CREATE INDEX alert_deliveries_channel_idx ON alert_deliveries (channel_id);

CREATE TABLE alert_events (
  id              bigserial PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- null for a test send of an organization channel.
  project_id      uuid REFERENCES projects (id) ON DELETE CASCADE,
  rule_id         uuid REFERENCES alert_rules (id) ON DELETE SET NULL,
  rule_name       text,
  channel_id      uuid REFERENCES alert_channels (id) ON DELETE SET NULL,
  channel_name    text NOT NULL,
  state           text NOT NULL CONSTRAINT alert_events_state CHECK (state IN ('firing', 'resolved', 'test')),
  at              timestamptz NOT NULL,
  attempt         integer NOT NULL,
  outcome         text NOT NULL CONSTRAINT alert_events_outcome CHECK (outcome IN ('delivered', 'retrying', 'failed')),
  response_status integer,
  error           text CONSTRAINT alert_events_error_length CHECK (char_length(error) <= 1000)
);
CREATE INDEX alert_events_project_idx ON alert_events (project_id, id);
CREATE INDEX alert_events_organization_idx ON alert_events (organization_id);
CREATE INDEX alert_events_rule_idx ON alert_events (rule_id);
CREATE INDEX alert_events_channel_idx ON alert_events (channel_id);

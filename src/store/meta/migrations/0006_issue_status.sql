-- The issue workflow: one row per issue (project, grouping hash) once ingest has seen it, with
-- its status, and an activity list of every change (people's and ingest's: new, regressed,
-- reopened). A hash without a row is an issue ingest has not registered yet: it reads as open.
CREATE TABLE issue_states (
  project_id          uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  hash                text NOT NULL CONSTRAINT issue_states_hash_format CHECK (hash ~ '^[0-9a-f]{16}$'),
  status              text NOT NULL DEFAULT 'open' CONSTRAINT issue_states_status CHECK (status IN ('open', 'resolved', 'ignored')),
  -- Resolved "in the next version": only occurrences of a newer app version regress it.
  resolved_in_version text CONSTRAINT issue_states_version_length CHECK (char_length(resolved_in_version) <= 128),
  ignored_until       timestamptz,
  -- Ignored until this many more occurrences; ignored_count counts them since the change.
  ignore_limit        bigint CONSTRAINT issue_states_ignore_limit CHECK (ignore_limit > 0),
  ignored_count       bigint NOT NULL DEFAULT 0,
  first_seen_at       timestamptz NOT NULL,
  regressed_at        timestamptz,
  regressed_version   text CONSTRAINT issue_states_regressed_version_length CHECK (char_length(regressed_version) <= 128),
  status_changed_at   timestamptz NOT NULL,
  -- null: changed by the service (ingest reopened it), or the person's account is gone.
  status_changed_by   uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (project_id, hash)
);
-- Status filters of the issue list read the project's non-open issues.
CREATE INDEX issue_states_status_idx ON issue_states (project_id, status);
CREATE INDEX issue_states_changed_by_idx ON issue_states (status_changed_by);

CREATE TABLE issue_activity (
  id          bigserial PRIMARY KEY,
  project_id  uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  hash        text NOT NULL,
  at          timestamptz NOT NULL,
  kind        text NOT NULL CONSTRAINT issue_activity_kind CHECK (kind IN ('new', 'status', 'regressed', 'reopened')),
  from_status text,
  to_status   text NOT NULL,
  user_id     uuid REFERENCES users (id) ON DELETE SET NULL,
  -- Conditions of the change (version, until, occurrences) or the regression's version.
  detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX issue_activity_issue_idx ON issue_activity (project_id, hash, id);
-- Alert rules on new issues and regressions read the project's activity after their cursor.
CREATE INDEX issue_activity_project_kind_idx ON issue_activity (project_id, kind, id);
CREATE INDEX issue_activity_user_idx ON issue_activity (user_id);

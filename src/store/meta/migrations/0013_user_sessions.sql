-- Every dashboard session and CLI password login, recorded when its token is issued, so a person
-- can see where they are signed in and end any of those sessions. A token of these kinds is
-- accepted only while its row is here: signing out, "sign out of all other sessions" and a
-- password change or reset delete rows, and an expired row is pruned by a job. This replaces the
-- list of signed-out token ids (0005) and is the one way a session ends early. `token_id` is the
-- JWT `jti` (random, not a secret: it proves nothing without the signed token). Client address
-- and User-Agent are as at sign-in, like a device login's origin (0011). Tokens issued before this
-- migration have no row, so everyone signs in again once after the upgrade.
CREATE TABLE user_sessions (
  token_id     text PRIMARY KEY CONSTRAINT user_sessions_token_id_length CHECK (char_length(token_id) BETWEEN 1 AND 64),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind         text NOT NULL CONSTRAINT user_sessions_kind CHECK (kind IN ('session', 'cli')),
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  client_ip    text CONSTRAINT user_sessions_client_ip_length CHECK (char_length(client_ip) <= 64),
  user_agent   text CONSTRAINT user_sessions_user_agent_length CHECK (char_length(user_agent) <= 512)
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);
CREATE INDEX user_sessions_expires_idx ON user_sessions (expires_at);

DROP TABLE ended_sessions;

-- Dashboard session and CLI password tokens are signed and stateless; signing out records the
-- token's id (its JWT `jti`, random, not a secret: it proves nothing without the signed token)
-- here until the token would have expired anyway, and authentication refuses a listed id.
CREATE TABLE ended_sessions (
  token_id   text PRIMARY KEY CONSTRAINT ended_sessions_token_id_length CHECK (char_length(token_id) BETWEEN 1 AND 64),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ended_at   timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX ended_sessions_user_idx ON ended_sessions (user_id);
CREATE INDEX ended_sessions_expires_idx ON ended_sessions (expires_at);

-- Quota warnings become leases with per-admin delivery. A row's claimed_at is when a run took the
-- warning to mail it (null once given back for a retry); sent_at is when its mail was settled
-- (every recipient got it or ran out of attempts), null until then. A claim neither sent nor
-- given back within the job's lease (a process that died mid-send) is taken by a later run.
ALTER TABLE quota_warnings
  ADD COLUMN claimed_at timestamptz,
  ALTER COLUMN sent_at DROP NOT NULL;

-- Until now a row was written when its mail went out: it reads as sent, so an upgrade mails nothing again.
UPDATE quota_warnings SET claimed_at = sent_at;

-- The admins a warning is for, fixed when it is first claimed (an admin who joins later is not
-- mailed an old warning): each one's attempts and when the mail reached them, so a mail refused
-- for some admins is retried for those only.
CREATE TABLE quota_warning_recipients (
  organization_id uuid NOT NULL,
  month           date NOT NULL,
  percent         integer NOT NULL,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  attempts        integer NOT NULL DEFAULT 0 CONSTRAINT quota_warning_recipients_attempts CHECK (attempts >= 0),
  delivered_at    timestamptz,
  PRIMARY KEY (organization_id, month, percent, user_id),
  FOREIGN KEY (organization_id, month, percent) REFERENCES quota_warnings ON DELETE CASCADE
);
CREATE INDEX quota_warning_recipients_user_idx ON quota_warning_recipients (user_id);

-- The ingest-quota warnings mailed to an organization's admins: one row per organization, month
-- and threshold (percent of the plan's ingest_gb_monthly), claimed before the mail goes out so
-- that several processes running the job send each warning once.
CREATE TABLE quota_warnings (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  month           date NOT NULL CONSTRAINT quota_warnings_month_first_day CHECK (extract(day FROM month) = 1),
  percent         integer NOT NULL CONSTRAINT quota_warnings_percent CHECK (percent > 0),
  sent_at         timestamptz NOT NULL,
  PRIMARY KEY (organization_id, month, percent)
);

-- Ingest usage per project and calendar month (UTC), summed as each request's rows are stored:
-- decompressed bytes (the quota's figure), requests, records skipped as malformed. Written here in
-- one small transaction per group of requests instead of as a row of the telemetry store, whose
-- extra insert per group commit cost a quarter of OTLP throughput (docs/PERFORMANCE.md). Rows of
-- the telemetry store's `ingest_usage` table written by earlier versions still count: the reads
-- add both. No foreign key: a deleted project's usage stays billed.
CREATE TABLE ingest_usage (
  project_id      uuid NOT NULL,
  month           date NOT NULL CONSTRAINT ingest_usage_month_first_day CHECK (extract(day FROM month) = 1),
  organization_id uuid NOT NULL,
  bytes           bigint NOT NULL CONSTRAINT ingest_usage_bytes CHECK (bytes >= 0),
  requests        bigint NOT NULL CONSTRAINT ingest_usage_requests CHECK (requests >= 0),
  skipped_records bigint NOT NULL CONSTRAINT ingest_usage_skipped_records CHECK (skipped_records >= 0),
  PRIMARY KEY (project_id, month)
);
CREATE INDEX ingest_usage_organization_idx ON ingest_usage (organization_id, month);

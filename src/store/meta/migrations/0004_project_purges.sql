-- Deleted projects whose telemetry and stored objects are still to be removed. A row is written
-- by the statement that deletes the project (so no crash can forget the data), and removed by
-- the purge job once the data is gone; until then the job retries, keeping the last failure.
-- No foreign key: the project row is gone.
CREATE TABLE project_purges (
  project_id   uuid PRIMARY KEY,
  requested_at timestamptz NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  last_error   text
);
CREATE INDEX project_purges_requested_idx ON project_purges (requested_at);

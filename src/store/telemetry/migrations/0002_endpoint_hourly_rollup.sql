-- Hourly rollup of endpoints, for list, stats and dashboard reads over long ranges.
--
-- A materialized view would count a re-sent frame twice (the raw table collapses it only at
-- merge or FINAL). So the rollup is built by a job from `endpoints FINAL` for closed hours, and
-- rollup_hours says which hours' rolls are current: an hour is served from the rollup only while
-- its last roll is later than its last mark; ingest marks an hour when rows land in it after it
-- could have been rolled. A re-roll inserts rows with a later rolled_at, which replace the old
-- ones (ReplacingMergeTree version; reads use FINAL on this small table).

CREATE TABLE IF NOT EXISTS endpoint_hourly (
  project_id UUID,
  hour DateTime('UTC'),
  name String,
  route String,
  method LowCardinality(String),
  rolled_at DateTime64(3, 'UTC'),
  requests UInt64,
  server_errors UInt64,
  client_errors UInt64,
  latency_requests UInt64,
  streaming_requests UInt64,
  -- Apdex counts at the rolled threshold (500 ms); another threshold reads the raw table.
  satisfied UInt64,
  tolerating UInt64,
  -- Latency quantiles of non-streaming requests, mergeable across hours.
  latency AggregateFunction(quantiles(0.5, 0.95, 0.99), Int64),
  last_seen DateTime64(9, 'UTC')
) ENGINE = ReplacingMergeTree(rolled_at)
PARTITION BY toYYYYMM(hour)
ORDER BY (project_id, hour, name)
TTL hour + INTERVAL 90 DAY;

-- Per (table, project, hour): when it was last rolled and when rows last landed in it that a roll
-- may not have seen. Both are server times (now64), so several processes agree on the order.
CREATE TABLE IF NOT EXISTS rollup_hours (
  table_name LowCardinality(String),
  project_id UUID,
  hour DateTime('UTC'),
  rolled_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')) DEFAULT toDateTime64(0, 3, 'UTC'),
  -- A mark is inserted without it: the server's time of the insert.
  marked_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')) DEFAULT now64(3, 'UTC')
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, table_name, hour)
TTL hour + INTERVAL 91 DAY;

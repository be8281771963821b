-- Telemetry tables. Every sort key starts with project_id (tenant isolation and pruning).
-- Tables whose records carry an id, or a content key, are ReplacingMergeTree on that key, so a
-- re-sent frame replaces rather than adds; reads that count use FINAL or group by the key.
-- Retention is a TTL (90 days); operators change it with ALTER TABLE ... MODIFY TTL.

CREATE TABLE IF NOT EXISTS endpoints (
  project_id UUID,
  id UUID,
  distributed_trace_id UUID,
  parent_span_id UUID,
  is_root Bool,
  recorded_at DateTime64(9, 'UTC'),
  duration_ns Int64,
  name String,
  method LowCardinality(String),
  route String,
  status_code UInt16,
  body_size UInt64,
  client_ip String,
  streaming Bool,
  server_name LowCardinality(String),
  app_version LowCardinality(String),
  attributes Map(String, String),
  source LowCardinality(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(recorded_at)
ORDER BY (project_id, toStartOfHour(recorded_at), name, id)
TTL toDateTime(recorded_at) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS tasks (
  project_id UUID,
  id UUID,
  distributed_trace_id UUID,
  parent_span_id UUID,
  is_root Bool,
  recorded_at DateTime64(9, 'UTC'),
  duration_ns Int64,
  name String,
  status_code UInt16,
  server_name LowCardinality(String),
  app_version LowCardinality(String),
  attributes Map(String, String),
  source LowCardinality(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(recorded_at)
ORDER BY (project_id, toStartOfHour(recorded_at), name, id)
TTL toDateTime(recorded_at) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS ai_traces (
  project_id UUID,
  id UUID,
  distributed_trace_id UUID,
  parent_span_id UUID,
  is_root Bool,
  recorded_at DateTime64(9, 'UTC'),
  duration_ns Int64,
  name String,
  model LowCardinality(String),
  provider LowCardinality(String),
  operation LowCardinality(String),
  input_tokens UInt64,
  output_tokens UInt64,
  cached_tokens UInt64,
  reasoning_tokens UInt64,
  input_cost Float64,
  output_cost Float64,
  total_cost Float64,
  finish_reason LowCardinality(String),
  tool_calls UInt32,
  conversation_id String,
  conversation_key String,
  is_error Bool,
  server_name LowCardinality(String),
  app_version LowCardinality(String),
  attributes Map(String, String),
  source LowCardinality(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(recorded_at)
ORDER BY (project_id, toStartOfHour(recorded_at), name, id)
TTL toDateTime(recorded_at) + INTERVAL 90 DAY;

-- Looked up by owning entity (the waterfall), so the entity id follows project_id.
CREATE TABLE IF NOT EXISTS spans (
  project_id UUID,
  trace_id UUID,
  span_id UUID,
  parent_span_id UUID,
  name String,
  kind LowCardinality(String),
  start_time DateTime64(9, 'UTC'),
  duration_ns Int64,
  status_code UInt16,
  attributes Map(String, String),
  events Array(Tuple(time DateTime64(9, 'UTC'), name String, attributes Map(String, String)))
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(start_time)
ORDER BY (project_id, trace_id, span_id)
TTL toDateTime(start_time) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS exceptions (
  project_id UUID,
  hash FixedString(16),
  dedup_key String,
  recorded_at DateTime64(9, 'UTC'),
  stack_trace String,
  raw_stack_trace String,
  is_message Bool,
  trace_id UUID,
  is_task Bool,
  session_id UUID,
  session_recording_id UUID,
  distributed_trace_id UUID,
  server_name LowCardinality(String),
  app_version LowCardinality(String),
  attributes Map(String, String),
  source LowCardinality(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(recorded_at)
ORDER BY (project_id, toStartOfHour(recorded_at), hash, dedup_key)
TTL toDateTime(recorded_at) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS metric_points (
  project_id UUID,
  name LowCardinality(String),
  recorded_at DateTime64(9, 'UTC'),
  value Float64,
  dimensions Map(LowCardinality(String), String),
  server_name LowCardinality(String),
  dedup_key String,
  source LowCardinality(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(recorded_at)
ORDER BY (project_id, name, toStartOfHour(recorded_at), dedup_key)
TTL toDateTime(recorded_at) + INTERVAL 90 DAY;

CREATE TABLE IF NOT EXISTS logs (
  project_id UUID,
  timestamp DateTime64(9, 'UTC'),
  observed_timestamp DateTime64(9, 'UTC'),
  severity_number UInt8,
  severity_text LowCardinality(String),
  body String,
  trace_id String,
  span_id String,
  service_name LowCardinality(String),
  attributes Map(String, String),
  resource_attributes Map(String, String),
  dedup_key String,
  INDEX body_tokens lower(body) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 4,
  INDEX trace_id_set trace_id TYPE bloom_filter(0.01) GRANULARITY 4
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (project_id, toStartOfHour(timestamp), service_name, dedup_key)
TTL toDateTime(timestamp) + INTERVAL 30 DAY;

-- Upserted by id: the row with the newest updated_at wins.
CREATE TABLE IF NOT EXISTS sessions (
  project_id UUID,
  id UUID,
  started_at DateTime64(9, 'UTC'),
  ended_at Nullable(DateTime64(9, 'UTC')),
  duration_ns Nullable(Int64),
  client_ip String,
  attributes Map(String, String),
  distributed_trace_id UUID,
  updated_at DateTime64(9, 'UTC')
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (project_id, id)
TTL toDateTime(started_at) + INTERVAL 30 DAY;

-- Identity of a recording is (session, exception, segment): re-sent segments replace.
CREATE TABLE IF NOT EXISTS session_recordings (
  project_id UUID,
  session_id UUID,
  exception_id UUID,
  segment_index UInt32,
  started_at DateTime64(9, 'UTC'),
  ended_at DateTime64(9, 'UTC'),
  event_count UInt32,
  byte_size UInt64,
  object_key String,
  logs String,
  actions String,
  received_at DateTime64(9, 'UTC')
) ENGINE = ReplacingMergeTree(received_at)
ORDER BY (project_id, session_id, exception_id, segment_index)
TTL toDateTime(received_at) + INTERVAL 30 DAY;

CREATE TABLE IF NOT EXISTS profiles (
  project_id UUID,
  received_at DateTime64(9, 'UTC'),
  service_name LowCardinality(String),
  object_key String,
  byte_size UInt64,
  sample_count UInt64,
  content_type LowCardinality(String)
) ENGINE = MergeTree
PARTITION BY toYYYYMM(received_at)
ORDER BY (project_id, received_at)
TTL toDateTime(received_at) + INTERVAL 30 DAY;

-- Decompressed bytes per project and calendar month; summed per organization for the quota.
CREATE TABLE IF NOT EXISTS ingest_usage (
  project_id UUID,
  organization_id UUID,
  month Date,
  bytes UInt64,
  requests UInt64,
  skipped_records UInt64
) ENGINE = SummingMergeTree((bytes, requests, skipped_records))
ORDER BY (project_id, month, organization_id)
TTL month + INTERVAL 400 DAY;

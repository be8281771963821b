-- Lookups by id: a trace page (`/api/traces/:id`, `/api/ai-traces/:id`), a distributed trace
-- (`distributed_trace_id`) and an issue's linked entities. The id is the last column of the sort
-- key (project_id, hour, name, id), so without a time bound such a lookup read the project's
-- every granule (10M-row bench: 3.9 s for one trace). A bloom filter per granule (8,192 rows,
-- 1% false positives, about 1.2 bytes a row) lets the engine read the one granule holding the id
-- and about 1% of the others, for a pasted id as much as for a link. Reads with FINAL use skip
-- indexes (use_skip_indexes_if_final, on by default since ClickHouse 25.x).

ALTER TABLE endpoints ADD INDEX IF NOT EXISTS id_set id TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE endpoints ADD INDEX IF NOT EXISTS distributed_trace_id_set distributed_trace_id TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE tasks ADD INDEX IF NOT EXISTS id_set id TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE tasks ADD INDEX IF NOT EXISTS distributed_trace_id_set distributed_trace_id TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE ai_traces ADD INDEX IF NOT EXISTS id_set id TYPE bloom_filter(0.01) GRANULARITY 1;
ALTER TABLE ai_traces ADD INDEX IF NOT EXISTS distributed_trace_id_set distributed_trace_id TYPE bloom_filter(0.01) GRANULARITY 1;

-- Rows stored before this migration: build the indexes of existing parts. A mutation, run in the
-- background (the migration does not wait for it); parts without the index are read in full
-- until it reaches them, as before.
ALTER TABLE endpoints MATERIALIZE INDEX id_set;
ALTER TABLE endpoints MATERIALIZE INDEX distributed_trace_id_set;
ALTER TABLE tasks MATERIALIZE INDEX id_set;
ALTER TABLE tasks MATERIALIZE INDEX distributed_trace_id_set;
ALTER TABLE ai_traces MATERIALIZE INDEX id_set;
ALTER TABLE ai_traces MATERIALIZE INDEX distributed_trace_id_set;

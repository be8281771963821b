-- Embedded chDB stages ingest rows on disk and inserts a batch of them at once
-- (staged-inserts.ts); a batch inserted again after a crash between its insert and the removal
-- of its files carries the same insert_deduplication_token, and the table drops it instead of
-- storing its rows twice. The window is how many recent insert blocks a table remembers.
-- A side effect on the ClickHouse server, whose inserts carry no token: a block identical to one
-- of the last 1,000 (the same rows, re-sent) is dropped, which these tables' replacing or
-- idempotent engines would have made of it anyway.

ALTER TABLE endpoints MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE tasks MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE ai_traces MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE spans MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE exceptions MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE metric_points MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE logs MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE sessions MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE session_recordings MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE profiles MODIFY SETTING non_replicated_deduplication_window = 1000;

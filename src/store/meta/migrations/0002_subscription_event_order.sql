-- Payment providers deliver webhook events at least once and in no guaranteed order. Each
-- subscription row keeps the creation time of the provider event it reflects, so an older event
-- arriving late never overwrites a newer state.
ALTER TABLE subscriptions ADD COLUMN provider_event_at timestamptz;

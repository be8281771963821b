-- Reminders: a threshold rule that stays firing, unacknowledged and not snoozed, notifies its
-- channels again ("Still firing since …") every repeat_interval_seconds after its last firing
-- notification; null never does. Rules that exist before this migration keep null (never), so an
-- upgrade sends nothing unexpected; rules created after it get the application's default (4 hours
-- for threshold rules; event rules never remind).
ALTER TABLE alert_rules
  ADD COLUMN repeat_interval_seconds integer
    CONSTRAINT alert_rules_repeat_interval CHECK (repeat_interval_seconds BETWEEN 300 AND 604800);

-- What a delivery of a firing rule told beyond its state: a reminder, or that a person
-- acknowledged it (null: a new firing, a resolving, a test send, or a person's action row).
ALTER TABLE alert_events
  ADD COLUMN notice text CONSTRAINT alert_events_notice CHECK (notice IN ('reminder', 'acknowledged'));

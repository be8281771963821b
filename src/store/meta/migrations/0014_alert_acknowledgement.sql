-- On call: a person acknowledges a firing rule ("I'm on it", shown with the rule and in its
-- history) or resolves it by hand. The rule keeps who acknowledged and when for as long as that
-- firing lasts (the evaluator clears both when the rule resolves or fires anew); alert_events
-- records each action beside the delivery attempts, so a rule's history says who did what.
ALTER TABLE alert_rules
  ADD COLUMN acknowledged_by uuid REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN acknowledged_at timestamptz;
CREATE INDEX alert_rules_acknowledged_by_idx ON alert_rules (acknowledged_by);

-- An action row has no channel, attempt or outcome; its state is the rule's after the action.
ALTER TABLE alert_events
  ADD COLUMN action text CONSTRAINT alert_events_action CHECK (action IN ('acknowledged', 'resolved')),
  ADD COLUMN actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- The person's name (or e-mail) then, kept like rule_name when the account goes.
  ADD COLUMN actor_name text CONSTRAINT alert_events_actor_name_length CHECK (char_length(actor_name) <= 320),
  ALTER COLUMN channel_name DROP NOT NULL,
  ALTER COLUMN attempt DROP NOT NULL,
  ALTER COLUMN outcome DROP NOT NULL,
  ADD CONSTRAINT alert_events_delivery_or_action CHECK (
    (action IS NULL AND channel_name IS NOT NULL AND attempt IS NOT NULL AND outcome IS NOT NULL)
    OR (action IS NOT NULL AND actor_name IS NOT NULL AND channel_id IS NULL AND channel_name IS NULL));
CREATE INDEX alert_events_actor_idx ON alert_events (actor_id);

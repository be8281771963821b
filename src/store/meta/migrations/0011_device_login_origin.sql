-- Where a CLI login came from, copied from its device code when the code is exchanged for the
-- login's first tokens, so the Account page can show it as the approval page did. Logins made
-- before this migration have none (NULL).
ALTER TABLE refresh_token_families
  ADD COLUMN requester_ip text CONSTRAINT refresh_token_families_requester_ip_length CHECK (char_length(requester_ip) <= 64),
  ADD COLUMN requester_user_agent text CONSTRAINT refresh_token_families_requester_user_agent_length CHECK (char_length(requester_user_agent) <= 512);

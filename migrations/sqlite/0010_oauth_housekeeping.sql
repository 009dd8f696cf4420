-- Housekeeping of the authorization server (issue 11): every 10 minutes it deletes refresh
-- tokens and OAuth access tokens by expiry, and registered clients left without grants or
-- codes. These indexes keep each pass from reading whole tables.
CREATE INDEX oauth_refresh_tokens_expires ON oauth_refresh_tokens (expires_at);
CREATE INDEX access_tokens_grant_expires ON access_tokens (expires_at) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
CREATE INDEX oauth_codes_client ON oauth_codes (client_id);

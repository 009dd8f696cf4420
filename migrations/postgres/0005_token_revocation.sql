-- A revoked or deleted token is announced to every replica (issue 8): each serving process
-- LISTENs on kd_token_revoked and drops the token from its few-second cache at once. A
-- trigger, so that every way a token stops working (the CLI, a future revocation endpoint, a
-- refresh token's grant revoked, a row deleted by hand) notifies, in the same transaction:
-- NOTIFY is delivered when that transaction commits, and not at all if it rolls back.
CREATE FUNCTION access_tokens_notify_revoked() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('kd_token_revoked', OLD.token_hash);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER access_tokens_revoked AFTER UPDATE OF revoked_at ON access_tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION access_tokens_notify_revoked();
CREATE TRIGGER access_tokens_deleted AFTER DELETE ON access_tokens
    FOR EACH ROW EXECUTE FUNCTION access_tokens_notify_revoked();

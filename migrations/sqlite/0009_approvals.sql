-- Approval links (issue 11): a client that cannot confirm a destructive tool in-band gets a page
-- where a signed-in user of the organization approves or declines the call. The row binds what a
-- sealed confirmation state binds (organization, principal, tool, argument digest, the target's
-- version, expiry) and lives in the database, so every replica honours a decision once.
-- decided_by names a user (0008) without a foreign key: approvals are forgotten a day after
-- they expire, and the events of each decision are the lasting record of who decided.

CREATE TABLE approvals (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    -- 'user:usr_…', 'client:cli_…' or 'token:tok_…': who asked, never the token string.
    principal       TEXT NOT NULL,
    tool            TEXT NOT NULL,
    args_digest     TEXT NOT NULL,
    -- The object acted on and its version when asked (NULL for tools that create).
    object_id       TEXT,
    object_version  INTEGER,
    -- The pt-BR question, as the sealed confirmation asks it.
    question        TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'consumed')),
    decided_by      TEXT,
    decided_at      TEXT,
    -- When the retried call used the decision (ran, or was told it was declined).
    consumed_at     TEXT,
    expires_at      TEXT NOT NULL,
    created_at      TEXT NOT NULL
);
-- The retried call finds its approval by what it binds.
CREATE INDEX approvals_binding ON approvals (organization_id, principal, tool, args_digest);
CREATE INDEX approvals_expires ON approvals (expires_at);

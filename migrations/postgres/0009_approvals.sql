-- As migrations/sqlite/0009: approval links for clients that cannot confirm in-band.

CREATE TABLE approvals (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    principal       TEXT COLLATE "C" NOT NULL,
    tool            TEXT COLLATE "C" NOT NULL,
    args_digest     TEXT COLLATE "C" NOT NULL,
    object_id       TEXT COLLATE "C",
    object_version  BIGINT,
    question        TEXT COLLATE "C" NOT NULL,
    status          TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'consumed')),
    decided_by      TEXT COLLATE "C",
    decided_at      TEXT COLLATE "C",
    consumed_at     TEXT COLLATE "C",
    expires_at      TEXT COLLATE "C" NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX approvals_binding ON approvals (organization_id, principal, tool, args_digest);
CREATE INDEX approvals_expires ON approvals (expires_at);

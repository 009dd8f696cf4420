-- The foundation: organizations, tokens, debtors, charges, events and idempotency keys.
-- Portable SQL (TEXT timestamps in fixed-width RFC 3339 UTC with microseconds, so they sort;
-- money as integer centavos; percentages as integer hundredths).

CREATE TABLE organizations (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    document    TEXT,
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
    timezone    TEXT NOT NULL DEFAULT 'America/Sao_Paulo',
    is_demo     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL
);

CREATE TABLE access_tokens (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    user_id         TEXT,
    client_id       TEXT,
    scopes          TEXT NOT NULL,
    audience        TEXT NOT NULL CHECK (audience IN ('api', 'mcp', 'all')),
    expires_at      TEXT NOT NULL,
    revoked_at      TEXT,
    created_at      TEXT NOT NULL
);

CREATE TABLE debtors (
    id                    TEXT PRIMARY KEY,
    organization_id       TEXT NOT NULL REFERENCES organizations (id),
    external_id           TEXT,
    person_type           TEXT NOT NULL,
    name                  TEXT NOT NULL,
    document              TEXT NOT NULL,
    email                 TEXT,
    phone                 TEXT,
    mobile                TEXT,
    address               TEXT,
    birth_date            TEXT,
    opt_out_email         INTEGER NOT NULL DEFAULT 0,
    opt_out_sms           INTEGER NOT NULL DEFAULT 0,
    opt_out_whatsapp      INTEGER NOT NULL DEFAULT 0,
    credit_bureau_blocked INTEGER NOT NULL DEFAULT 0,
    status                TEXT NOT NULL,
    archived_at           TEXT,
    tags                  TEXT NOT NULL DEFAULT '[]',
    metadata              TEXT NOT NULL DEFAULT '{}',
    version               INTEGER NOT NULL DEFAULT 1,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    UNIQUE (organization_id, document)
);
CREATE INDEX debtors_org_created ON debtors (organization_id, created_at);
CREATE INDEX debtors_org_name ON debtors (organization_id, name);

CREATE TABLE charges (
    id                   TEXT PRIMARY KEY,
    organization_id      TEXT NOT NULL REFERENCES organizations (id),
    debtor_id            TEXT NOT NULL REFERENCES debtors (id),
    external_id          TEXT,
    description          TEXT,
    amount_cents         INTEGER NOT NULL,
    paid_cents           INTEGER NOT NULL DEFAULT 0,
    issue_date           TEXT NOT NULL,
    due_date             TEXT NOT NULL,
    status               TEXT NOT NULL,
    dunning_status       TEXT NOT NULL,
    payment_method       TEXT NOT NULL,
    fine_hundredths      INTEGER NOT NULL,
    interest_hundredths  INTEGER NOT NULL,
    paid_at              TEXT,
    canceled_at          TEXT,
    cancellation_reason  TEXT,
    written_off_at       TEXT,
    agreement_id         TEXT,
    credit_bureau_status TEXT,
    protest_status       TEXT,
    tags                 TEXT NOT NULL DEFAULT '[]',
    metadata             TEXT NOT NULL DEFAULT '{}',
    version              INTEGER NOT NULL DEFAULT 1,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);
CREATE INDEX charges_org_created ON charges (organization_id, created_at);
CREATE INDEX charges_org_status_due ON charges (organization_id, status, due_date);
CREATE INDEX charges_debtor ON charges (debtor_id, status);

CREATE TABLE events (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    code            TEXT NOT NULL,
    resource_type   TEXT NOT NULL,
    resource_id     TEXT NOT NULL,
    actor_type      TEXT NOT NULL,
    actor_id        TEXT NOT NULL,
    data            TEXT NOT NULL,
    request_id      TEXT,
    occurred_at     TEXT NOT NULL
);
CREATE INDEX events_org_occurred ON events (organization_id, occurred_at);
CREATE INDEX events_resource ON events (resource_id);

CREATE TABLE idempotency_keys (
    organization_id TEXT NOT NULL,
    key             TEXT NOT NULL,
    operation_id    TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    response        TEXT,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (organization_id, key)
);

-- The foundation, as in migrations/sqlite/0001: the same tables and columns. Text compares
-- byte by byte (COLLATE "C") as in SQLite, so lists sort the same and prefix ranges use the
-- indexes; integers are BIGINT, which read back as SQLite's INTEGER does.

CREATE TABLE organizations (
    id          TEXT COLLATE "C" PRIMARY KEY,
    name        TEXT COLLATE "C" NOT NULL,
    document    TEXT COLLATE "C",
    environment TEXT COLLATE "C" NOT NULL CHECK (environment IN ('sandbox', 'production')),
    timezone    TEXT COLLATE "C" NOT NULL DEFAULT 'America/Sao_Paulo',
    is_demo     BIGINT NOT NULL DEFAULT 0,
    created_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE access_tokens (
    id              TEXT COLLATE "C" PRIMARY KEY,
    token_hash      TEXT COLLATE "C" NOT NULL UNIQUE,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    user_id         TEXT COLLATE "C",
    client_id       TEXT COLLATE "C",
    scopes          TEXT COLLATE "C" NOT NULL,
    audience        TEXT COLLATE "C" NOT NULL CHECK (audience IN ('api', 'mcp', 'all')),
    expires_at      TEXT COLLATE "C" NOT NULL,
    revoked_at      TEXT COLLATE "C",
    created_at      TEXT COLLATE "C" NOT NULL
);

CREATE TABLE debtors (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    organization_id       TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    external_id           TEXT COLLATE "C",
    person_type           TEXT COLLATE "C" NOT NULL,
    name                  TEXT COLLATE "C" NOT NULL,
    document              TEXT COLLATE "C" NOT NULL,
    email                 TEXT COLLATE "C",
    phone                 TEXT COLLATE "C",
    mobile                TEXT COLLATE "C",
    address               TEXT COLLATE "C",
    birth_date            TEXT COLLATE "C",
    opt_out_email         BIGINT NOT NULL DEFAULT 0,
    opt_out_sms           BIGINT NOT NULL DEFAULT 0,
    opt_out_whatsapp      BIGINT NOT NULL DEFAULT 0,
    credit_bureau_blocked BIGINT NOT NULL DEFAULT 0,
    status                TEXT COLLATE "C" NOT NULL,
    archived_at           TEXT COLLATE "C",
    tags                  TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    metadata              TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    version               BIGINT NOT NULL DEFAULT 1,
    created_at            TEXT COLLATE "C" NOT NULL,
    updated_at            TEXT COLLATE "C" NOT NULL,
    UNIQUE (organization_id, document)
);
CREATE INDEX debtors_org_created ON debtors (organization_id, created_at);
CREATE INDEX debtors_org_name ON debtors (organization_id, name);

CREATE TABLE charges (
    id                   TEXT COLLATE "C" PRIMARY KEY,
    organization_id      TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    debtor_id            TEXT COLLATE "C" NOT NULL REFERENCES debtors (id),
    external_id          TEXT COLLATE "C",
    description          TEXT COLLATE "C",
    amount_cents         BIGINT NOT NULL,
    paid_cents           BIGINT NOT NULL DEFAULT 0,
    issue_date           TEXT COLLATE "C" NOT NULL,
    due_date             TEXT COLLATE "C" NOT NULL,
    status               TEXT COLLATE "C" NOT NULL,
    dunning_status       TEXT COLLATE "C" NOT NULL,
    payment_method       TEXT COLLATE "C" NOT NULL,
    fine_hundredths      BIGINT NOT NULL,
    interest_hundredths  BIGINT NOT NULL,
    paid_at              TEXT COLLATE "C",
    canceled_at          TEXT COLLATE "C",
    cancellation_reason  TEXT COLLATE "C",
    written_off_at       TEXT COLLATE "C",
    agreement_id         TEXT COLLATE "C",
    credit_bureau_status TEXT COLLATE "C",
    protest_status       TEXT COLLATE "C",
    tags                 TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    metadata             TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    version              BIGINT NOT NULL DEFAULT 1,
    created_at           TEXT COLLATE "C" NOT NULL,
    updated_at           TEXT COLLATE "C" NOT NULL
);
CREATE INDEX charges_org_created ON charges (organization_id, created_at);
CREATE INDEX charges_org_status_due ON charges (organization_id, status, due_date);
CREATE INDEX charges_debtor ON charges (debtor_id, status);

CREATE TABLE events (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    code            TEXT COLLATE "C" NOT NULL,
    resource_type   TEXT COLLATE "C" NOT NULL,
    resource_id     TEXT COLLATE "C" NOT NULL,
    actor_type      TEXT COLLATE "C" NOT NULL,
    actor_id        TEXT COLLATE "C" NOT NULL,
    data            TEXT COLLATE "C" NOT NULL,
    request_id      TEXT COLLATE "C",
    occurred_at     TEXT COLLATE "C" NOT NULL
);
CREATE INDEX events_org_occurred ON events (organization_id, occurred_at);
CREATE INDEX events_resource ON events (resource_id);

CREATE TABLE idempotency_keys (
    organization_id TEXT COLLATE "C" NOT NULL,
    key             TEXT COLLATE "C" NOT NULL,
    operation_id    TEXT COLLATE "C" NOT NULL,
    fingerprint     TEXT COLLATE "C" NOT NULL,
    response        TEXT COLLATE "C",
    created_at      TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (organization_id, key)
);

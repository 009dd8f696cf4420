-- Payments coming in. An organization's Pix account (its key, and the merchant name and city
-- every BR Code carries) makes a code for each open charge without one. A receiver takes the
-- payment webhooks of the organization's Kobana account: it is found by the hash of the token
-- in its URL, and checks signatures with the secret the organization registered (sealed with
-- the server key). Every payment heard of is kept once per source and reference (a delivery
-- id, an imported row), matched to its charge or left for a person to assign.
ALTER TABLE organizations ADD COLUMN pix_key TEXT;
ALTER TABLE organizations ADD COLUMN pix_merchant_name TEXT;
ALTER TABLE organizations ADD COLUMN pix_merchant_city TEXT;

CREATE TABLE payment_receivers (
    organization_id TEXT PRIMARY KEY REFERENCES organizations (id),
    token_hash      TEXT NOT NULL UNIQUE,
    secret_sealed   TEXT NOT NULL,
    created_at      TEXT NOT NULL
);

CREATE TABLE payments (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    source          TEXT NOT NULL,
    reference       TEXT NOT NULL,
    external_id     TEXT,
    line            TEXT,
    txid            TEXT,
    amount_cents    BIGINT NOT NULL,
    paid_at         TEXT NOT NULL,
    status          TEXT NOT NULL,
    reason          TEXT,
    charge_id       TEXT,
    created_at      TEXT NOT NULL,
    resolved_at     TEXT,
    UNIQUE (organization_id, source, reference)
);
CREATE INDEX payments_org_status ON payments (organization_id, status, created_at);
-- A payment names its charge by external_id as often as by its codes.
CREATE INDEX charges_org_external_id ON charges (organization_id, external_id) WHERE external_id IS NOT NULL;

-- Agreements (acordos): a renegotiation of a debtor's open charges. Its down payment (number 0)
-- and installments are charges of their own, listed in agreement_installments in order.
CREATE TABLE agreements (
    id                      TEXT PRIMARY KEY,
    organization_id         TEXT NOT NULL REFERENCES organizations (id),
    debtor_id               TEXT NOT NULL REFERENCES debtors (id),
    charge_ids              TEXT NOT NULL,
    source_balances         TEXT NOT NULL,
    status                  TEXT NOT NULL,
    original_cents          BIGINT NOT NULL,
    fine_cents              BIGINT NOT NULL,
    interest_cents          BIGINT NOT NULL,
    discount_cents          BIGINT NOT NULL,
    total_cents             BIGINT NOT NULL,
    fine_waived             INTEGER NOT NULL,
    interest_waived         INTEGER NOT NULL,
    down_payment_cents      BIGINT,
    down_payment_due_date   TEXT,
    installments_count      INTEGER NOT NULL,
    first_due_date          TEXT NOT NULL,
    grace_days              INTEGER NOT NULL,
    canceled_at             TEXT,
    cancellation_reason     TEXT,
    broken_at               TEXT,
    completed_at            TEXT,
    version                 BIGINT NOT NULL,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
);
CREATE INDEX agreements_list ON agreements (organization_id, created_at, id);
CREATE INDEX agreements_debtor ON agreements (debtor_id, status);
CREATE INDEX agreements_live ON agreements (organization_id, status);

CREATE TABLE agreement_installments (
    agreement_id    TEXT NOT NULL REFERENCES agreements (id),
    number          INTEGER NOT NULL,
    charge_id       TEXT NOT NULL REFERENCES charges (id),
    PRIMARY KEY (agreement_id, number)
);
CREATE UNIQUE INDEX agreement_installments_charge ON agreement_installments (charge_id);

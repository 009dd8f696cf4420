-- Credit-bureau reports (negativações) and protests of overdue charges. At most one of each is
-- under way per charge (the partial unique indexes), so a second request is a conflict rather
-- than a second report. The charge keeps the latest one's status (credit_bureau_status,
-- protest_status) in the same transaction.
CREATE TABLE credit_bureau_reports (
    id                      TEXT PRIMARY KEY,
    organization_id         TEXT NOT NULL REFERENCES organizations (id),
    charge_id               TEXT NOT NULL REFERENCES charges (id),
    debtor_id               TEXT NOT NULL REFERENCES debtors (id),
    bureau                  TEXT NOT NULL,
    status                  TEXT NOT NULL,
    amount_cents            BIGINT NOT NULL,
    nature                  TEXT NOT NULL,
    notice_notification_id  TEXT NOT NULL,
    requested_at            TEXT NOT NULL,
    notice_sent_at          TEXT,
    included_at             TEXT,
    removal_requested_at    TEXT,
    removal_due_by          TEXT,
    removed_at              TEXT,
    canceled_at             TEXT,
    remove_reason           TEXT,
    failure_reason          TEXT,
    external_protocol       TEXT,
    version                 BIGINT NOT NULL,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
);
CREATE INDEX credit_bureau_reports_list ON credit_bureau_reports (organization_id, created_at, id);
CREATE INDEX credit_bureau_reports_charge ON credit_bureau_reports (charge_id, created_at);
CREATE UNIQUE INDEX credit_bureau_reports_live ON credit_bureau_reports (charge_id)
    WHERE status IN ('requested', 'notice_sent', 'reported', 'removal_requested');
CREATE INDEX credit_bureau_reports_moving ON credit_bureau_reports (organization_id, status)
    WHERE status IN ('requested', 'notice_sent', 'removal_requested');

CREATE TABLE protests (
    id                          TEXT PRIMARY KEY,
    organization_id             TEXT NOT NULL REFERENCES organizations (id),
    charge_id                   TEXT NOT NULL REFERENCES charges (id),
    debtor_id                   TEXT NOT NULL REFERENCES debtors (id),
    status                      TEXT NOT NULL,
    amount_cents                BIGINT NOT NULL,
    title_type                  TEXT NOT NULL,
    document_number             TEXT NOT NULL,
    notary_name                 TEXT NOT NULL,
    notary_city                 TEXT NOT NULL,
    notary_state                TEXT NOT NULL,
    protocol_number             TEXT,
    requested_at                TEXT NOT NULL,
    sent_at                     TEXT,
    intimated_at                TEXT,
    protested_at                TEXT,
    paid_at                     TEXT,
    withdrawn_at                TEXT,
    cancellation_requested_at   TEXT,
    canceled_at                 TEXT,
    costs_cents                 BIGINT,
    failure_reason              TEXT,
    version                     BIGINT NOT NULL,
    created_at                  TEXT NOT NULL,
    updated_at                  TEXT NOT NULL
);
CREATE INDEX protests_list ON protests (organization_id, created_at, id);
CREATE INDEX protests_charge ON protests (charge_id, created_at);
CREATE UNIQUE INDEX protests_live ON protests (charge_id)
    WHERE status IN ('requested', 'sent', 'intimated', 'protested', 'cancellation_requested');
CREATE INDEX protests_moving ON protests (organization_id, status)
    WHERE status IN ('requested', 'sent', 'intimated', 'cancellation_requested');

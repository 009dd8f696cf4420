-- Credit-bureau reports (negativações) and protests of overdue charges. At most one of each is
-- under way per charge (the partial unique indexes), so a second request is a conflict rather
-- than a second report. The charge keeps the latest one's status (credit_bureau_status,
-- protest_status) in the same transaction.
CREATE TABLE credit_bureau_reports (
    id                      TEXT COLLATE "C" PRIMARY KEY,
    organization_id         TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    charge_id               TEXT COLLATE "C" NOT NULL REFERENCES charges (id),
    debtor_id               TEXT COLLATE "C" NOT NULL REFERENCES debtors (id),
    bureau                  TEXT COLLATE "C" NOT NULL,
    status                  TEXT COLLATE "C" NOT NULL,
    amount_cents            BIGINT NOT NULL,
    nature                  TEXT COLLATE "C" NOT NULL,
    notice_notification_id  TEXT COLLATE "C" NOT NULL,
    requested_at            TEXT COLLATE "C" NOT NULL,
    notice_sent_at          TEXT COLLATE "C",
    included_at             TEXT COLLATE "C",
    removal_requested_at    TEXT COLLATE "C",
    removal_due_by          TEXT COLLATE "C",
    removed_at              TEXT COLLATE "C",
    canceled_at             TEXT COLLATE "C",
    remove_reason           TEXT COLLATE "C",
    failure_reason          TEXT COLLATE "C",
    external_protocol       TEXT COLLATE "C",
    version                 BIGINT NOT NULL,
    created_at              TEXT COLLATE "C" NOT NULL,
    updated_at              TEXT COLLATE "C" NOT NULL
);
CREATE INDEX credit_bureau_reports_list ON credit_bureau_reports (organization_id, created_at, id);
CREATE INDEX credit_bureau_reports_charge ON credit_bureau_reports (charge_id, created_at);
CREATE UNIQUE INDEX credit_bureau_reports_live ON credit_bureau_reports (charge_id)
    WHERE status IN ('requested', 'notice_sent', 'reported', 'removal_requested');
CREATE INDEX credit_bureau_reports_moving ON credit_bureau_reports (organization_id, status)
    WHERE status IN ('requested', 'notice_sent', 'removal_requested');

CREATE TABLE protests (
    id                          TEXT COLLATE "C" PRIMARY KEY,
    organization_id             TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    charge_id                   TEXT COLLATE "C" NOT NULL REFERENCES charges (id),
    debtor_id                   TEXT COLLATE "C" NOT NULL REFERENCES debtors (id),
    status                      TEXT COLLATE "C" NOT NULL,
    amount_cents                BIGINT NOT NULL,
    title_type                  TEXT COLLATE "C" NOT NULL,
    document_number             TEXT COLLATE "C" NOT NULL,
    notary_name                 TEXT COLLATE "C" NOT NULL,
    notary_city                 TEXT COLLATE "C" NOT NULL,
    notary_state                TEXT COLLATE "C" NOT NULL,
    protocol_number             TEXT COLLATE "C",
    requested_at                TEXT COLLATE "C" NOT NULL,
    sent_at                     TEXT COLLATE "C",
    intimated_at                TEXT COLLATE "C",
    protested_at                TEXT COLLATE "C",
    paid_at                     TEXT COLLATE "C",
    withdrawn_at                TEXT COLLATE "C",
    cancellation_requested_at   TEXT COLLATE "C",
    canceled_at                 TEXT COLLATE "C",
    costs_cents                 BIGINT,
    failure_reason              TEXT COLLATE "C",
    version                     BIGINT NOT NULL,
    created_at                  TEXT COLLATE "C" NOT NULL,
    updated_at                  TEXT COLLATE "C" NOT NULL
);
CREATE INDEX protests_list ON protests (organization_id, created_at, id);
CREATE INDEX protests_charge ON protests (charge_id, created_at);
CREATE UNIQUE INDEX protests_live ON protests (charge_id)
    WHERE status IN ('requested', 'sent', 'intimated', 'protested', 'cancellation_requested');
CREATE INDEX protests_moving ON protests (organization_id, status)
    WHERE status IN ('requested', 'sent', 'intimated', 'cancellation_requested');

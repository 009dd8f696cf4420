-- The régua (issue 9): collection policies and their steps, the policy a charge follows, and
-- the notifications the engine and people send. Each (charge, step) pair gives at most one
-- notification (a unique index), whatever engines run at once; a notification being delivered
-- carries a lease (lease_owner, lease_until) so that a crashed engine's work is taken over
-- once the lease runs out, and not before.

CREATE TABLE collection_policies (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id),
    name              TEXT NOT NULL,
    description       TEXT,
    status            TEXT NOT NULL CHECK (status IN ('draft', 'active', 'archived')),
    is_default        INTEGER NOT NULL DEFAULT 0,
    send_window_start TEXT NOT NULL,
    send_window_end   TEXT NOT NULL,
    archived_at       TEXT,
    version           INTEGER NOT NULL DEFAULT 1,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);
CREATE INDEX collection_policies_org_created ON collection_policies (organization_id, created_at, id);
-- One default per organization.
CREATE UNIQUE INDEX collection_policies_one_default ON collection_policies (organization_id) WHERE is_default = 1;

CREATE TABLE collection_policy_steps (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id),
    cp_id             TEXT NOT NULL REFERENCES collection_policies (id),
    name              TEXT NOT NULL,
    offset_days       INTEGER NOT NULL,
    send_time         TEXT,
    position          INTEGER NOT NULL,
    action            TEXT NOT NULL,
    channel           TEXT,
    template_subject  TEXT,
    template_body     TEXT,
    requires_approval INTEGER NOT NULL,
    active            INTEGER NOT NULL,
    version           INTEGER NOT NULL DEFAULT 1,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);
CREATE INDEX collection_policy_steps_order ON collection_policy_steps (cp_id, offset_days, position, id);

ALTER TABLE charges ADD COLUMN cp_id TEXT REFERENCES collection_policies (id);
CREATE INDEX charges_cp ON charges (cp_id);

CREATE TABLE notifications (
    id                  TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id),
    charge_id           TEXT NOT NULL REFERENCES charges (id),
    debtor_id           TEXT NOT NULL REFERENCES debtors (id),
    cp_id               TEXT,
    step_id             TEXT,
    origin              TEXT NOT NULL CHECK (origin IN ('policy', 'manual', 'resend')),
    resend_of_id        TEXT,
    channel             TEXT NOT NULL,
    recipient           TEXT,
    subject             TEXT,
    body                TEXT NOT NULL,
    status              TEXT NOT NULL,
    skip_reason         TEXT,
    failure_reason      TEXT,
    attempts            INTEGER NOT NULL DEFAULT 0,
    next_attempt_at     TEXT,
    lease_owner         TEXT,
    lease_until         TEXT,
    provider            TEXT,
    provider_message_id TEXT,
    scheduled_for       TEXT NOT NULL,
    sent_at             TEXT,
    failed_at           TEXT,
    canceled_at         TEXT,
    version             INTEGER NOT NULL DEFAULT 1,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
);
-- The régua's exactly-once: one notification per (charge, step).
CREATE UNIQUE INDEX notifications_charge_step ON notifications (charge_id, step_id) WHERE step_id IS NOT NULL;
CREATE INDEX notifications_org_created ON notifications (organization_id, created_at, id);
CREATE INDEX notifications_charge ON notifications (charge_id, created_at);
-- What the engine delivers or retries next.
CREATE INDEX notifications_pending ON notifications (status, next_attempt_at) WHERE status = 'queued';

-- The escalation steps a charge went through (they make no notification): the same
-- at-most-once per (charge, step) as messages, so that a charge back from a decision does not
-- escalate again for the same step.
CREATE TABLE escalations (
    charge_id       TEXT NOT NULL REFERENCES charges (id),
    step_id         TEXT NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    occurred_at     TEXT NOT NULL,
    PRIMARY KEY (charge_id, step_id)
);

-- As migrations/sqlite/0006 (the régua, issue 9), with text compared byte by byte and BIGINT
-- integers as in 0001.
-- The régua (issue 9): collection policies and their steps, the policy a charge follows, and
-- the notifications the engine and people send. Each (charge, step) pair gives at most one
-- notification (a unique index), whatever engines run at once; a notification being delivered
-- carries a lease (lease_owner, lease_until) so that a crashed engine's work is taken over
-- once the lease runs out, and not before.

CREATE TABLE collection_policies (
    id                TEXT COLLATE "C" PRIMARY KEY,
    organization_id   TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    name              TEXT COLLATE "C" NOT NULL,
    description       TEXT COLLATE "C",
    status            TEXT COLLATE "C" NOT NULL CHECK (status IN ('draft', 'active', 'archived')),
    is_default        BIGINT NOT NULL DEFAULT 0,
    send_window_start TEXT COLLATE "C" NOT NULL,
    send_window_end   TEXT COLLATE "C" NOT NULL,
    archived_at       TEXT COLLATE "C",
    version           BIGINT NOT NULL DEFAULT 1,
    created_at        TEXT COLLATE "C" NOT NULL,
    updated_at        TEXT COLLATE "C" NOT NULL
);
CREATE INDEX collection_policies_org_created ON collection_policies (organization_id, created_at, id);
-- One default per organization.
CREATE UNIQUE INDEX collection_policies_one_default ON collection_policies (organization_id) WHERE is_default = 1;

CREATE TABLE collection_policy_steps (
    id                TEXT COLLATE "C" PRIMARY KEY,
    organization_id   TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    cp_id             TEXT COLLATE "C" NOT NULL REFERENCES collection_policies (id),
    name              TEXT COLLATE "C" NOT NULL,
    offset_days       BIGINT NOT NULL,
    send_time         TEXT COLLATE "C",
    position          BIGINT NOT NULL,
    action            TEXT COLLATE "C" NOT NULL,
    channel           TEXT COLLATE "C",
    template_subject  TEXT COLLATE "C",
    template_body     TEXT COLLATE "C",
    requires_approval BIGINT NOT NULL,
    active            BIGINT NOT NULL,
    version           BIGINT NOT NULL DEFAULT 1,
    created_at        TEXT COLLATE "C" NOT NULL,
    updated_at        TEXT COLLATE "C" NOT NULL
);
CREATE INDEX collection_policy_steps_order ON collection_policy_steps (cp_id, offset_days, position, id);

ALTER TABLE charges ADD COLUMN cp_id TEXT COLLATE "C" REFERENCES collection_policies (id);
CREATE INDEX charges_cp ON charges (cp_id);

CREATE TABLE notifications (
    id                  TEXT COLLATE "C" PRIMARY KEY,
    organization_id     TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    charge_id           TEXT COLLATE "C" NOT NULL REFERENCES charges (id),
    debtor_id           TEXT COLLATE "C" NOT NULL REFERENCES debtors (id),
    cp_id               TEXT COLLATE "C",
    step_id             TEXT COLLATE "C",
    origin              TEXT COLLATE "C" NOT NULL CHECK (origin IN ('policy', 'manual', 'resend')),
    resend_of_id        TEXT COLLATE "C",
    channel             TEXT COLLATE "C" NOT NULL,
    recipient           TEXT COLLATE "C",
    subject             TEXT COLLATE "C",
    body                TEXT COLLATE "C" NOT NULL,
    status              TEXT COLLATE "C" NOT NULL,
    skip_reason         TEXT COLLATE "C",
    failure_reason      TEXT COLLATE "C",
    attempts            BIGINT NOT NULL DEFAULT 0,
    next_attempt_at     TEXT COLLATE "C",
    lease_owner         TEXT COLLATE "C",
    lease_until         TEXT COLLATE "C",
    provider            TEXT COLLATE "C",
    provider_message_id TEXT COLLATE "C",
    scheduled_for       TEXT COLLATE "C" NOT NULL,
    sent_at             TEXT COLLATE "C",
    failed_at           TEXT COLLATE "C",
    canceled_at         TEXT COLLATE "C",
    version             BIGINT NOT NULL DEFAULT 1,
    created_at          TEXT COLLATE "C" NOT NULL,
    updated_at          TEXT COLLATE "C" NOT NULL
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
    charge_id       TEXT COLLATE "C" NOT NULL REFERENCES charges (id),
    step_id         TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    occurred_at     TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (charge_id, step_id)
);

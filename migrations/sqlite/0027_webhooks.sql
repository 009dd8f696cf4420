-- Outbound webhooks. A webhook takes the event codes listed in webhook_events. Every event
-- written while a webhook that takes its code is active gets its delivery row from the trigger
-- below, in the transaction that writes the event: a crash between the event and the send
-- loses nothing, and an event that happens while a webhook is inactive is never delivered. A
-- delivery's id is its event's hex under the `dlv_` prefix, unique within its webhook. The
-- sender leases a delivery (lease_owner, lease_until) for each attempt, like notifications.
-- Deliveries name their webhook without a foreign key: an event written while its webhook is
-- deleted must not fail the write that caused it (the sender forgets such a delivery).
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT,
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,
    active          INTEGER NOT NULL,
    secret_sealed   TEXT NOT NULL,
    version         BIGINT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (organization_id, created_at);

CREATE TABLE webhook_events (
    organization_id TEXT NOT NULL,
    code            TEXT NOT NULL,
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (organization_id, code, webhook_id)
);

CREATE TABLE webhook_deliveries (
    webhook_id       TEXT NOT NULL,
    id               TEXT NOT NULL,
    organization_id  TEXT NOT NULL,
    event_id         TEXT,
    event_code       TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL,
    next_attempt_at  TEXT,
    lease_owner      TEXT,
    lease_until      TEXT,
    request          TEXT,
    response         TEXT,
    error            TEXT,
    duration_ms      BIGINT,
    first_try_at     TEXT,
    delivered_at     TEXT,
    failed_at        TEXT,
    version          BIGINT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (webhook_id, id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_listed ON webhook_deliveries (webhook_id, created_at);

CREATE TRIGGER events_to_webhooks AFTER INSERT ON events
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, id, organization_id, event_id, event_code, status,
                                    attempts, next_attempt_at, version, created_at, updated_at)
    SELECT w.id, 'dlv_' || substr(NEW.id, 5), NEW.organization_id, NEW.id, NEW.code, 'pending',
           0, NEW.occurred_at, 1, NEW.occurred_at, NEW.occurred_at
    FROM webhook_events s JOIN webhooks w ON w.id = s.webhook_id
    WHERE s.organization_id = NEW.organization_id AND s.code = NEW.code AND w.active = 1;
END;

-- Outbound webhooks. A webhook takes the event codes listed in webhook_events. Every event
-- written while a webhook that takes its code is active gets its delivery row from the trigger
-- below, in the transaction that writes the event: a crash between the event and the send
-- loses nothing, and an event that happens while a webhook is inactive is never delivered. A
-- delivery's id is its event's hex under the `dlv_` prefix, unique within its webhook. The
-- sender leases a delivery (lease_owner, lease_until) for each attempt, like notifications.
-- Deliveries name their webhook without a foreign key: an event written while its webhook is
-- deleted must not fail the write that caused it (the sender forgets such a delivery).
CREATE TABLE webhooks (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    name            TEXT COLLATE "C",
    url             TEXT COLLATE "C" NOT NULL,
    events          TEXT COLLATE "C" NOT NULL,
    active          BIGINT NOT NULL,
    secret_sealed   TEXT COLLATE "C" NOT NULL,
    version         BIGINT NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    updated_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (organization_id, created_at);

CREATE TABLE webhook_events (
    organization_id TEXT COLLATE "C" NOT NULL,
    code            TEXT COLLATE "C" NOT NULL,
    webhook_id      TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (organization_id, code, webhook_id)
);

CREATE TABLE webhook_deliveries (
    webhook_id       TEXT COLLATE "C" NOT NULL,
    id               TEXT COLLATE "C" NOT NULL,
    organization_id  TEXT COLLATE "C" NOT NULL,
    event_id         TEXT COLLATE "C",
    event_code       TEXT COLLATE "C" NOT NULL,
    status           TEXT COLLATE "C" NOT NULL,
    attempts         BIGINT NOT NULL,
    next_attempt_at  TEXT COLLATE "C",
    lease_owner      TEXT COLLATE "C",
    lease_until      TEXT COLLATE "C",
    request          TEXT COLLATE "C",
    response         TEXT COLLATE "C",
    error            TEXT COLLATE "C",
    duration_ms      BIGINT,
    first_try_at     TEXT COLLATE "C",
    delivered_at     TEXT COLLATE "C",
    failed_at        TEXT COLLATE "C",
    version          BIGINT NOT NULL,
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (webhook_id, id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_listed ON webhook_deliveries (webhook_id, created_at);

CREATE FUNCTION events_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, id, organization_id, event_id, event_code, status,
                                    attempts, next_attempt_at, version, created_at, updated_at)
    SELECT w.id, 'dlv_' || substr(NEW.id, 5), NEW.organization_id, NEW.id, NEW.code, 'pending',
           0, NEW.occurred_at, 1, NEW.occurred_at, NEW.occurred_at
    FROM webhook_events s JOIN webhooks w ON w.id = s.webhook_id
    WHERE s.organization_id = NEW.organization_id AND s.code = NEW.code AND w.active = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_to_webhooks AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_to_webhooks();

-- Payment receivers are kept, one row each, not replaced in place: a new receiver retires the
-- active one after a grace period (retires_at), so payments on their way to the old URL are not
-- lost; one can be revoked at once; each row says who set it. A receiver answers only while it is
-- neither revoked nor past retires_at.
CREATE TABLE payment_receivers_kept (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    token_hash      TEXT COLLATE "C" NOT NULL UNIQUE,
    secret_sealed   TEXT COLLATE "C" NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    created_by_type TEXT COLLATE "C" NOT NULL,
    created_by_id   TEXT COLLATE "C" NOT NULL,
    retires_at      TEXT COLLATE "C",
    revoked_at      TEXT COLLATE "C",
    version         BIGINT NOT NULL DEFAULT 1,
    updated_at      TEXT COLLATE "C" NOT NULL
);

INSERT INTO payment_receivers_kept
    (id, organization_id, token_hash, secret_sealed, created_at, created_by_type, created_by_id, updated_at)
SELECT 'rcv_' || md5(random()::text || organization_id), organization_id, token_hash, secret_sealed, created_at,
       'system', 'migration', created_at
FROM payment_receivers;

DROP TABLE payment_receivers;
ALTER TABLE payment_receivers_kept RENAME TO payment_receivers;

CREATE INDEX payment_receivers_by_organization ON payment_receivers (organization_id, created_at);

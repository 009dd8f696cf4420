-- CSV exports. An export is queued by a request and built by the server in the background: the
-- builder leases it (lease_owner, lease_until), writes its file as chunks of whole rows, and
-- marks it processed; a builder that died leaves the lease to run out, and the next one starts
-- the file again. Seven days after it was built the chunks go and the export is expired.
CREATE TABLE exports (
    id               TEXT COLLATE "C" PRIMARY KEY,
    organization_id  TEXT COLLATE "C" NOT NULL REFERENCES organizations (id),
    kind             TEXT COLLATE "C" NOT NULL,
    filters          TEXT COLLATE "C" NOT NULL,
    separator        TEXT COLLATE "C" NOT NULL,
    status           TEXT COLLATE "C" NOT NULL,
    rows_count       BIGINT,
    size_bytes       BIGINT,
    error            TEXT COLLATE "C",
    lease_owner      TEXT COLLATE "C",
    lease_until      TEXT COLLATE "C",
    version          BIGINT NOT NULL,
    created_at       TEXT COLLATE "C" NOT NULL,
    started_at       TEXT COLLATE "C",
    processed_at     TEXT COLLATE "C",
    failed_at        TEXT COLLATE "C",
    expires_at       TEXT COLLATE "C",
    updated_at       TEXT COLLATE "C" NOT NULL
);
CREATE INDEX exports_org ON exports (organization_id, created_at);
CREATE INDEX exports_waiting ON exports (created_at) WHERE status IN ('queued', 'processing');
CREATE INDEX exports_expiring ON exports (expires_at) WHERE status = 'processed';

CREATE TABLE export_chunks (
    export_id  TEXT COLLATE "C" NOT NULL REFERENCES exports (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    body       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (export_id, seq)
);

-- CSV exports. An export is queued by a request and built by the server in the background: the
-- builder leases it (lease_owner, lease_until), writes its file as chunks of whole rows, and
-- marks it processed; a builder that died leaves the lease to run out, and the next one starts
-- the file again. Seven days after it was built the chunks go and the export is expired.
CREATE TABLE exports (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id),
    kind             TEXT NOT NULL,
    filters          TEXT NOT NULL,
    separator        TEXT NOT NULL,
    status           TEXT NOT NULL,
    rows_count       BIGINT,
    size_bytes       BIGINT,
    error            TEXT,
    lease_owner      TEXT,
    lease_until      TEXT,
    version          BIGINT NOT NULL,
    created_at       TEXT NOT NULL,
    started_at       TEXT,
    processed_at     TEXT,
    failed_at        TEXT,
    expires_at       TEXT,
    updated_at       TEXT NOT NULL
);
CREATE INDEX exports_org ON exports (organization_id, created_at);
CREATE INDEX exports_waiting ON exports (created_at) WHERE status IN ('queued', 'processing');
CREATE INDEX exports_expiring ON exports (expires_at) WHERE status = 'processed';

CREATE TABLE export_chunks (
    export_id  TEXT NOT NULL REFERENCES exports (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (export_id, seq)
);

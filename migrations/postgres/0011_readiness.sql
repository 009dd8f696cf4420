-- Readiness: /readyz proves the database takes writes by rewriting this one row (a full disk,
-- a read-only file or a standby server fail it), at most once a second per server.
CREATE TABLE readiness_probe (
    id INTEGER PRIMARY KEY,
    checked_at TEXT NOT NULL
);

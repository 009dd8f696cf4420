-- The server key (sealing confirmation states; shared by replicas on one database) and the
-- nonces of answered confirmations, so each is honoured once across replicas.
CREATE TABLE server_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE confirmation_nonces (
    nonce       TEXT PRIMARY KEY,
    consumed_at TEXT NOT NULL
);

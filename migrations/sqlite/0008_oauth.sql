-- The authorization server (issue 11): users who sign in, OAuth clients, authorization codes,
-- grants with their refresh tokens, browser sessions and sign-in failures. Every secret
-- (password, code, refresh token, session cookie) is stored only as a hash: a copy of the
-- database signs nobody in.

-- A person who signs in. The e-mail is stored case-folded, so it is unique whatever the case
-- typed; the password is an argon2id PHC string; the role caps the scopes the user can grant.
CREATE TABLE users (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    email           TEXT NOT NULL UNIQUE,
    password_hash   TEXT NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    created_at      TEXT NOT NULL
);
CREATE INDEX users_org ON users (organization_id);

-- A client registered through RFC 7591 (public: no secret). Clients that present a client ID
-- metadata document are not stored: their document is fetched and cached for a few minutes.
CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,
    client_name   TEXT,
    redirect_uris TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

-- An authorization code: single use, about a minute, bound to everything the token request
-- must repeat. grant_id is the grant it was exchanged for, revoked if the code is replayed.
CREATE TABLE oauth_codes (
    code_hash       TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL,
    client_name     TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id),
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    scopes          TEXT NOT NULL,
    audience        TEXT NOT NULL CHECK (audience IN ('api', 'mcp')),
    expires_at      TEXT NOT NULL,
    used_at         TEXT,
    grant_id        TEXT,
    created_at      TEXT NOT NULL
);

-- What a user allowed a client: the scopes and audience every token of the grant carries.
-- Revoking it (disconnect, a reused refresh token, a replayed code) revokes its tokens.
CREATE TABLE oauth_grants (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    user_id         TEXT NOT NULL REFERENCES users (id),
    client_id       TEXT NOT NULL,
    client_name     TEXT NOT NULL,
    scopes          TEXT NOT NULL,
    audience        TEXT NOT NULL CHECK (audience IN ('api', 'mcp')),
    created_at      TEXT NOT NULL,
    last_used_at    TEXT NOT NULL,
    revoked_at      TEXT
);
CREATE INDEX oauth_grants_user ON oauth_grants (user_id, created_at);

-- Every refresh token a grant has had. Only the newest is unused: a used one presented again
-- is a stolen copy (or a replay), and revokes the grant.
CREATE TABLE oauth_refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL REFERENCES oauth_grants (id),
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

-- A signed-in browser: the cookie's SHA-256, never the cookie.
CREATE TABLE browser_sessions (
    id_hash    TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX browser_sessions_user ON browser_sessions (user_id);

-- Failed sign-ins by (case-folded) e-mail, in the database so that every replica counts the
-- same: 5 within 15 minutes refuse the next attempt.
CREATE TABLE sign_in_failures (
    email     TEXT NOT NULL,
    failed_at TEXT NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures (email, failed_at);

-- Tokens issued through a grant name it, so revoking the grant reaches them.
ALTER TABLE access_tokens ADD COLUMN grant_id TEXT;
CREATE INDEX access_tokens_grant ON access_tokens (grant_id);

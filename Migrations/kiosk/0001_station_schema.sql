-- The station's own schema: roster, check-ins, the outbox of changes for the hub, settings,
-- and the audit log. Times are milliseconds since the Unix epoch (UTC).

CREATE TABLE access_types (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    reentry     INTEGER NOT NULL DEFAULT 0,
    valid_from  INTEGER,
    valid_until INTEGER,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE guests (
    id             TEXT PRIMARY KEY,
    code           TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    email          TEXT NOT NULL DEFAULT '',
    company        TEXT NOT NULL DEFAULT '',
    access_type_id TEXT NOT NULL,
    revoked        INTEGER NOT NULL DEFAULT 0,
    walk_in        INTEGER NOT NULL DEFAULT 0,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX guests_access_type ON guests(access_type_id);

-- Admissions only (own and synced from other stations); refusals live in audit_log.
CREATE TABLE check_ins (
    id              INTEGER PRIMARY KEY,
    idempotency_key TEXT NOT NULL UNIQUE,
    guest_id        TEXT NOT NULL,
    device_id       TEXT NOT NULL,
    station         TEXT NOT NULL,
    operator        TEXT NOT NULL,
    source          TEXT NOT NULL,
    direction       TEXT NOT NULL DEFAULT 'entry',
    scanned_at      INTEGER NOT NULL,
    origin          TEXT NOT NULL DEFAULT 'local',
    undone_at       INTEGER,
    hub_status      TEXT,
    hub_detail      TEXT
);
CREATE INDEX check_ins_guest ON check_ins(guest_id, scanned_at);

-- Changes waiting for the hub, written in the same transaction as the change itself.
-- Replayed in order of sort_at (the scan time), then id.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    ref        TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    sort_at    INTEGER NOT NULL,
    state      TEXT NOT NULL DEFAULT 'pending',
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    UNIQUE (kind, ref)
);
CREATE INDEX outbox_pending ON outbox(state, sort_at, id);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Every attempt, admitted or not, and every operator action.
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    at        INTEGER NOT NULL,
    device_id TEXT NOT NULL,
    station   TEXT NOT NULL,
    operator  TEXT NOT NULL,
    source    TEXT NOT NULL,
    action    TEXT NOT NULL,
    code      TEXT,
    guest_id  TEXT,
    decision  TEXT,
    detail    TEXT
);
CREATE INDEX audit_log_at ON audit_log(at);

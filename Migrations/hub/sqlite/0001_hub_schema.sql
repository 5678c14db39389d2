-- checkin-hub schema on SQLite. Timestamps are integer milliseconds since the epoch.
-- `seq` columns take values of hub_counters.change_seq: the roster cursor.
CREATE TABLE hub_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO hub_counters (name, value) VALUES ('change_seq', 0);

CREATE TABLE events (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    starts_at INTEGER,
    ends_at INTEGER,
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    window_ms INTEGER NOT NULL,
    undo_ms INTEGER NOT NULL
);

CREATE TABLE staff (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    staff_id TEXT NOT NULL REFERENCES staff(id),
    device_id TEXT,
    station_name TEXT,
    access_hash TEXT NOT NULL UNIQUE,
    access_expires INTEGER NOT NULL,
    refresh_hash TEXT NOT NULL UNIQUE,
    previous_refresh_hash TEXT,
    refresh_expires INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX sessions_previous_refresh ON sessions(previous_refresh_hash);

CREATE TABLE access_types (
    event_id TEXT NOT NULL REFERENCES events(id),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    reentry INTEGER NOT NULL DEFAULT 0,
    valid_from INTEGER,
    valid_until INTEGER,
    seq INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE INDEX access_types_seq ON access_types(event_id, seq);

CREATE TABLE guests (
    event_id TEXT NOT NULL REFERENCES events(id),
    id TEXT NOT NULL,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    access_type_id TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    walk_in INTEGER NOT NULL DEFAULT 0,
    possible_duplicate_of TEXT,
    deleted INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE UNIQUE INDEX guests_code ON guests(event_id, code);
CREATE INDEX guests_seq ON guests(event_id, seq);
CREATE INDEX guests_email ON guests(event_id, email);

-- Every distinct attempt (accepted, duplicate, rejected): the audit log of check-ins.
CREATE TABLE check_ins (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    source TEXT NOT NULL,
    direction TEXT NOT NULL,
    status TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT,
    prev_by TEXT,
    prev_station TEXT,
    prev_device TEXT,
    prev_at INTEGER,
    received_at INTEGER NOT NULL,
    undone_at INTEGER,
    seq INTEGER NOT NULL,
    UNIQUE (event_id, device_id, guest_id, scanned_at)
);
CREATE INDEX check_ins_guest ON check_ins(event_id, guest_id);
CREATE INDEX check_ins_seq ON check_ins(event_id, seq);

-- Every undo request, applied or refused.
CREATE TABLE undo_log (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    undone_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    reason TEXT,
    status TEXT NOT NULL,
    received_at INTEGER NOT NULL
);

-- The sync contract under hostile and unlucky input (issue 15).

-- A device id belongs to one station registration, bound to the hash of its device secret.
-- session_id is the session that holds the registration now: only it may upload as the device
-- (staff and support sessions). A NULL secret_hash marks an id registered before secrets
-- existed: the next registration presenting a secret binds it, as for a new id.
CREATE TABLE stations (
    device_id TEXT PRIMARY KEY,
    secret_hash TEXT,
    name TEXT NOT NULL,
    registered_by TEXT NOT NULL,
    registered_at INTEGER NOT NULL,
    session_id TEXT
);
-- Ids registered before: the most recently used live session holding one keeps it.
INSERT OR IGNORE INTO stations (device_id, secret_hash, name, registered_by, registered_at, session_id)
    SELECT device_id, NULL, coalesce(station_name, device_id), staff_id, last_used_at, id FROM sessions
    WHERE device_id IS NOT NULL AND revoked_at IS NULL ORDER BY last_used_at DESC;
CREATE INDEX stations_session ON stations(session_id);

-- Who uploaded, beside the operator name the station reported (NULL: before this version).
ALTER TABLE check_ins ADD COLUMN uploaded_by TEXT;
ALTER TABLE undo_log ADD COLUMN uploaded_by TEXT;

-- Each walk-in as uploaded: where, by whom, and what the hub made of its access type.
CREATE TABLE walk_ins (
    event_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    uploaded_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    requested_access_type_id TEXT NOT NULL,
    access_type_id TEXT NOT NULL,
    review TEXT,
    PRIMARY KEY (event_id, guest_id)
);

-- Attempts answered without a final decision (unknown_code): audited here, never looked up for
-- replays, so the same idempotency key is decided afresh when it comes again.
CREATE TABLE check_in_attempts (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    uploaded_by TEXT,
    source TEXT NOT NULL,
    direction TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT,
    received_at INTEGER NOT NULL
);
CREATE INDEX check_in_attempts_key ON check_in_attempts(event_id, device_id, guest_id, scanned_at);
-- Unknown-code answers stored under their key before this version move to the audit table, so
-- their keys are decided afresh.
INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, decision, reason, received_at)
    SELECT event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, decision, reason, received_at
    FROM check_ins WHERE decision = 'unknown_code';
DELETE FROM check_ins WHERE decision = 'unknown_code';

-- When the refresh token was last rotated: the previous one is accepted for a grace period after.
ALTER TABLE sessions ADD COLUMN rotated_at INTEGER;

-- The sync contract under hostile and unlucky input (issue 15).

-- A device id belongs to one station registration, bound to the hash of its device secret.
-- session_id is the session that holds the registration now: only it may upload as the device
-- (staff and support sessions). A NULL secret_hash marks an id registered before secrets
-- existed: the next registration presenting a secret binds it, as for a new id.
CREATE TABLE stations (
    device_id text PRIMARY KEY,
    secret_hash text,
    name text NOT NULL,
    registered_by text NOT NULL,
    registered_at bigint NOT NULL,
    session_id text
);
-- Ids registered before: the most recently used live session holding one keeps it.
INSERT INTO stations (device_id, secret_hash, name, registered_by, registered_at, session_id)
    SELECT DISTINCT ON (device_id) device_id, NULL, coalesce(station_name, device_id), staff_id, last_used_at, id FROM sessions
    WHERE device_id IS NOT NULL AND revoked_at IS NULL ORDER BY device_id, last_used_at DESC;
CREATE INDEX stations_session ON stations(session_id);

-- Who uploaded, beside the operator name the station reported (NULL: before this version).
ALTER TABLE check_ins ADD COLUMN uploaded_by text;
ALTER TABLE undo_log ADD COLUMN uploaded_by text;

-- Each walk-in as uploaded: where, by whom, and what the hub made of its access type.
CREATE TABLE walk_ins (
    event_id text NOT NULL,
    guest_id text NOT NULL,
    device_id text NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    uploaded_by text NOT NULL,
    created_at bigint NOT NULL,
    received_at bigint NOT NULL,
    requested_access_type_id text NOT NULL,
    access_type_id text NOT NULL,
    review text,
    PRIMARY KEY (event_id, guest_id)
);

-- Attempts answered without a final decision (unknown_code): audited here, never looked up for
-- replays, so the same idempotency key is decided afresh when it comes again.
CREATE TABLE check_in_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL,
    device_id text NOT NULL,
    guest_id text NOT NULL,
    scanned_at bigint NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    uploaded_by text,
    source text NOT NULL,
    direction text NOT NULL,
    decision text NOT NULL,
    reason text,
    received_at bigint NOT NULL
);
CREATE INDEX check_in_attempts_key ON check_in_attempts(event_id, device_id, guest_id, scanned_at);
-- Unknown-code answers stored under their key before this version move to the audit table, so
-- their keys are decided afresh.
INSERT INTO check_in_attempts (event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, decision, reason, received_at)
    SELECT event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, decision, reason, received_at
    FROM check_ins WHERE decision = 'unknown_code';
DELETE FROM check_ins WHERE decision = 'unknown_code';

-- When the refresh token was last rotated: the previous one is accepted for a grace period after.
ALTER TABLE sessions ADD COLUMN rotated_at bigint;

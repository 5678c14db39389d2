-- Every queued change knows where it belongs: the hub and the event it was recorded for, so a
-- later event switch or sign-in elsewhere can never upload it to the wrong event. Payloads
-- become the typed changes the hub receives (CheckIn, WalkIn, Undo in their JSON form), built
-- here from the recorded rows rather than from the old hand-written payloads.

-- The hub and event of the change; both NULL for a change recorded without a hub (a locally
-- imported roster), which the first event chosen adopts.
ALTER TABLE outbox ADD COLUMN hub_url TEXT;
ALTER TABLE outbox ADD COLUMN event_id TEXT;
-- The guest the change is about: a later change of a guest waits while an earlier one is held.
ALTER TABLE outbox ADD COLUMN guest_id TEXT;
-- Why a pending change waits for the next roster pull before it is sent again:
-- 'unknown_code' (the hub did not know the guest yet) or 'implausible_time' (clock wrong).
ALTER TABLE outbox ADD COLUMN hold TEXT;
-- How often the hub answered "unknown code" for this change (final after the 4th answer).
ALTER TABLE outbox ADD COLUMN unknown_answers INTEGER NOT NULL DEFAULT 0;
-- Recorded while the station's clock was not believable (see PlausibleTime).
ALTER TABLE outbox ADD COLUMN clock_suspect INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_destination ON outbox(state, hub_url, event_id, sort_at, id);
CREATE INDEX outbox_guest ON outbox(guest_id, state);

-- Names of the events changes were recorded for ("3 waiting for Spring Gala").
CREATE TABLE outbox_events (
    hub_url  TEXT NOT NULL,
    event_id TEXT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (hub_url, event_id)
);

-- Guests that came from the hub (1) or from a local import or a walk-in (0). A local guest whose
-- ticket code the hub sends under another id is the same person: re-keyed, never deleted.
ALTER TABLE guests ADD COLUMN from_hub INTEGER NOT NULL DEFAULT 0;
UPDATE guests SET from_hub = 1
WHERE walk_in = 0 AND EXISTS (SELECT 1 FROM settings WHERE key = 'sync_cursor');

-- Existing changes belong to the hub and event selected now (the only ones known).
UPDATE outbox SET
    hub_url = (SELECT value FROM settings WHERE key = 'hub_url'),
    event_id = (SELECT value FROM settings WHERE key = 'sync_event_id')
WHERE EXISTS (SELECT 1 FROM settings WHERE key = 'sync_event_id')
  AND EXISTS (SELECT 1 FROM settings WHERE key = 'hub_url');
INSERT OR IGNORE INTO outbox_events (hub_url, event_id, name)
SELECT h.value, e.value, COALESCE(n.value, e.value)
FROM settings h JOIN settings e ON e.key = 'sync_event_id' LEFT JOIN settings n ON n.key = 'sync_event_name'
WHERE h.key = 'hub_url';

-- Check-ins: the payload is the recorded check-in itself.
UPDATE outbox SET
    guest_id = (SELECT c.guest_id FROM check_ins c WHERE c.idempotency_key = outbox.ref),
    payload = (
        SELECT json_object(
            'key', json_object('deviceID', c.device_id, 'guestID', c.guest_id, 'scannedAt', c.scanned_at),
            'station', c.station, 'operatorName', c.operator, 'source', c.source, 'direction', c.direction)
        FROM check_ins c WHERE c.idempotency_key = outbox.ref)
WHERE kind = 'checkin' AND EXISTS (SELECT 1 FROM check_ins c WHERE c.idempotency_key = outbox.ref);

-- Walk-ins: the same fields under the names of the hub's WalkIn.
UPDATE outbox SET
    guest_id = ref,
    payload = json_object(
        'guestID', ref,
        'code', COALESCE(json_extract(payload, '$.code'), ''),
        'name', COALESCE(json_extract(payload, '$.name'), ''),
        'email', COALESCE(json_extract(payload, '$.email'), ''),
        'company', COALESCE(json_extract(payload, '$.company'), ''),
        'accessTypeID', COALESCE(json_extract(payload, '$.access_type_id'), ''),
        'deviceID', COALESCE(json_extract(payload, '$.device_id'), ''),
        'station', COALESCE(json_extract(payload, '$.station'), ''),
        'operatorName', COALESCE(json_extract(payload, '$.operator'), ''),
        'createdAt', COALESCE(json_extract(payload, '$.created_at'), sort_at + 1))
WHERE kind = 'walkin' AND json_valid(payload);

-- Undos: the key is the ref ("device/guest/milliseconds"); the station name was added at upload.
UPDATE outbox SET
    guest_id = substr(substr(ref, instr(ref, '/') + 1), 1, instr(substr(ref, instr(ref, '/') + 1), '/') - 1),
    payload = json_object(
        'key', json_object(
            'deviceID', substr(ref, 1, instr(ref, '/') - 1),
            'guestID', substr(substr(ref, instr(ref, '/') + 1), 1, instr(substr(ref, instr(ref, '/') + 1), '/') - 1),
            'scannedAt', CAST(substr(substr(ref, instr(ref, '/') + 1), instr(substr(ref, instr(ref, '/') + 1), '/') + 1) AS INTEGER)),
        'undoneAt', COALESCE(json_extract(payload, '$.undone_at'), sort_at),
        'station', COALESCE((SELECT value FROM settings WHERE key = 'station_name'), 'Station'),
        'operatorName', COALESCE(json_extract(payload, '$.operator'), ''))
WHERE kind = 'undo' AND json_valid(payload);

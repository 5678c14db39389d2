-- Check-ins of an event this station no longer works on (signed out, or another event chosen),
-- kept for the record once the hub has them. Archived, they no longer count on this station's
-- door counts and their guests no longer answer at the door of the next event.
CREATE TABLE check_ins_archive (
    id              INTEGER PRIMARY KEY,
    event_id        TEXT,
    idempotency_key TEXT NOT NULL,
    guest_id        TEXT NOT NULL,
    guest_code      TEXT,
    guest_name      TEXT,
    device_id       TEXT NOT NULL,
    station         TEXT NOT NULL,
    operator        TEXT NOT NULL,
    source          TEXT NOT NULL,
    direction       TEXT NOT NULL,
    scanned_at      INTEGER NOT NULL,
    undone_at       INTEGER,
    hub_status      TEXT,
    hub_detail      TEXT,
    archived_at     INTEGER NOT NULL
);

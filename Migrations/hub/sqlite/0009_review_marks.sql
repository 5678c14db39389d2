-- The dashboard's review page (issue 18): what an organizer looked at and decided. One row per
-- reviewed item: kind is conflict, walk_in, refusal or flagged_exit; subject is the check-in's
-- key (device/guest/scanned_at) or the walk-in's guest id; resolution says what was decided
-- (reviewed: kept as it is; merged: the walk-in went into a registration).
CREATE TABLE review_marks (
    event_id TEXT NOT NULL REFERENCES events(id),
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    resolution TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (event_id, kind, subject)
);
-- A walk-in merged into a registration: deleted, and sent to stations with the registration's
-- id so they move its check-ins and queued changes there. NULL for every other guest.
ALTER TABLE guests ADD COLUMN merged_into TEXT;

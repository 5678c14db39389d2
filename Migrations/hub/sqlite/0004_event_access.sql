-- Per-event access (issue 16): organizers see every event; support and check-in staff only the
-- events they are assigned to. An upgrade mid-event locks nobody out: every existing
-- non-organizer is assigned to every existing event. Staff can be disabled (sessions revoked,
-- sign-in refused) and removed (the row stays for the audit trail, its e-mail freed).
CREATE TABLE event_staff (
    event_id TEXT NOT NULL REFERENCES events(id),
    staff_id TEXT NOT NULL REFERENCES staff(id),
    assigned_at INTEGER NOT NULL,
    PRIMARY KEY (event_id, staff_id)
);
CREATE INDEX event_staff_staff ON event_staff(staff_id);
INSERT INTO event_staff (event_id, staff_id, assigned_at)
    SELECT e.id, s.id, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM events e CROSS JOIN staff s WHERE s.role <> 'organizer';

ALTER TABLE staff ADD COLUMN disabled_at INTEGER;
ALTER TABLE staff ADD COLUMN removed_at INTEGER;

-- The dashboard's guest lookup and arrivals chart (issue 18). Lookups by order code and by
-- e-mail (both in any case) use an index; the chart counts an event's accepted entries, not undone,
-- per interval from an index of exactly those rows; a guest's history reads the attempts
-- answered without a final decision, and the organizer actions taken on them, by guest.
-- Indexes only: no row changes.
CREATE INDEX guests_order_code ON guests(event_id, lower(order_code));
CREATE INDEX guests_email_lower ON guests(event_id, lower(email));
-- SQLite reads a partial index alone only when it holds the columns of its condition too.
CREATE INDEX check_ins_entries ON check_ins(event_id, scanned_at, status, direction, undone_at) WHERE status = 'accepted' AND direction = 'entry' AND undone_at IS NULL;
CREATE INDEX check_in_attempts_guest ON check_in_attempts(event_id, guest_id);
CREATE INDEX organizer_actions_subject ON organizer_actions(event_id, subject, id);

-- The hub's log of organizer actions (issue 18): every change a person makes from the dashboard
-- (revoke, manual check-in, review, merge, undo, staff changes), written in the transaction of
-- the change itself. event_id is NULL for an account's own changes.
CREATE TABLE organizer_actions (
    id BIGSERIAL PRIMARY KEY,
    event_id TEXT,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX organizer_actions_event ON organizer_actions(event_id, id);

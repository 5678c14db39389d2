-- An absolute end to every session (issue 16): refreshing keeps a station signed in for at most
-- the hub's session lifetime (7 days by default), then it signs in again. Sessions open at the
-- upgrade get a full lifetime from now, so an upgrade mid-event signs no station out.
ALTER TABLE sessions ADD COLUMN ends_at INTEGER;
UPDATE sessions SET ends_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 604800000;

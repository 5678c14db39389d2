-- What the imported export says about each ticket (issue 20), sent to stations in roster pages
-- and enforced by both: its own validity window, a note for the door staff, its order, and a
-- check-in the ticketing system made before the import. Instants in milliseconds; NULL or ''
-- when the export said nothing.
ALTER TABLE guests ADD COLUMN ticket_valid_from INTEGER;
ALTER TABLE guests ADD COLUMN ticket_valid_until INTEGER;
ALTER TABLE guests ADD COLUMN attention TEXT;
ALTER TABLE guests ADD COLUMN order_code TEXT NOT NULL DEFAULT '';
ALTER TABLE guests ADD COLUMN checked_in_before INTEGER;

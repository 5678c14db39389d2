-- What the export says about each ticket (issue 20): its own validity window, a note for the
-- door staff, its order, a check-in made before the import. They are guest data: they live in
-- the guest's sealed record (GuestFields, fields 5 to 9; a record of four fields reads as a
-- ticket without them, so existing rows need no rewrite). Whole orders are looked up by the
-- order code's keyed digest, like ticket codes.

ALTER TABLE guests ADD COLUMN order_digest BLOB;
CREATE INDEX guests_order ON guests (order_digest) WHERE order_digest IS NOT NULL;

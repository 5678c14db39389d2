-- A guest's attendee fields sealed together, and a blind index of about half the tokens
-- (issue 17's import and index targets; Sources/KioskStore/Encryption).
--
-- 1. guests.sealed holds code, name, e-mail and company in one AES-GCM record
--    (kiosk_seal_guest; read with kiosk_guest_field(sealed, 'name')): one seal per guest
--    instead of four, and one open to confirm a search candidate. guests.code keeps the
--    code's keyed digest for exact lookup. The four columns sealed one by one by 0008 go.
-- 2. The blind index is cut at ASCII punctuation as well as at whitespace, and keeps a
--    two-character sequence only where no ASCII letter or digit follows it (the triple it
--    starts covers it; GuestCipher.searchTokens). Tokens computed by 0008 would no longer be
--    asked for: the index is emptied and every guest staged again with its new tokens, for
--    the background catch-up to index after start-up; until then search finds staged guests
--    by their tokens (0004_search_catch_up.sql).
--
-- Nothing here was plaintext (0008 sealed it all): no compaction step is needed.

DROP TRIGGER guests_search_insert;
DROP TRIGGER guests_search_update;
DROP TRIGGER guests_search_delete;
DROP TABLE guest_search;
DELETE FROM search_pending;

ALTER TABLE guests ADD COLUMN sealed BLOB;
UPDATE guests SET sealed = kiosk_seal_guest(kiosk_open(sealed_code), kiosk_open(name), kiosk_open(email), kiosk_open(company));
ALTER TABLE guests DROP COLUMN sealed_code;
ALTER TABLE guests DROP COLUMN name;
ALTER TABLE guests DROP COLUMN email;
ALTER TABLE guests DROP COLUMN company;

CREATE VIRTUAL TABLE guest_search USING fts5(search_text, tokenize = 'ascii', detail = 'none');
INSERT INTO search_pending (guest_rowid, search_text) SELECT rowid, kiosk_search_tokens(sealed) FROM guests;

CREATE TRIGGER guests_search_insert AFTER INSERT ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    INSERT INTO guest_search (rowid, search_text) VALUES (new.rowid, kiosk_search_tokens(new.sealed));
END;

CREATE TRIGGER guests_search_update AFTER UPDATE OF sealed ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    UPDATE guest_search SET search_text = kiosk_search_tokens(new.sealed) WHERE rowid = old.rowid;
    UPDATE search_pending SET search_text = kiosk_search_tokens(new.sealed) WHERE guest_rowid = old.rowid;
END;

CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_search WHERE rowid = old.rowid;
    DELETE FROM search_pending WHERE guest_rowid = old.rowid;
END;

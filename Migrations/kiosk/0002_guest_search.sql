-- Search by name, e-mail, company and code, case- and accent-insensitive, by substring in every
-- script (CJK names have no spaces to split words on, hence trigrams).
-- kiosk_fold() is the station's folding function (CheckInCore.SearchText), registered on every
-- connection the station opens.
--
-- The triggers keep the index current for single-guest changes. A bulk import sets the
-- 'search_index_deferred' setting inside its transaction and indexes all its rows in one
-- statement instead: FTS5 flushes its pending index at every statement, so one trigger per row
-- would make a 100k-guest import several times slower.

CREATE VIRTUAL TABLE guest_search USING fts5(search_text, tokenize = 'trigram');

INSERT INTO guest_search(rowid, search_text)
SELECT rowid, kiosk_fold(name || ' ' || email || ' ' || company || ' ' || code) FROM guests;

CREATE TRIGGER guests_search_insert AFTER INSERT ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    INSERT INTO guest_search(rowid, search_text)
    VALUES (new.rowid, kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code));
END;

CREATE TRIGGER guests_search_update AFTER UPDATE OF name, email, company, code ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    UPDATE guest_search
    SET search_text = kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code)
    WHERE rowid = old.rowid;
END;

CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_search WHERE rowid = old.rowid;
END;

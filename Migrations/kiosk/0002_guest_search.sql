-- Search by name, e-mail, company and code, case- and accent-insensitive, by substring in every
-- script (CJK names have no spaces to split words on, hence trigrams).
-- kiosk_fold() is the station's folding function (CheckInCore.SearchText), registered on every
-- connection the station opens.

CREATE VIRTUAL TABLE guest_search USING fts5(search_text, tokenize = 'trigram');

INSERT INTO guest_search(rowid, search_text)
SELECT rowid, kiosk_fold(name || ' ' || email || ' ' || company || ' ' || code) FROM guests;

CREATE TRIGGER guests_search_insert AFTER INSERT ON guests BEGIN
    INSERT INTO guest_search(rowid, search_text)
    VALUES (new.rowid, kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code));
END;

CREATE TRIGGER guests_search_update AFTER UPDATE OF name, email, company, code ON guests BEGIN
    UPDATE guest_search
    SET search_text = kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code)
    WHERE rowid = old.rowid;
END;

CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_search WHERE rowid = old.rowid;
END;

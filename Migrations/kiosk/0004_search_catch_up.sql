-- Guests stored by a large bulk write (a roster download, a big import) whose search index is
-- built afterwards, in small transactions in the background: trigram-indexing 100k guests costs
-- several seconds, and the station can scan as soon as the guests are stored. Until a guest is
-- indexed, search finds it by scanning its folded text here. A guest is either in guest_search
-- or in search_pending, never both.

CREATE TABLE search_pending (
    guest_rowid INTEGER PRIMARY KEY,
    search_text TEXT NOT NULL
);

DROP TRIGGER guests_search_update;
CREATE TRIGGER guests_search_update AFTER UPDATE OF name, email, company, code ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    UPDATE guest_search
    SET search_text = kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code)
    WHERE rowid = old.rowid;
    UPDATE search_pending
    SET search_text = kiosk_fold(new.name || ' ' || new.email || ' ' || new.company || ' ' || new.code)
    WHERE guest_rowid = old.rowid;
END;

DROP TRIGGER guests_search_delete;
CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_search WHERE rowid = old.rowid;
    DELETE FROM search_pending WHERE guest_rowid = old.rowid;
END;

-- Guest data encrypted at rest: a lost station leaks no guest (issue 17).
--
-- Every attendee field is stored sealed with AES-GCM under keys derived from the store's data
-- key, which is itself stored only wrapped by the storage key (storage_store / storage_keys,
-- Sources/KioskStore/Encryption). The functions used here are registered on every connection
-- once the data key is unwrapped, before any migration runs:
--   kiosk_seal(text)              sealed blob (NULL stays NULL)
--   kiosk_code_digest(code)       keyed digest a ticket code is looked up by (guests.code)
--   kiosk_search_tokens(...)      the blind search index of a guest (keyed n-gram tokens)
--
-- guests.code now holds the digest (exact lookup, still UNIQUE) and guests.sealed_code the code
-- itself; name, email and company hold sealed blobs. The search index holds tokens instead of
-- folded text: short terms are answered by their bigram tokens, and every candidate is
-- confirmed on the decrypted text (kiosk_guest_matches). Queued uploads, the archive, the
-- audit log's codes and details, and badge jobs' codes are sealed too.
--
-- After this file the station compacts the database (VACUUM with secure_delete, write-ahead
-- log truncated) so that no page of the plaintext stays in the file:
-- kiosk:compact-after

DROP TRIGGER guests_search_insert;
DROP TRIGGER guests_search_update;
DROP TRIGGER guests_search_delete;
DROP TABLE guest_search;
DELETE FROM search_pending;

ALTER TABLE guests ADD COLUMN sealed_code BLOB;
UPDATE guests SET
    sealed_code = kiosk_seal(code),
    code = kiosk_code_digest(code),
    name = kiosk_seal(name),
    email = kiosk_seal(email),
    company = kiosk_seal(company);

-- Tokens are whole words of six hex digits; positions are never asked for.
CREATE VIRTUAL TABLE guest_search USING fts5(search_text, tokenize = 'ascii', detail = 'none');
INSERT INTO guest_search (rowid, search_text)
SELECT rowid, kiosk_search_tokens(name, email, company, sealed_code) FROM guests;

CREATE TRIGGER guests_search_insert AFTER INSERT ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    INSERT INTO guest_search (rowid, search_text)
    VALUES (new.rowid, kiosk_search_tokens(new.name, new.email, new.company, new.sealed_code));
END;

CREATE TRIGGER guests_search_update AFTER UPDATE OF name, email, company, sealed_code ON guests
WHEN NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_index_deferred') BEGIN
    UPDATE guest_search SET search_text = kiosk_search_tokens(new.name, new.email, new.company, new.sealed_code)
    WHERE rowid = old.rowid;
    UPDATE search_pending SET search_text = kiosk_search_tokens(new.name, new.email, new.company, new.sealed_code)
    WHERE guest_rowid = old.rowid;
END;

CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_search WHERE rowid = old.rowid;
    DELETE FROM search_pending WHERE guest_rowid = old.rowid;
END;

UPDATE outbox SET payload = kiosk_seal(payload);
UPDATE check_ins_archive SET guest_code = kiosk_seal(guest_code), guest_name = kiosk_seal(guest_name);
UPDATE audit_log SET code = kiosk_seal(code), detail = kiosk_seal(detail);
UPDATE print_jobs SET code = kiosk_seal(code);

-- The blind search index cut at punctuation as well as at whitespace (issue 17's import and
-- index targets): a guest's tokens are the two- and three-character sequences of each segment
-- between whitespace and ASCII punctuation, so an e-mail address shares its segments' tokens
-- with the name and a ticket code loses the sequences across its dashes. A guest has about
-- 40 % fewer tokens; search asks for the sequences of a term's segments and confirms every
-- candidate on the decrypted text, as before (Sources/KioskStore/Encryption/GuestCipher.swift).
--
-- Tokens computed by 0008 would no longer be asked for: the index is emptied and every guest
-- staged again with its new tokens, for the background catch-up to index after start-up.
-- Until then search finds staged guests by their tokens (0004_search_catch_up.sql).

DROP TABLE guest_search;
CREATE VIRTUAL TABLE guest_search USING fts5(search_text, tokenize = 'ascii', detail = 'none');

DELETE FROM search_pending;
INSERT INTO search_pending (guest_rowid, search_text)
SELECT rowid, kiosk_search_tokens(name, email, company, sealed_code) FROM guests;

-- Guest ids that are not ticket codes (issue 30; station audit C5).
--
-- A hub knows the guests of an imported roster by their ticket codes, and the station kept the
-- hub's ids as its own: guests.id, check-in keys (device/guest/ms), queued uploads, badge jobs
-- and the audit log listed every code in clear. A guest the hub knows (and every walk-in, which
-- the hub knows by the id the station gave it) now has the station's own id, 'h' and 32 hex
-- digits of the hub id's keyed digest (HubGuestIDs in Sources/KioskStore), the same the sync
-- computes for every page from now on; the hub's id is kept sealed in guests.hub_id, or not at
-- all when it is the ticket code (sealed with the guest already), and given back only to upload,
-- so a check-in queued before this still reaches the hub under the key it had there.
-- Locally imported guests keep their ids (random, never codes).
--
-- After this file the station compacts the database (VACUUM with secure_delete, write-ahead log
-- truncated), so that no page of the old ids stays in the file:
-- kiosk:compact-after

ALTER TABLE guests ADD COLUMN hub_id BLOB;

CREATE TEMP TABLE guest_rekey (old TEXT PRIMARY KEY, new TEXT NOT NULL, hub_id BLOB);

INSERT INTO temp.guest_rekey (old, new, hub_id)
SELECT id, 'h' || lower(hex(kiosk_code_digest('guest ' || id))),
       CASE WHEN id = kiosk_guest_field(sealed, 'code') THEN NULL ELSE kiosk_seal(id) END
FROM guests WHERE from_hub = 1 OR walk_in = 1;

-- Ids named where their guest is gone (removed by the hub, an archived event): a hub's unless
-- they have the layout of the station's own random ids.
INSERT OR IGNORE INTO temp.guest_rekey (old, new)
SELECT guest_id, 'h' || lower(hex(kiosk_code_digest('guest ' || guest_id))) FROM (
    SELECT guest_id FROM check_ins UNION SELECT guest_id FROM check_ins_archive
    UNION SELECT guest_id FROM outbox WHERE guest_id IS NOT NULL UNION SELECT guest_id FROM print_jobs
    UNION SELECT guest_id FROM audit_log WHERE guest_id IS NOT NULL)
WHERE guest_id NOT IN (SELECT id FROM guests)
  AND NOT (length(guest_id) = 36 AND substr(guest_id, 9, 1) = '-' AND substr(guest_id, 14, 1) = '-'
           AND substr(guest_id, 19, 1) = '-' AND substr(guest_id, 24, 1) = '-');

UPDATE guests SET id = r.new, hub_id = r.hub_id FROM temp.guest_rekey r WHERE r.old = guests.id;

UPDATE check_ins SET guest_id = r.new, idempotency_key = check_ins.device_id || '/' || r.new || '/' || check_ins.scanned_at
FROM temp.guest_rekey r WHERE r.old = check_ins.guest_id;

UPDATE check_ins_archive SET guest_id = r.new,
    idempotency_key = check_ins_archive.device_id || '/' || r.new || '/' || check_ins_archive.scanned_at
FROM temp.guest_rekey r WHERE r.old = check_ins_archive.guest_id;

-- Queued (and answered) uploads: the guest, the ref (a check-in's or undo's key, a walk-in's id)
-- and the sealed payload. A payload this build cannot read keeps its words.
UPDATE outbox SET guest_id = r.new,
    ref = CASE WHEN outbox.kind = 'walkin' THEN r.new
               ELSE substr(outbox.ref, 1, instr(outbox.ref, '/')) || r.new || substr(outbox.ref, instr(outbox.ref, '/') + length(r.old) + 1) END,
    payload = CASE WHEN json_valid(kiosk_open(outbox.payload))
                   THEN kiosk_seal(json_set(kiosk_open(outbox.payload), CASE WHEN outbox.kind = 'walkin' THEN '$.guestID' ELSE '$.key.guestID' END, r.new))
                   ELSE outbox.payload END
FROM temp.guest_rekey r WHERE r.old = outbox.guest_id;

UPDATE outbox SET last_error = 'merged into ' || r.new || ' at the hub'
FROM temp.guest_rekey r WHERE outbox.last_error = 'merged into ' || r.old || ' at the hub';

UPDATE print_jobs SET guest_id = r.new FROM temp.guest_rekey r WHERE r.old = print_jobs.guest_id;

UPDATE audit_log SET guest_id = r.new FROM temp.guest_rekey r WHERE r.old = audit_log.guest_id;

DROP TABLE temp.guest_rekey;

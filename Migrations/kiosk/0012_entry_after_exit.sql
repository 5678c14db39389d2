-- A single-entry ticket that admits again after an exit (issue 31: pretix's "allow entry after
-- exit", on by default on every pretix check-in list): one stay at a time rather than one entry.
-- Access types written before read as they always did (0: single entry means one entry).

ALTER TABLE access_types ADD COLUMN entry_after_exit INTEGER NOT NULL DEFAULT 0;

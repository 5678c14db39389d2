-- Entry and exit (issue 14): a recorded movement an organizer should look at carries a flag
-- (`exit_without_entry`: an exit by someone the hub did not have inside). Stored with the row so
-- a replay of the key gets the same answer, flag included. NULL: nothing to look at (and every
-- row from before this version).
ALTER TABLE check_ins ADD COLUMN flag TEXT;

-- The print queue works badge jobs in order, as a service (issue 13). Two new states:
--   held               no printer can take the job now; it prints, in order, when one is ready again
--   awaiting_operator  it waited longer than the station allows (the attendee may have left): the
--                      operator answers "print them", "print them on the other printer" or "cancel"
-- and one old state goes: `needs_attention` was a job the old spooler stopped following at its
-- timeout. One that reached CUPS is followed again (`submitted`: the queue asks CUPS how it ended),
-- one that never did goes back to the queue.
-- released_at: when an operator said "print anyway"; such a job is never set aside again.
ALTER TABLE print_jobs ADD COLUMN released_at INTEGER;
UPDATE print_jobs SET state = CASE WHEN cups_job_id IS NULL THEN 'queued' ELSE 'submitted' END
WHERE state = 'needs_attention';
DROP INDEX print_jobs_open;
CREATE INDEX print_jobs_unfinished ON print_jobs(state)
WHERE state IN ('queued', 'held', 'submitted', 'printing', 'awaiting_operator');

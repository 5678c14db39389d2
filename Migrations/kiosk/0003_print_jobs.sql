-- Badge print jobs, one row per attempt to put a badge in a guest's hands. The spooler writes
-- every state change here before it tells anyone, so a crash or restart loses no job: on start
-- it resumes the ones CUPS still knows (submitted, printing) and reports the others.
-- state: queued | submitted | printing | printed | unconfirmed | failed | needs_attention | canceled
CREATE TABLE print_jobs (
    id           INTEGER PRIMARY KEY,
    guest_id     TEXT NOT NULL,
    code         TEXT NOT NULL,
    queue        TEXT NOT NULL,
    state        TEXT NOT NULL DEFAULT 'queued',
    reason       TEXT,
    cups_job_id  INTEGER,
    fault_seen   TEXT,
    reprint      INTEGER NOT NULL DEFAULT 0,
    requested_by TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    submitted_at INTEGER,
    finished_at  INTEGER,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX print_jobs_guest ON print_jobs(guest_id, created_at);
CREATE INDEX print_jobs_open ON print_jobs(state) WHERE state IN ('queued', 'submitted', 'printing');

-- checkin-hub schema on PostgreSQL. Timestamps are bigint milliseconds since the epoch.
-- `seq` columns take values of change_seq: the roster cursor. Writers of one event hold that
-- event's advisory transaction lock, so within an event seq order is commit order.
CREATE SEQUENCE change_seq;

CREATE TABLE events (
    id text PRIMARY KEY,
    name text NOT NULL,
    starts_at bigint,
    ends_at bigint,
    time_zone text NOT NULL DEFAULT 'UTC',
    window_ms bigint NOT NULL,
    undo_ms bigint NOT NULL
);

CREATE TABLE staff (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    name text NOT NULL,
    role text NOT NULL,
    password_hash text NOT NULL
);

CREATE TABLE sessions (
    id text PRIMARY KEY,
    staff_id text NOT NULL REFERENCES staff(id),
    device_id text,
    station_name text,
    access_hash text NOT NULL UNIQUE,
    access_expires bigint NOT NULL,
    refresh_hash text NOT NULL UNIQUE,
    previous_refresh_hash text,
    refresh_expires bigint NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint NOT NULL,
    revoked_at bigint
);
CREATE INDEX sessions_previous_refresh ON sessions(previous_refresh_hash);

CREATE TABLE access_types (
    event_id text NOT NULL REFERENCES events(id),
    id text NOT NULL,
    name text NOT NULL,
    reentry boolean NOT NULL DEFAULT false,
    valid_from bigint,
    valid_until bigint,
    seq bigint NOT NULL DEFAULT nextval('change_seq'),
    PRIMARY KEY (event_id, id)
);
CREATE INDEX access_types_seq ON access_types(event_id, seq);

CREATE TABLE guests (
    event_id text NOT NULL REFERENCES events(id),
    id text NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    email text NOT NULL DEFAULT '',
    company text NOT NULL DEFAULT '',
    access_type_id text NOT NULL,
    revoked boolean NOT NULL DEFAULT false,
    walk_in boolean NOT NULL DEFAULT false,
    possible_duplicate_of text,
    deleted boolean NOT NULL DEFAULT false,
    seq bigint NOT NULL DEFAULT nextval('change_seq'),
    PRIMARY KEY (event_id, id)
);
CREATE UNIQUE INDEX guests_code ON guests(event_id, code);
CREATE INDEX guests_seq ON guests(event_id, seq);
CREATE INDEX guests_email ON guests(event_id, email);

-- Every distinct attempt (accepted, duplicate, rejected): the audit log of check-ins.
CREATE TABLE check_ins (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL,
    device_id text NOT NULL,
    guest_id text NOT NULL,
    scanned_at bigint NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    source text NOT NULL,
    direction text NOT NULL,
    status text NOT NULL,
    decision text NOT NULL,
    reason text,
    prev_by text,
    prev_station text,
    prev_device text,
    prev_at bigint,
    received_at bigint NOT NULL,
    undone_at bigint,
    seq bigint NOT NULL DEFAULT nextval('change_seq'),
    UNIQUE (event_id, device_id, guest_id, scanned_at)
);
CREATE INDEX check_ins_guest ON check_ins(event_id, guest_id);
CREATE INDEX check_ins_seq ON check_ins(event_id, seq);

-- Every undo request, applied or refused.
CREATE TABLE undo_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL,
    device_id text NOT NULL,
    guest_id text NOT NULL,
    scanned_at bigint NOT NULL,
    undone_at bigint NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    reason text,
    status text NOT NULL,
    received_at bigint NOT NULL
);

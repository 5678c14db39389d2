-- A hub database made by checkin-hub 0.9.0 (main at 1bee138) with Tests/HubServerTests/Fixtures/make-release-database.py:
-- two events, access types, a roster with ticket facts, staff, sessions, a station registration and report,
-- accepted, duplicate and refused check-ins, an unknown-code attempt, walk-ins (one flagged), an undo, and
-- the dashboard's organizer actions. Staff passwords: olga@example.org organizer-pass, alex@example.org
-- door-pass-1, sam@example.org support-pass. HubUpgradeTests migrates and serves it with today's code.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE hub_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL);
INSERT INTO hub_migrations VALUES('0001_hub_schema','a61defc99076bdaafaac6f458d7dc4c54c9940b9131800ebc2b7d6d4413c1d9c');
INSERT INTO hub_migrations VALUES('0002_sync_contract','bbc05b0f86ce4bac031fc0d9d4508168a4623e54e906b376e5d29f8d71978cac');
INSERT INTO hub_migrations VALUES('0003_check_in_flags','8f4b2e11c96c673188937523ccd8bb0a59577238bfba76245af09eccc4547e86');
INSERT INTO hub_migrations VALUES('0004_event_access','2dd6c5f6725261395ac9ac8786d5cb3d2bd91bb02af4247c7f0e4163db874521');
INSERT INTO hub_migrations VALUES('0005_session_end','49c488925acf61f0e172e3838e7ed774d9e157f77d1cf1b79dacc80e8adb7e8a');
INSERT INTO hub_migrations VALUES('0006_ticket_facts','2c170da843e15fc286d1a70e96d671d3be820116ec227a8ef700aa4f2c206abb');
INSERT INTO hub_migrations VALUES('0007_station_reports','fe4150cbd1af955e2ee2891fd5c3f46c09e418ec6424ab1c4ce67c63645a5567');
INSERT INTO hub_migrations VALUES('0008_organizer_actions','289c9525aef47bb0685cd35d28ba4dc4ef12aba6fa0faa291130d8f5db18b7e4');
INSERT INTO hub_migrations VALUES('0009_review_marks','826865e4710af4606c5f73f140ea76a9ac79b22a6dde4d3740d3f7291646eece');
INSERT INTO hub_migrations VALUES('0010_guest_lookup','e7183b408f6345505923ec7c56878f2bcdea1e60ea29c30f0c4b305d52ead950');
CREATE TABLE hub_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO hub_counters VALUES('change_seq',22);
CREATE TABLE events (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    starts_at INTEGER,
    ends_at INTEGER,
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    window_ms INTEGER NOT NULL,
    undo_ms INTEGER NOT NULL
);
INSERT INTO events VALUES('gala','Winter Gala',1760029200000,1760050800000,'Europe/Vienna',30000,300000);
INSERT INTO events VALUES('fair','Book Fair',NULL,NULL,'UTC',30000,300000);
CREATE TABLE staff (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL
, disabled_at INTEGER, removed_at INTEGER);
INSERT INTO staff VALUES('st_b00525a9aa37322c','olga@example.org','Olga','organizer','pbkdf2-sha256$600000$YROHz7KUJmFd/VCpjnxHPQ==$tdHGWlS6hxmNFnk0wdHpVfFioOOnqJCiggRRbmErrxA=',NULL,NULL);
INSERT INTO staff VALUES('st_b04abe9d0977df90','alex@example.org','Alex','staff','pbkdf2-sha256$600000$rzWovn5mmW+Qh4gS/0xr5Q==$Ec7dUr6rSWJ70GQ/5/YKvjUaaizqFyhujm/7NiNqwRk=',NULL,NULL);
INSERT INTO staff VALUES('st_02bdf0253bc01a7e','sam@example.org','Sam','support','pbkdf2-sha256$600000$aAx2Eg+aWd/QsHJra/7fYw==$qv0CMDVOU+7GtdgpeUw0J/GtD2D+Q8LFCN59SQSFVkM=',NULL,NULL);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    staff_id TEXT NOT NULL REFERENCES staff(id),
    device_id TEXT,
    station_name TEXT,
    access_hash TEXT NOT NULL UNIQUE,
    access_expires INTEGER NOT NULL,
    refresh_hash TEXT NOT NULL UNIQUE,
    previous_refresh_hash TEXT,
    refresh_expires INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    revoked_at INTEGER
, rotated_at INTEGER, ends_at INTEGER);
INSERT INTO sessions VALUES('ses_ec2fafe1a86d5211','st_b04abe9d0977df90','door-1','Door 1','661446e0324c1a68e6ed10237fcc5bf2534239608e631aa0e92b21413d8ff2b8',1795834695929,'6e5a400de4684cf6baf25cc93ecc16b2cd6bdc41306268ff67cf338f4c349fbd',NULL,1796438595929,1795833795929,1795833795929,NULL,NULL,1796438595929);
INSERT INTO sessions VALUES('ses_a2f9b4134fb89bfc','st_02bdf0253bc01a7e',NULL,NULL,'aea088d9e7bbecc61234b0e59b998863e3605930c8b189efd5eed1837cc28c78',1795834696915,'ef8bf95e7445fa2642b32f669aa83def73be3514c0a51977f6fecd7faadedb15',NULL,1796438596915,1795833796915,1795833796915,NULL,NULL,1796438596915);
INSERT INTO sessions VALUES('ses_625a984a0a27f973','st_b00525a9aa37322c',NULL,NULL,'17aab08bf9a13ea8287ac111059cb64ccab6b6b1cc78947ffd6344cf1ca5bb11',1795876998810,'e8888650c468148aa21488381230f75af660fea147b931f9069412427323ab90',NULL,1795876998810,1795833798810,1795833798810,NULL,NULL,1795876998810);
CREATE TABLE access_types (
    event_id TEXT NOT NULL REFERENCES events(id),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    reentry INTEGER NOT NULL DEFAULT 0,
    valid_from INTEGER,
    valid_until INTEGER,
    seq INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
INSERT INTO access_types VALUES('gala','vip','VIP',1,NULL,NULL,1);
INSERT INTO access_types VALUES('gala','general','General',0,NULL,NULL,2);
INSERT INTO access_types VALUES('gala','day-pass','Day pass',0,NULL,NULL,8);
CREATE TABLE guests (
    event_id TEXT NOT NULL REFERENCES events(id),
    id TEXT NOT NULL,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    access_type_id TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    walk_in INTEGER NOT NULL DEFAULT 0,
    possible_duplicate_of TEXT,
    deleted INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL, ticket_valid_from INTEGER, ticket_valid_until INTEGER, attention TEXT, order_code TEXT NOT NULL DEFAULT '', checked_in_before INTEGER, merged_into TEXT,
    PRIMARY KEY (event_id, id)
);
INSERT INTO guests VALUES('gala','G1','G1','Ada Lovelace','ada@example.org','Analytical','general',0,0,NULL,0,3,NULL,NULL,NULL,'ORD-1',NULL,NULL);
INSERT INTO guests VALUES('gala','G2','G2','Charles Babbage','charles@example.org','','general',0,0,NULL,0,4,NULL,NULL,NULL,'ORD-1',NULL,NULL);
INSERT INTO guests VALUES('gala','G3','G3','Grace Hopper','grace@example.org','Navy','vip',0,0,NULL,0,5,1760025600000,1760061600000,'Wheelchair access','ORD-2',NULL,NULL);
INSERT INTO guests VALUES('gala','G4','G4','Alan Turing','alan@example.org','','general',0,0,NULL,0,6,NULL,NULL,NULL,'ORD-3',NULL,NULL);
INSERT INTO guests VALUES('gala','G5','G5','Émilie du Châtelet','emilie@example.org','','general',0,0,NULL,0,7,NULL,NULL,NULL,'',NULL,NULL);
INSERT INTO guests VALUES('gala','G6','G6','Hedy Lamarr','hedy@example.org','','day-pass',1,0,NULL,0,22,NULL,NULL,NULL,'ORD-4',NULL,NULL);
INSERT INTO guests VALUES('gala','w-1','W-1','Walk In','','','general',0,1,NULL,0,18,NULL,NULL,NULL,'',NULL,NULL);
INSERT INTO guests VALUES('gala','w-2','W-2','Ada L.','ADA@example.org','','general',0,1,'G1',0,19,NULL,NULL,NULL,'',NULL,NULL);
CREATE TABLE check_ins (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    source TEXT NOT NULL,
    direction TEXT NOT NULL,
    status TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT,
    prev_by TEXT,
    prev_station TEXT,
    prev_device TEXT,
    prev_at INTEGER,
    received_at INTEGER NOT NULL,
    undone_at INTEGER,
    seq INTEGER NOT NULL, uploaded_by TEXT, flag TEXT,
    UNIQUE (event_id, device_id, guest_id, scanned_at)
);
INSERT INTO check_ins VALUES(1,'gala','door-1','G1',1760029260000,'Door 1','Alex','camera','entry','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,NULL,10,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(2,'gala','door-1','G1',1760029270000,'Door 1','Alex','camera','entry','duplicate','duplicate',NULL,'Alex','Door 1','door-1',1760029260000,1795833795998,NULL,11,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(3,'gala','door-1','G2',1760029280000,'Door 1','Alex','camera','entry','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,NULL,12,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(4,'gala','door-1','G3',1760029290000,'Door 1','Alex','camera','entry','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,NULL,13,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(5,'gala','door-1','G3',1760032800000,'Door 1','Alex','camera','exit','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,NULL,14,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(6,'gala','door-1','G3',1760032900000,'Door 1','Alex','camera','entry','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,NULL,15,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(7,'gala','door-1','G4',1760029300000,'Door 1','Alex','camera','exit','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833795998,1760029400000,20,'st_b04abe9d0977df90','exit_without_entry');
INSERT INTO check_ins VALUES(8,'gala','door-1','G2',1760036400000,'Door 1','Alex','camera','entry','rejected','already_checked_in','already checked in','Alex','Door 1','door-1',1760029280000,1795833795998,NULL,17,'st_b04abe9d0977df90',NULL);
INSERT INTO check_ins VALUES(9,'gala','dashboard:st_b00525a9aa37322c','G5',1795833799020,'Dashboard','Olga','search','entry','accepted','admitted',NULL,NULL,NULL,NULL,NULL,1795833799020,NULL,21,'st_b00525a9aa37322c',NULL);
CREATE TABLE undo_log (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    undone_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    reason TEXT,
    status TEXT NOT NULL,
    received_at INTEGER NOT NULL
, uploaded_by TEXT);
INSERT INTO undo_log VALUES(1,'gala','door-1','G4',1760029300000,1760029400000,'Door 1','Alex','scanned the wrong badge','undone',1795833796942,'st_b04abe9d0977df90');
CREATE TABLE stations (
    device_id TEXT PRIMARY KEY,
    secret_hash TEXT,
    name TEXT NOT NULL,
    registered_by TEXT NOT NULL,
    registered_at INTEGER NOT NULL,
    session_id TEXT
);
INSERT INTO stations VALUES('door-1','dd47c98429e5e5c737d3598c96c8fd269d63366d356da51f4662d419272f8f78','Door 1','st_b04abe9d0977df90',1795833795949,'ses_ec2fafe1a86d5211');
CREATE TABLE walk_ins (
    event_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    uploaded_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    requested_access_type_id TEXT NOT NULL,
    access_type_id TEXT NOT NULL,
    review TEXT,
    PRIMARY KEY (event_id, guest_id)
);
INSERT INTO walk_ins VALUES('gala','w-1','door-1','Door 1','Alex','st_b04abe9d0977df90',1760029320000,1795833796046,'general','general',NULL);
INSERT INTO walk_ins VALUES('gala','w-2','door-1','Door 1','Alex','st_b04abe9d0977df90',1760029330000,1795833796046,'backstage','general','unknown access type; recorded under the event''s default type general');
CREATE TABLE check_in_attempts (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    scanned_at INTEGER NOT NULL,
    station TEXT NOT NULL,
    operator_name TEXT NOT NULL,
    uploaded_by TEXT,
    source TEXT NOT NULL,
    direction TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT,
    received_at INTEGER NOT NULL
);
INSERT INTO check_in_attempts VALUES(1,'gala','door-1','NOPE',1760029310000,'Door 1','Alex','st_b04abe9d0977df90','camera','entry','unknown_code','no such guest on this event''s roster',1795833795998);
CREATE TABLE event_staff (
    event_id TEXT NOT NULL REFERENCES events(id),
    staff_id TEXT NOT NULL REFERENCES staff(id),
    assigned_at INTEGER NOT NULL,
    PRIMARY KEY (event_id, staff_id)
);
INSERT INTO event_staff VALUES('gala','st_b04abe9d0977df90',1795833793707);
INSERT INTO event_staff VALUES('gala','st_02bdf0253bc01a7e',1795833793707);
CREATE TABLE station_reports (
    event_id TEXT NOT NULL REFERENCES events(id),
    device_id TEXT NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    pending INTEGER NOT NULL,
    printer_state TEXT,
    printer_words TEXT,
    camera_state TEXT,
    camera_words TEXT,
    staff_name TEXT NOT NULL,
    station_time INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (event_id, device_id)
);
INSERT INTO station_reports VALUES('gala','door-1','Door 1','1.0',2,'ready','Ready','ready','Ready','Alex',1795833796947,1795833796956);
CREATE TABLE organizer_actions (
    id INTEGER PRIMARY KEY,
    event_id TEXT,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL,
    at INTEGER NOT NULL
);
INSERT INTO organizer_actions VALUES(1,'gala','st_b00525a9aa37322c','Olga','manual_check_in','G5','admitted',1795833799020);
INSERT INTO organizer_actions VALUES(2,'gala','st_b00525a9aa37322c','Olga','guest_revoked','G6','refunded',1795833799056);
INSERT INTO organizer_actions VALUES(3,'gala','st_b00525a9aa37322c','Olga','refusal_reviewed','door-1/NOPE/1760029310000','refusal reviewed, kept as it is',1795833799085);
CREATE TABLE review_marks (
    event_id TEXT NOT NULL REFERENCES events(id),
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    resolution TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (event_id, kind, subject)
);
INSERT INTO review_marks VALUES('gala','refusal','door-1/NOPE/1760029310000','reviewed','st_b00525a9aa37322c','Olga',1795833799085);
CREATE INDEX sessions_previous_refresh ON sessions(previous_refresh_hash);
CREATE INDEX access_types_seq ON access_types(event_id, seq);
CREATE UNIQUE INDEX guests_code ON guests(event_id, code);
CREATE INDEX guests_seq ON guests(event_id, seq);
CREATE INDEX guests_email ON guests(event_id, email);
CREATE INDEX check_ins_guest ON check_ins(event_id, guest_id);
CREATE INDEX check_ins_seq ON check_ins(event_id, seq);
CREATE INDEX stations_session ON stations(session_id);
CREATE INDEX check_in_attempts_key ON check_in_attempts(event_id, device_id, guest_id, scanned_at);
CREATE INDEX event_staff_staff ON event_staff(staff_id);
CREATE INDEX organizer_actions_event ON organizer_actions(event_id, id);
CREATE INDEX guests_order_code ON guests(event_id, lower(order_code));
CREATE INDEX guests_email_lower ON guests(event_id, lower(email));
CREATE INDEX check_ins_entries ON check_ins(event_id, scanned_at, status, direction, undone_at) WHERE status = 'accepted' AND direction = 'entry' AND undone_at IS NULL;
CREATE INDEX check_in_attempts_guest ON check_in_attempts(event_id, guest_id);
CREATE INDEX organizer_actions_subject ON organizer_actions(event_id, subject, id);
COMMIT;

-- A hub database made by checkin-hub 0.9.0 (main at 1bee138) with Tests/HubServerTests/Fixtures/make-release-database.py:
-- two events, access types, a roster with ticket facts, staff, sessions, a station registration and report,
-- accepted, duplicate and refused check-ins, an unknown-code attempt, walk-ins (one flagged), an undo, and
-- the dashboard's organizer actions. Staff passwords: olga@example.org organizer-pass, alex@example.org
-- door-pass-1, sam@example.org support-pass. HubUpgradeTests migrates and serves it with today's code.
--
-- PostgreSQL database dump
--

\restrict WdZyplCAJQ3zQnZscMXeaSH46Zi9RNafxVqvZywYi3F94tdjwhXjR2EIUw2EJC2

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: change_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.change_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: access_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.access_types (
    event_id text NOT NULL,
    id text NOT NULL,
    name text NOT NULL,
    reentry boolean DEFAULT false NOT NULL,
    valid_from bigint,
    valid_until bigint,
    seq bigint DEFAULT nextval('public.change_seq'::regclass) NOT NULL
);


--
-- Name: check_in_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.check_in_attempts (
    id bigint NOT NULL,
    event_id text NOT NULL,
    device_id text NOT NULL,
    guest_id text NOT NULL,
    scanned_at bigint NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    uploaded_by text,
    source text NOT NULL,
    direction text NOT NULL,
    decision text NOT NULL,
    reason text,
    received_at bigint NOT NULL
);


--
-- Name: check_in_attempts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.check_in_attempts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.check_in_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: check_ins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.check_ins (
    id bigint NOT NULL,
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
    seq bigint DEFAULT nextval('public.change_seq'::regclass) NOT NULL,
    uploaded_by text,
    flag text
);


--
-- Name: check_ins_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.check_ins ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.check_ins_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: event_staff; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event_staff (
    event_id text NOT NULL,
    staff_id text NOT NULL,
    assigned_at bigint NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    id text NOT NULL,
    name text NOT NULL,
    starts_at bigint,
    ends_at bigint,
    time_zone text DEFAULT 'UTC'::text NOT NULL,
    window_ms bigint NOT NULL,
    undo_ms bigint NOT NULL
);


--
-- Name: guests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.guests (
    event_id text NOT NULL,
    id text NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    email text DEFAULT ''::text NOT NULL,
    company text DEFAULT ''::text NOT NULL,
    access_type_id text NOT NULL,
    revoked boolean DEFAULT false NOT NULL,
    walk_in boolean DEFAULT false NOT NULL,
    possible_duplicate_of text,
    deleted boolean DEFAULT false NOT NULL,
    seq bigint DEFAULT nextval('public.change_seq'::regclass) NOT NULL,
    ticket_valid_from bigint,
    ticket_valid_until bigint,
    attention text,
    order_code text DEFAULT ''::text NOT NULL,
    checked_in_before bigint,
    merged_into text
);


--
-- Name: hub_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.hub_migrations (
    name text NOT NULL,
    checksum text NOT NULL
);


--
-- Name: organizer_actions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.organizer_actions (
    id bigint NOT NULL,
    event_id text,
    actor_id text NOT NULL,
    actor_name text NOT NULL,
    kind text NOT NULL,
    subject text NOT NULL,
    detail text NOT NULL,
    at bigint NOT NULL
);


--
-- Name: organizer_actions_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.organizer_actions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: organizer_actions_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.organizer_actions_id_seq OWNED BY public.organizer_actions.id;


--
-- Name: review_marks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.review_marks (
    event_id text NOT NULL,
    kind text NOT NULL,
    subject text NOT NULL,
    resolution text NOT NULL,
    actor_id text NOT NULL,
    actor_name text NOT NULL,
    at bigint NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    id text NOT NULL,
    staff_id text NOT NULL,
    device_id text,
    station_name text,
    access_hash text NOT NULL,
    access_expires bigint NOT NULL,
    refresh_hash text NOT NULL,
    previous_refresh_hash text,
    refresh_expires bigint NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint NOT NULL,
    revoked_at bigint,
    rotated_at bigint,
    ends_at bigint
);


--
-- Name: staff; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staff (
    id text NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    role text NOT NULL,
    password_hash text NOT NULL,
    disabled_at bigint,
    removed_at bigint
);


--
-- Name: station_reports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.station_reports (
    event_id text NOT NULL,
    device_id text NOT NULL,
    name text NOT NULL,
    version text NOT NULL,
    pending integer NOT NULL,
    printer_state text,
    printer_words text,
    camera_state text,
    camera_words text,
    staff_name text NOT NULL,
    station_time bigint NOT NULL,
    received_at bigint NOT NULL
);


--
-- Name: stations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stations (
    device_id text NOT NULL,
    secret_hash text,
    name text NOT NULL,
    registered_by text NOT NULL,
    registered_at bigint NOT NULL,
    session_id text
);


--
-- Name: undo_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.undo_log (
    id bigint NOT NULL,
    event_id text NOT NULL,
    device_id text NOT NULL,
    guest_id text NOT NULL,
    scanned_at bigint NOT NULL,
    undone_at bigint NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    reason text,
    status text NOT NULL,
    received_at bigint NOT NULL,
    uploaded_by text
);


--
-- Name: undo_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.undo_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.undo_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: walk_ins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.walk_ins (
    event_id text NOT NULL,
    guest_id text NOT NULL,
    device_id text NOT NULL,
    station text NOT NULL,
    operator_name text NOT NULL,
    uploaded_by text NOT NULL,
    created_at bigint NOT NULL,
    received_at bigint NOT NULL,
    requested_access_type_id text NOT NULL,
    access_type_id text NOT NULL,
    review text
);


--
-- Name: organizer_actions id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organizer_actions ALTER COLUMN id SET DEFAULT nextval('public.organizer_actions_id_seq'::regclass);


--
-- Data for Name: access_types; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.access_types (event_id, id, name, reentry, valid_from, valid_until, seq) FROM stdin;
gala	vip	VIP	t	\N	\N	1
gala	general	General	f	\N	\N	2
gala	day-pass	Day pass	f	\N	\N	4
\.


--
-- Data for Name: check_in_attempts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.check_in_attempts (id, event_id, device_id, guest_id, scanned_at, station, operator_name, uploaded_by, source, direction, decision, reason, received_at) FROM stdin;
1	gala	door-1	NOPE	1760029310000	Door 1	Alex	st_4d20c96ba552bf5d	camera	entry	unknown_code	no such guest on this event's roster	1795833828129
\.


--
-- Data for Name: check_ins; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.check_ins (id, event_id, device_id, guest_id, scanned_at, station, operator_name, source, direction, status, decision, reason, prev_by, prev_station, prev_device, prev_at, received_at, undone_at, seq, uploaded_by, flag) FROM stdin;
1	gala	door-1	G1	1760029260000	Door 1	Alex	camera	entry	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	\N	11	st_4d20c96ba552bf5d	\N
2	gala	door-1	G1	1760029270000	Door 1	Alex	camera	entry	duplicate	duplicate	\N	Alex	Door 1	door-1	1760029260000	1795833828129	\N	12	st_4d20c96ba552bf5d	\N
3	gala	door-1	G2	1760029280000	Door 1	Alex	camera	entry	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	\N	13	st_4d20c96ba552bf5d	\N
4	gala	door-1	G3	1760029290000	Door 1	Alex	camera	entry	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	\N	14	st_4d20c96ba552bf5d	\N
5	gala	door-1	G3	1760032800000	Door 1	Alex	camera	exit	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	\N	15	st_4d20c96ba552bf5d	\N
6	gala	door-1	G3	1760032900000	Door 1	Alex	camera	entry	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	\N	16	st_4d20c96ba552bf5d	\N
8	gala	door-1	G2	1760036400000	Door 1	Alex	camera	entry	rejected	already_checked_in	already checked in	Alex	Door 1	door-1	1760029280000	1795833828129	\N	18	st_4d20c96ba552bf5d	\N
7	gala	door-1	G4	1760029300000	Door 1	Alex	camera	exit	accepted	admitted	\N	\N	\N	\N	\N	1795833828129	1760029400000	21	st_4d20c96ba552bf5d	exit_without_entry
9	gala	dashboard:st_933ec162ea94954c	G5	1795833831085	Dashboard	Olga	search	entry	accepted	admitted	\N	\N	\N	\N	\N	1795833831085	\N	22	st_933ec162ea94954c	\N
\.


--
-- Data for Name: event_staff; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.event_staff (event_id, staff_id, assigned_at) FROM stdin;
gala	st_4d20c96ba552bf5d	1795833826028
gala	st_fca902f29908ade9	1795833826028
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events (id, name, starts_at, ends_at, time_zone, window_ms, undo_ms) FROM stdin;
gala	Winter Gala	1760029200000	1760050800000	Europe/Vienna	30000	300000
fair	Book Fair	\N	\N	UTC	30000	300000
\.


--
-- Data for Name: guests; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.guests (event_id, id, code, name, email, company, access_type_id, revoked, walk_in, possible_duplicate_of, deleted, seq, ticket_valid_from, ticket_valid_until, attention, order_code, checked_in_before, merged_into) FROM stdin;
gala	G1	G1	Ada Lovelace	ada@example.org	Analytical	general	f	f	\N	f	5	\N	\N	\N	ORD-1	\N	\N
gala	G2	G2	Charles Babbage	charles@example.org		general	f	f	\N	f	6	\N	\N	\N	ORD-1	\N	\N
gala	G3	G3	Grace Hopper	grace@example.org	Navy	vip	f	f	\N	f	7	1760025600000	1760061600000	Wheelchair access	ORD-2	\N	\N
gala	G4	G4	Alan Turing	alan@example.org		general	f	f	\N	f	8	\N	\N	\N	ORD-3	\N	\N
gala	G5	G5	Émilie du Châtelet	emilie@example.org		general	f	f	\N	f	9	\N	\N	\N		\N	\N
gala	w-1	W-1	Walk In			general	f	t	\N	f	19	\N	\N	\N		\N	\N
gala	w-2	W-2	Ada L.	ADA@example.org		general	f	t	G1	f	20	\N	\N	\N		\N	\N
gala	G6	G6	Hedy Lamarr	hedy@example.org		day-pass	t	f	\N	f	23	\N	\N	\N	ORD-4	\N	\N
\.


--
-- Data for Name: hub_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.hub_migrations (name, checksum) FROM stdin;
0001_hub_schema	b7d7556ea63e9940a2c3f9a34080642893f1aa84898a221fc04b54953b79196a
0002_sync_contract	b6dc88e3dc5a836f49b741242d629067e4fcf2a4896136ab2079dad367f2f53c
0003_check_in_flags	7bf091cd751f6c8c7235e227cfc72417fb945149afc6e468e0ad0166c966309b
0004_event_access	71c1ae9645bb1aa19106c2efd594213cf20842a44c7edc920e522178becaca45
0005_session_end	69faabd70929232ab206237442d2fbc35c5d55d38ad34cab6cae9a356fd5df91
0006_ticket_facts	b0d63bacf229baae320258cd0abcf63a85d81efab393fe4a81a5b7642103da02
0007_station_reports	f1e48872ce16a2c0ba8a30c79b436dec1408138ee4306838c9d13b8efff1a851
0008_organizer_actions	e1210a5c98c377121629b0735c980b41f8856c4087c294f2dc800b74b20e2c08
0009_review_marks	460b16c5690cd5ef08a6122a3319d31b97dc05d82cab29e77f6e89b35b94cf63
0010_guest_lookup	7b685f12066f4c6c9ab475060024cd78dc4f962e24ad3780270619e5753f7c51
\.


--
-- Data for Name: organizer_actions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.organizer_actions (id, event_id, actor_id, actor_name, kind, subject, detail, at) FROM stdin;
1	gala	st_933ec162ea94954c	Olga	manual_check_in	G5	admitted	1795833831085
2	gala	st_933ec162ea94954c	Olga	guest_revoked	G6	refunded	1795833831178
3	gala	st_933ec162ea94954c	Olga	refusal_reviewed	door-1/NOPE/1760029310000	refusal reviewed, kept as it is	1795833831252
\.


--
-- Data for Name: review_marks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.review_marks (event_id, kind, subject, resolution, actor_id, actor_name, at) FROM stdin;
gala	refusal	door-1/NOPE/1760029310000	reviewed	st_933ec162ea94954c	Olga	1795833831252
\.


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sessions (id, staff_id, device_id, station_name, access_hash, access_expires, refresh_hash, previous_refresh_hash, refresh_expires, created_at, last_used_at, revoked_at, rotated_at, ends_at) FROM stdin;
ses_ff097f6b532e2ca6	st_4d20c96ba552bf5d	door-1	Door 1	dc039c40f2a69032fc8b44d51e3814753120d22b2c50595158fd8dc5bb5a5282	1795834728011	d078da591742f410695c149f4f705ba8cff136d69942050cca628091e8055f04	\N	1796438628011	1795833828011	1795833828011	\N	\N	1796438628011
ses_f08c8e00c2e5ad8c	st_fca902f29908ade9	\N	\N	d8b809b8cfd6639e42a0fa993808ab9446fca1a01d4dd590bc5c7285f52d9b3f	1795834729655	ca75a49e4a17eb2ff8f3997a7b0de01a113fc6d719e6ce186ad03a9ba61ad13c	\N	1796438629655	1795833829655	1795833829655	\N	\N	1796438629655
ses_24200e7219baa024	st_933ec162ea94954c	\N	\N	64303ace9a9007a5a45cafda8f191843bf2e6dbea125310eda2431f0c98bd672	1795877031016	8b7f1c0acfd5c5abb7c196f7bd28d398095e1061ee2ba9e26fe2ff0125dedfdf	\N	1795877031016	1795833831016	1795833831016	\N	\N	1795877031016
\.


--
-- Data for Name: staff; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.staff (id, email, name, role, password_hash, disabled_at, removed_at) FROM stdin;
st_933ec162ea94954c	olga@example.org	Olga	organizer	pbkdf2-sha256$600000$LPT8S8sorM0vCKViBcAA9A==$hyo9uc1BKcIo5mVep4YVzlPJrKweyD+jILclgXCWZa4=	\N	\N
st_4d20c96ba552bf5d	alex@example.org	Alex	staff	pbkdf2-sha256$600000$CmkkegB8cPwW2iSfOmkPYQ==$W1skiEaw/KvbOz7cxZYW3x5EuL3hl4LCE9+MlPYVEF4=	\N	\N
st_fca902f29908ade9	sam@example.org	Sam	support	pbkdf2-sha256$600000$MspRSbKt/3YDSdSNfmcTEA==$0P6HlY34aueaotHFI/M6LzOuOZGSrKKLRQL7QJ0AWdE=	\N	\N
\.


--
-- Data for Name: station_reports; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.station_reports (event_id, device_id, name, version, pending, printer_state, printer_words, camera_state, camera_words, staff_name, station_time, received_at) FROM stdin;
gala	door-1	Door 1	1.0	2	ready	Ready	ready	Ready	Alex	1795833829691	1795833829709
\.


--
-- Data for Name: stations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.stations (device_id, secret_hash, name, registered_by, registered_at, session_id) FROM stdin;
door-1	dd47c98429e5e5c737d3598c96c8fd269d63366d356da51f4662d419272f8f78	Door 1	st_4d20c96ba552bf5d	1795833828073	ses_ff097f6b532e2ca6
\.


--
-- Data for Name: undo_log; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.undo_log (id, event_id, device_id, guest_id, scanned_at, undone_at, station, operator_name, reason, status, received_at, uploaded_by) FROM stdin;
1	gala	door-1	G4	1760029300000	1760029400000	Door 1	Alex	scanned the wrong badge	undone	1795833829680	st_4d20c96ba552bf5d
\.


--
-- Data for Name: walk_ins; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.walk_ins (event_id, guest_id, device_id, station, operator_name, uploaded_by, created_at, received_at, requested_access_type_id, access_type_id, review) FROM stdin;
gala	w-1	door-1	Door 1	Alex	st_4d20c96ba552bf5d	1760029320000	1795833828220	general	general	\N
gala	w-2	door-1	Door 1	Alex	st_4d20c96ba552bf5d	1760029330000	1795833828220	backstage	general	unknown access type; recorded under the event's default type general
\.


--
-- Name: change_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.change_seq', 23, true);


--
-- Name: check_in_attempts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.check_in_attempts_id_seq', 1, true);


--
-- Name: check_ins_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.check_ins_id_seq', 9, true);


--
-- Name: organizer_actions_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.organizer_actions_id_seq', 3, true);


--
-- Name: undo_log_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.undo_log_id_seq', 1, true);


--
-- Name: access_types access_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.access_types
    ADD CONSTRAINT access_types_pkey PRIMARY KEY (event_id, id);


--
-- Name: check_in_attempts check_in_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.check_in_attempts
    ADD CONSTRAINT check_in_attempts_pkey PRIMARY KEY (id);


--
-- Name: check_ins check_ins_event_id_device_id_guest_id_scanned_at_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.check_ins
    ADD CONSTRAINT check_ins_event_id_device_id_guest_id_scanned_at_key UNIQUE (event_id, device_id, guest_id, scanned_at);


--
-- Name: check_ins check_ins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.check_ins
    ADD CONSTRAINT check_ins_pkey PRIMARY KEY (id);


--
-- Name: event_staff event_staff_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_staff
    ADD CONSTRAINT event_staff_pkey PRIMARY KEY (event_id, staff_id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: guests guests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.guests
    ADD CONSTRAINT guests_pkey PRIMARY KEY (event_id, id);


--
-- Name: hub_migrations hub_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hub_migrations
    ADD CONSTRAINT hub_migrations_pkey PRIMARY KEY (name);


--
-- Name: organizer_actions organizer_actions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organizer_actions
    ADD CONSTRAINT organizer_actions_pkey PRIMARY KEY (id);


--
-- Name: review_marks review_marks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.review_marks
    ADD CONSTRAINT review_marks_pkey PRIMARY KEY (event_id, kind, subject);


--
-- Name: sessions sessions_access_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_access_hash_key UNIQUE (access_hash);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);


--
-- Name: sessions sessions_refresh_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_refresh_hash_key UNIQUE (refresh_hash);


--
-- Name: staff staff_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staff
    ADD CONSTRAINT staff_email_key UNIQUE (email);


--
-- Name: staff staff_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staff
    ADD CONSTRAINT staff_pkey PRIMARY KEY (id);


--
-- Name: station_reports station_reports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.station_reports
    ADD CONSTRAINT station_reports_pkey PRIMARY KEY (event_id, device_id);


--
-- Name: stations stations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stations
    ADD CONSTRAINT stations_pkey PRIMARY KEY (device_id);


--
-- Name: undo_log undo_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.undo_log
    ADD CONSTRAINT undo_log_pkey PRIMARY KEY (id);


--
-- Name: walk_ins walk_ins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.walk_ins
    ADD CONSTRAINT walk_ins_pkey PRIMARY KEY (event_id, guest_id);


--
-- Name: access_types_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX access_types_seq ON public.access_types USING btree (event_id, seq);


--
-- Name: check_in_attempts_guest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX check_in_attempts_guest ON public.check_in_attempts USING btree (event_id, guest_id);


--
-- Name: check_in_attempts_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX check_in_attempts_key ON public.check_in_attempts USING btree (event_id, device_id, guest_id, scanned_at);


--
-- Name: check_ins_entries; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX check_ins_entries ON public.check_ins USING btree (event_id, scanned_at) WHERE ((status = 'accepted'::text) AND (direction = 'entry'::text) AND (undone_at IS NULL));


--
-- Name: check_ins_guest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX check_ins_guest ON public.check_ins USING btree (event_id, guest_id);


--
-- Name: check_ins_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX check_ins_seq ON public.check_ins USING btree (event_id, seq);


--
-- Name: event_staff_staff; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_staff_staff ON public.event_staff USING btree (staff_id);


--
-- Name: guests_code; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX guests_code ON public.guests USING btree (event_id, code);


--
-- Name: guests_email; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX guests_email ON public.guests USING btree (event_id, email);


--
-- Name: guests_email_lower; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX guests_email_lower ON public.guests USING btree (event_id, lower(email));


--
-- Name: guests_order_code; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX guests_order_code ON public.guests USING btree (event_id, lower(order_code));


--
-- Name: guests_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX guests_seq ON public.guests USING btree (event_id, seq);


--
-- Name: organizer_actions_event; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX organizer_actions_event ON public.organizer_actions USING btree (event_id, id);


--
-- Name: organizer_actions_subject; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX organizer_actions_subject ON public.organizer_actions USING btree (event_id, subject, id);


--
-- Name: sessions_previous_refresh; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_previous_refresh ON public.sessions USING btree (previous_refresh_hash);


--
-- Name: stations_session; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stations_session ON public.stations USING btree (session_id);


--
-- Name: access_types access_types_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.access_types
    ADD CONSTRAINT access_types_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);


--
-- Name: event_staff event_staff_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_staff
    ADD CONSTRAINT event_staff_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);


--
-- Name: event_staff event_staff_staff_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event_staff
    ADD CONSTRAINT event_staff_staff_id_fkey FOREIGN KEY (staff_id) REFERENCES public.staff(id);


--
-- Name: guests guests_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.guests
    ADD CONSTRAINT guests_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);


--
-- Name: review_marks review_marks_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.review_marks
    ADD CONSTRAINT review_marks_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);


--
-- Name: sessions sessions_staff_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_staff_id_fkey FOREIGN KEY (staff_id) REFERENCES public.staff(id);


--
-- Name: station_reports station_reports_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.station_reports
    ADD CONSTRAINT station_reports_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);


--
-- PostgreSQL database dump complete
--

\unrestrict WdZyplCAJQ3zQnZscMXeaSH46Zi9RNafxVqvZywYi3F94tdjwhXjR2EIUw2EJC2


#!/usr/bin/env python3
"""Builds a hub database with the current release (main's checkin-hub) holding every kind of row:
events, access types, a roster with ticket facts, staff and assignments, sessions and a station
registration, accepted/duplicate/refused check-ins, an unknown-code attempt, walk-ins (one flagged),
an undo, a station report and organizer actions from the dashboard (revoke, manual check-in,
review mark). Usage: make-release-database.py CHECKIN_HUB DB_URL WORKDIR; then `sqlite3 FILE .dump` or `pg_dump --no-owner
--no-privileges` of it, with the header of the dumps here."""
import json, re, subprocess, sys, time, urllib.request, urllib.parse, http.cookiejar, socket, os

hub, db, work = sys.argv[1], sys.argv[2], sys.argv[3]
def cli(*args, stdin=None):
    r = subprocess.run([hub, *args, "--db", db], input=stdin, capture_output=True, text=True)
    if r.returncode != 0: raise SystemExit(f"{args}: {r.stderr}")
    return r.stdout.strip()

cli("event", "create", "--id", "gala", "--name", "Winter Gala", "--starts", "2025-10-09T17:00:00Z", "--ends", "2025-10-09T23:00:00Z",
    "--time-zone", "Europe/Vienna", "--window-seconds", "30", "--undo-seconds", "300")
cli("event", "create", "--id", "fair", "--name", "Book Fair")
cli("access-type", "add", "--event", "gala", "--name", "VIP", "--reentry")
roster = os.path.join(work, "roster.csv")
open(roster, "w").write(
    "code,name,email,company,ticket type,order code,valid from,valid until,attention\n"
    "G1,Ada Lovelace,ada@example.org,Analytical,General,ORD-1,,,\n"
    "G2,Charles Babbage,charles@example.org,,General,ORD-1,,,\n"
    "G3,Grace Hopper,grace@example.org,Navy,VIP,ORD-2,2025-10-09T16:00:00Z,2025-10-10T02:00:00Z,Wheelchair access\n"
    "G4,Alan Turing,alan@example.org,,General,ORD-3,,,\n"
    "G5,Émilie du Châtelet,emilie@example.org,,General,,,,\n"
    "G6,Hedy Lamarr,hedy@example.org,,Day pass,ORD-4,,,\n")
cli("import", "--event", "gala", roster)
cli("staff", "add", "--email", "olga@example.org", "--name", "Olga", "--role", "organizer", stdin="organizer-pass\n")
cli("staff", "add", "--email", "alex@example.org", "--name", "Alex", "--role", "staff", stdin="door-pass-1\n")
cli("staff", "add", "--email", "sam@example.org", "--name", "Sam", "--role", "support", stdin="support-pass\n")
cli("staff", "assign", "--event", "gala", "--email", "alex@example.org", "--email", "sam@example.org")

s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
server = subprocess.Popen([hub, "serve", "--db", db, "--port", str(port), "--log-level", "warning"], stdout=subprocess.PIPE, text=True)
try:
    assert "listening" in server.stdout.readline()
    base = f"http://127.0.0.1:{port}"
    def api(method, path, body=None, token=None):
        req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
        req.add_header("Content-Type", "application/json")
        if token: req.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(req) as r: return json.loads(r.read() or b"null")
    alex = api("POST", "/v1/auth/sign-in", {"email": "alex@example.org", "password": "door-pass-1"})["accessToken"]
    api("POST", "/v1/stations", {"name": "Door 1", "deviceID": "door-1", "deviceSecret": "secret-of-door-1"}, alex)
    t = 1760029200000  # 2025-10-09T17:00:00Z
    def key(guest, ms): return {"deviceID": "door-1", "guestID": guest, "scannedAt": t + ms}
    def upload(guest, ms, direction="entry", source="camera"):
        return {"key": key(guest, ms), "station": "Door 1", "operatorName": "Alex", "source": source, "direction": direction}
    api("POST", "/v1/events/gala/check-ins", {"items": [
        upload("G1", 60_000), upload("G1", 70_000), upload("G2", 80_000), upload("G3", 90_000), upload("G3", 3_600_000, "exit"),
        upload("G3", 3_700_000), upload("G4", 100_000, "exit"), upload("NOPE", 110_000), upload("G2", 7_200_000)]}, alex)
    api("POST", "/v1/events/gala/walk-ins", {"items": [
        {"guestID": "w-1", "code": "W-1", "name": "Walk In", "email": "", "company": "", "accessTypeID": "general",
         "deviceID": "door-1", "station": "Door 1", "operatorName": "Alex", "createdAt": t + 120_000},
        {"guestID": "w-2", "code": "W-2", "name": "Ada L.", "email": "ADA@example.org", "company": "", "accessTypeID": "backstage",
         "deviceID": "door-1", "station": "Door 1", "operatorName": "Alex", "createdAt": t + 130_000}]}, alex)
    sam = api("POST", "/v1/auth/sign-in", {"email": "sam@example.org", "password": "support-pass"})["accessToken"]
    api("POST", "/v1/events/gala/undos", {"items": [{"key": key("G4", 100_000), "undoneAt": t + 200_000, "station": "Door 1",
                                                     "operatorName": "Alex", "reason": "scanned the wrong badge"}]}, alex)
    api("PUT", "/v1/events/gala/stations/door-1", {"name": "Door 1", "version": "1.0", "pending": 2,
        "printer": {"state": "ready", "words": "Ready"}, "camera": {"state": "ready", "words": "Ready"}, "staffName": "Alex",
        "stationTime": int(time.time() * 1000)}, alex)
    # The dashboard, as a browser: sign-in form with its token, then forms with theirs.
    jar = http.cookiejar.CookieJar()
    web = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    def page(path): return web.open(base + path).read().decode()
    def token(html): return re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    def post(path, fields): return web.open(urllib.request.Request(base + path, data=urllib.parse.urlencode(fields).encode())).read()
    post("/signin", {"email": "olga@example.org", "password": "organizer-pass", "csrf": token(page("/signin"))})
    guest = page("/events/gala/guests/G5")
    post("/events/gala/guests/G5/checkin", {"csrf": token(guest)})
    post("/events/gala/guests/G6/revoke", {"csrf": token(page("/events/gala/guests/G6")), "reason": "refunded"})
    review = page("/events/gala/review")
    post("/events/gala/review/mark", {"csrf": token(review), "kind": "refusal", "subject": f"door-1/NOPE/{t + 110_000}"})
finally:
    server.terminate(); server.wait()

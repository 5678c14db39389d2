#!/usr/bin/env bash
# A real pretix for tests and benchmarks, on loopback, never touching anything outside the
# project's .build/ and the directory it is given.
#
#   Kiosk/pretix-server.sh install                  pretix and gunicorn from PyPI, migrated database
#   Kiosk/pretix-server.sh installed                exits 0 when `install` has nothing to do
#   Kiosk/pretix-server.sh start DIR [--orders N]   a fresh seeded server in DIR (see below)
#   Kiosk/pretix-server.sh stop DIR                 stop the server started in DIR
#   Kiosk/pretix-server.sh resume DIR               serve DIR's database again, on the same port
#   Kiosk/pretix-server.sh revoke-device DIR ID     revoke device ID, as an organizer does in pretix
#
# `install` makes a virtual environment under .build/pretix with pretix $PRETIX_VERSION and
# gunicorn (Debian's python3-venv; a fresh Debian refuses global pip installs) and migrates an
# empty SQLite database once, kept as .build/pretix-empty-$PRETIX_VERSION.sqlite3. It does nothing
# when both are there, and is safe to run from several processes at once (a lock).
#
# `start` installs if needed, copies the migrated database into DIR, seeds it with
# Kiosk/pretix-seed.py (`--orders N` adds event "big" with N paid orders), and serves it with one
# gunicorn worker on a free loopback port: SQLite and more than one worker turn simultaneous
# scans of one ticket into "database is locked". No Celery, no Redis: pretix then runs its tasks
# inline. Only the API is used (no static files are built). It prints, on stdout:
#   PRETIX_URL=http://127.0.0.1:PORT
#   PRETIX_FACTS=DIR/facts.json        (what the seed made: Kiosk/pretix-seed.py)
# Logs: DIR/seed.log, DIR/gunicorn.log (with every request), DIR/data/logs/.
#
# `stop` ends the server and keeps DIR (the caller removes it); `resume` brings the same pretix
# back, its data and port unchanged (a server that was down for a while).
set -euo pipefail
# The server started below must not inherit the caller's descriptors (a test runner waits for
# its pipes to close).
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
done
cd "$(dirname "$0")/.."

PRETIX_VERSION=2026.8.0
GUNICORN_VERSION=27.0.1
root="$PWD"
venv="$root/.build/pretix"
migrated="$root/.build/pretix-empty-$PRETIX_VERSION.sqlite3"
usage="usage: pretix-server.sh install | installed | start DIR [--orders N] | stop DIR | resume DIR | revoke-device DIR ID"

fail() { echo "pretix-server: $*" >&2; exit 1; }

installed() {
    [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pretix"), m.version("gunicorn"))' 2>/dev/null)" \
        = "$PRETIX_VERSION $GUNICORN_VERSION" ]
}

write_config() {  # DIR PORT [DATABASE]
    mkdir -p "$1/data"
    # One Django secret per server directory, the same for the seed and the server.
    [ -s "$1/django-secret" ] || python3 -c 'import secrets; print(secrets.token_urlsafe(40))' > "$1/django-secret"
    cat > "$1/pretix.cfg" <<CONF
[pretix]
instance_name=pretix test server
url=http://127.0.0.1:$2
datadir=$1/data
ecb_rates=off
[database]
backend=sqlite3
name=${3:-$1/data/db.sqlite3}
[django]
debug=off
secret=$(cat "$1/django-secret")
[mail]
host=127.0.0.1
port=9
CONF
}

install() {
    mkdir -p "$root/.build"
    exec 9>"$root/.build/pretix.lock"
    flock 9
    if ! installed; then
        echo "Installing pretix $PRETIX_VERSION and gunicorn $GUNICORN_VERSION into $venv" >&2
        local python=/usr/bin/python3
        [ -x "$python" ] || python=python3
        rm -rf "$venv"
        "$python" -m venv "$venv" || fail "cannot make a virtual environment: apt-get install python3-venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "pretix==$PRETIX_VERSION" "gunicorn==$GUNICORN_VERSION" >&2 \
            || fail "pip could not install pretix $PRETIX_VERSION (is PyPI reachable?)"
    fi
    if [ ! -s "$migrated" ]; then
        echo "Migrating an empty pretix database (about 2 minutes, once)" >&2
        local work
        work="$(mktemp -d "$root/.build/pretix-migrate.XXXXXX")"
        write_config "$work" 9 "$work/db.sqlite3"
        PRETIX_CONFIG_FILE="$work/pretix.cfg" "$venv/bin/python" -m pretix migrate --noinput >"$work/migrate.log" 2>&1 \
            || { tail -n 30 "$work/migrate.log" >&2; fail "pretix migrate failed"; }
        mv "$work/db.sqlite3" "$migrated"
        rm -rf "$work"
    fi
    exec 9>&-
}

# Whether any process of session SID runs (a zombie, exited but not yet reaped, does not).
running() { ps -s "$1" -o stat= 2>/dev/null | grep -qv '^Z'; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Waits until the server answers the seeded organizer with the team token (the database is
# served, not only the port open), or its process is gone. Prints nothing; fails on time-out.
wait_ready() {  # DIR PID PORT
    "$venv/bin/python" - "$@" <<'PY'
import json, os, sys, time, urllib.request
directory, pid, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
facts = json.load(open(os.path.join(directory, "facts.json")))
request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/organizers/{facts['organizer']['slug']}/",
                                 headers={"Authorization": "Token " + facts["team_token"]})
deadline = time.monotonic() + 120
def alive():
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
while time.monotonic() < deadline:
    if not alive():
        sys.exit(2)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            if answer.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}

start() {  # DIR [--orders N]
    local dir=$1; shift
    local seed_arguments=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --orders) seed_arguments+=(--orders "${2:?--orders needs a number}"); shift 2 ;;
            *) fail "unknown option $1 ($usage)" ;;
        esac
    done
    install
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    [ ! -e "$dir/facts.json" ] || fail "$dir holds a seeded server already (resume it, or use a new directory)"
    write_config "$dir" 9
    cp "$migrated" "$dir/data/db.sqlite3"
    PRETIX_CONFIG_FILE="$dir/pretix.cfg" "$venv/bin/python" "$root/Kiosk/pretix-seed.py" "$dir/facts.json.new" "${seed_arguments[@]}" \
        >"$dir/seed.log" 2>&1 || { tail -n 30 "$dir/seed.log" >&2; fail "seeding failed (log: $dir/seed.log)"; }
    mv "$dir/facts.json.new" "$dir/facts.json"
    serve "$dir" ""
}

resume() {  # DIR
    local dir=$1
    [ -e "$dir/facts.json" ] && [ -e "$dir/port" ] || fail "no seeded server in $dir (start one first)"
    [ -x "$venv/bin/gunicorn" ] || fail "pretix is not installed (pretix-server.sh install)"
    serve "$(cd "$dir" && pwd)" "$(cat "$dir/port")"
}

serve() {  # DIR PORT (empty: a free one)
    local dir=$1 fixed=$2 attempt port pid status
    [ ! -e "$dir/gunicorn.pid" ] || fail "a server runs in $dir already (stop it first)"
    # A port another process took between the probe and gunicorn's bind: try another.
    for attempt in 1 2 3; do
        port="${fixed:-$(free_port)}"
        write_config "$dir" "$port"
        echo "$port" > "$dir/port"
        PRETIX_CONFIG_FILE="$dir/pretix.cfg" setsid "$venv/bin/gunicorn" pretix.wsgi:application \
            --bind "127.0.0.1:$port" --workers 1 --timeout 120 --graceful-timeout 5 --no-control-socket \
            --access-logfile - </dev/null >>"$dir/gunicorn.log" 2>&1 &
        pid=$!
        echo "$pid" > "$dir/gunicorn.pid"
        status=0
        wait_ready "$dir" "$pid" "$port" || status=$?
        if [ "$status" -eq 0 ]; then
            echo "PRETIX_URL=http://127.0.0.1:$port"
            echo "PRETIX_FACTS=$dir/facts.json"
            return 0
        fi
        stop "$dir"
        [ -z "$fixed" ] && [ "$status" -eq 2 ] && grep -q "Connection in use" "$dir/gunicorn.log" || break
    done
    tail -n 30 "$dir/gunicorn.log" >&2
    fail "pretix did not answer on port $port (log: $dir/gunicorn.log)"
}

stop() {  # DIR
    local dir=$1 pid attempt
    [ -e "$dir/gunicorn.pid" ] || return 0
    pid="$(cat "$dir/gunicorn.pid")"
    # gunicorn leads its own session (setsid): QUIT has the master stop its worker at once; what
    # still runs after 5 s is killed. Done when no process of the session runs any more.
    kill -QUIT "$pid" 2>/dev/null || true
    for attempt in $(seq 1 100); do
        running "$pid" || break
        [ "$attempt" -eq 50 ] && kill -KILL -- "-$pid" 2>/dev/null
        sleep 0.1
    done
    running "$pid" && fail "the server in $dir (session $pid) did not stop"
    rm -f "$dir/gunicorn.pid"
}

revoke_device() {  # DIR ID
    [ -e "$1/pretix.cfg" ] || fail "no pretix server in $1"
    PRETIX_CONFIG_FILE="$1/pretix.cfg" "$venv/bin/python" - "$2" >>"$1/seed.log" 2>&1 <<'PY' || fail "could not revoke device $2 (log: $1/seed.log)"
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretix.settings")
import django
django.setup()
from django_scopes import scopes_disabled
from pretix.base.models import Device
with scopes_disabled():
    device = Device.objects.get(device_id=int(sys.argv[1]))
    device.revoked = True
    device.save(update_fields=["revoked"])
    device.log_action("pretix.device.revoked")
PY
}

command=${1:-}
case "$command" in
    install) install ;;
    installed) installed && [ -s "$migrated" ] ;;
    start) [ $# -ge 2 ] || fail "$usage"; shift; start "$@" ;;
    stop) [ $# -eq 2 ] || fail "$usage"; stop "$2" ;;
    resume) [ $# -eq 2 ] || fail "$usage"; resume "$2" ;;
    revoke-device) [ $# -eq 3 ] || fail "$usage"; revoke_device "$2" "$3" ;;
    *) fail "$usage" ;;
esac

#!/usr/bin/env bash
# Fuzzes a live `checkin-hub serve` against Sources/HubAPI/openapi.yaml with schemathesis.
#
# Starts its own hub on loopback with a SQLite database in a temporary directory (an event "ev"
# with a small roster, an organizer signed in: its token goes into every request, so uploads
# reach the store rather than stopping at the device check), runs schemathesis with the
# not_a_server_error check, bounded examples and a time limit, and fails on any 5xx, on a hub
# that died, or on one that no longer answers /v1/health afterwards.
#
# schemathesis comes from PyPI into a virtual environment under .build/ (a fresh Debian refuses
# global pip installs); the venv needs Debian's python3-venv (Kiosk/packages-test.txt).
# Environment: FUZZ_MAX_TIME (seconds, default 120), FUZZ_MAX_EXAMPLES (per operation, default 25).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
venv="$PWD/.build/schemathesis"
spec="$PWD/Sources/HubAPI/openapi.yaml"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if [ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
    echo "Installing schemathesis $SCHEMATHESIS_VERSION into $venv" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

hub="$(swift build --show-bin-path)/checkin-hub"
[ -x "$hub" ] || { echo "fuzz-hub: $hub is missing; run swift build first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/hub-fuzz.XXXXXX")"
hub_pid=""
cleanup() {
    if [ -n "$hub_pid" ] && kill -0 "$hub_pid" 2>/dev/null; then
        kill "$hub_pid"
        wait "$hub_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

db="sqlite:$work/hub.sqlite"
{
    echo "name,email,company,code,ticket type"
    for i in $(seq 1 20); do echo "Guest $i,g$i@example.com,,G$i,General"; done
} > "$work/roster.csv"
"$hub" event create --db "$db" --name "Fuzz" --id ev --json >/dev/null
"$hub" import --db "$db" --event ev "$work/roster.csv" --json >/dev/null
password="fuzz-organizer-$RANDOM$RANDOM"
echo "$password" | "$hub" staff add --db "$db" --email fuzz@example.org --name Fuzz --role organizer --json >/dev/null

"$hub" serve --db "$db" --host 127.0.0.1 --port 0 --rate-limit 0 --log-level error >"$work/hub.out" 2>"$work/hub.err" &
hub_pid=$!
port=""
for _ in $(seq 1 600); do
    port="$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/hub.out" | head -n 1)"
    [ -n "$port" ] && break
    kill -0 "$hub_pid" 2>/dev/null || { echo "fuzz-hub: checkin-hub serve exited:" >&2; cat "$work/hub.err" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "fuzz-hub: checkin-hub serve did not listen within 60 s" >&2; exit 1; }
base="http://127.0.0.1:$port"

# GET/POST helper for the checks below: prints the status code, or 000 when no answer came.
request() {
    "$venv/bin/python" - "$@" <<'PY'
import json, sys, urllib.request, urllib.error
url, body = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
req = urllib.request.Request(url, data=body.encode() if body else None, headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(req, timeout=30) as answer:
        print(answer.status, answer.read().decode())
except urllib.error.HTTPError as error:
    print(error.code, error.read().decode())
except Exception:
    print("000")
PY
}
token="$(request "$base/v1/auth/sign-in" "{\"email\":\"fuzz@example.org\",\"password\":\"$password\"}" \
    | "$venv/bin/python" -c 'import json, sys; status, _, body = sys.stdin.read().partition(" "); print(json.loads(body)["accessToken"])')"

# The event exists, so uploads reach the store instead of ending at 404.
cat > "$work/schemathesis.toml" <<'TOML'
[parameters]
"path.event" = "ev"
TOML

echo "Fuzzing $base for at most ${FUZZ_MAX_TIME:-120} s" >&2
status=0
# signOut is left out: it would end the session whose token every other request carries.
# Run from the temporary directory: schemathesis keeps a .schemathesis/ folder in its working directory.
# One worker: with two, hypothesis describes strategies from two threads at once and Debian's
# Python 3.11 can fail its own ast.parse ("AST constructor recursion depth mismatch", a CPython
# race), which failed a CI run with 0 server errors.
(cd "$work" && "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$spec" \
    --url "$base" \
    -H "Authorization: Bearer $token" \
    --checks not_a_server_error \
    --exclude-operation-id signOut \
    --phases examples,coverage,fuzzing \
    --max-examples "${FUZZ_MAX_EXAMPLES:-25}" \
    --max-time "${FUZZ_MAX_TIME:-120}" \
    --workers 1 \
    --request-timeout 30 \
    --generation-database none \
    --no-color) \
    || status=$?

if ! kill -0 "$hub_pid" 2>/dev/null; then
    echo "fuzz-hub: the hub died during the fuzz run:" >&2
    tail -n 50 "$work/hub.err" >&2
    exit 1
fi
health="$(request "$base/v1/health" | cut -d' ' -f1)"
if [ "$health" != "200" ]; then
    echo "fuzz-hub: /v1/health answered $health after the fuzz run" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "fuzz-hub: schemathesis failed (exit $status): server errors or crashes above" >&2
    exit "$status"
fi
echo "fuzz-hub: 0 server errors, hub alive" >&2

#!/usr/bin/env bash
# Runs the built test suite with a time limit. When the limit is reached, the run fails and
# names every test that started and never finished, so a hang is a clear failure, not a CI timeout.
# Usage: bash Kiosk/run-tests.sh [minutes] [swift test arguments…]
set -uo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-40}"; shift || true
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# New password hashes at the old minimum (210,000 PBKDF2 rounds instead of 600,000): the suite
# signs in hundreds of times, and at the production figure that alone starved a 2-core CI
# machine. One test (aPasswordHashedWithFewerRoundsIsUpgradedAtTheNextSignIn) runs at 600,000.
export CHECKIN_HUB_PASSWORD_ROUNDS="${CHECKIN_HUB_PASSWORD_ROUNDS:-210000}"

# Stores created by the tests get their storage key files (the embedded default: one per store
# under $XDG_CONFIG_HOME/checkin-kiosk/keys) in a folder of this run, not in the user's own.
keys="$(mktemp -d)"
export XDG_CONFIG_HOME="$keys"
trap 'rm -f "$log"; rm -rf "$keys"' EXIT

# The output goes to a file and is followed from there: a process a test leaves behind can
# hold that file open without holding this script's (or CI's) output pipe.
timeout --kill-after=30s "${minutes}m" stdbuf -oL -eL swift test --skip-build "$@" > "$log" 2>&1 &
tests=$!
tail -n +1 -f --pid="$tests" "$log"
wait "$tests"
status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "The tests did not finish within ${minutes} minutes. Started and never finished:" >&2
    python3 - "$log" >&2 <<'PY'
import re, sys
started, finished = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if m := re.search(r"◇ Test (.+?) started\.", line):
        started.append(m.group(1))
    elif m := re.search(r"[✔✘] Test (.+?)(?: with \d+ test cases?)? (?:passed|failed)", line):
        finished.add(m.group(1))
for name in dict.fromkeys(started):
    if name not in finished and name != "run" and not name.startswith("case "):
        print("  " + name)
PY
fi
exit "$status"

#!/usr/bin/env bash
# Sets up a fresh Debian machine and runs the station on its embedded defaults: a local
# database in ./.kiosk-data, the demo roster, no hub, badges as PDF files.
set -euo pipefail
cd "$(dirname "$0")/.."

source Kiosk/install-packages.sh Kiosk/packages-run.txt

swift build -c release --product kiosk
kiosk=".build/release/kiosk"
data="${KIOSK_DATA_DIR:-$PWD/.kiosk-data}"

"$kiosk" migrate --data-dir "$data"
"$kiosk" import Kiosk/demo-roster.csv --data-dir "$data"
echo "Checking in the demo guest DEMO-0001:"
"$kiosk" checkin DEMO-0001 --data-dir "$data" || true
"$kiosk" status --data-dir "$data"

# The real station: the full-screen console on this terminal (F1 for help, F10 to quit).
# Without a terminal (CI, a pipe) the console cannot start: show the headless mode on one
# more code instead, and say how to start the console.
echo "To print badges: add a CUPS queue (sudo Kiosk/add-badge-printer.sh …) and start with --printer QUEUE." >&2
if [ -t 0 ] && [ -t 1 ]; then
    echo "Starting the station (F1 help, F10 quit)…"
    exec "$kiosk" run --data-dir "$data"
else
    echo "No terminal here, so no console: running the station headless on one code (DEMO-0002)." >&2
    echo DEMO-0002 | "$kiosk" run --headless --data-dir "$data"
    echo "Start the console from a terminal with: $kiosk run --data-dir $data" >&2
fi

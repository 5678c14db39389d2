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

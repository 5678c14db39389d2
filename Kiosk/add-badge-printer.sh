#!/usr/bin/env bash
# Adds a CUPS queue for the station's badge printer, with the media the badge template uses.
#
#   Kiosk/add-badge-printer.sh everywhere QUEUE ipp://printer.local/ipp/print   driverless (IPP Everywhere)
#   Kiosk/add-badge-printer.sh brother-ql QUEUE usb://Brother/QL-820NWB MODEL   Brother QL (printer-driver-ptouch)
#   Kiosk/add-badge-printer.sh dymo QUEUE usb://DYMO/LabelWriter%20450 MODEL    DYMO LabelWriter (printer-driver-dymo)
#   Kiosk/add-badge-printer.sh zebra QUEUE socket://192.168.1.50:9100          Zebra ZPL (CUPS's own driver)
#
# MODEL is the PPD's file name (see `lpinfo -m | grep -i ql`), e.g. "ptouch-driver:ql-820nwb" style
# names differ by driver version: the script lists the candidates when MODEL is missing.
# Media: 4x3 in (w288h216) for Zebra, DYMO 30857 badge labels (w167h288), Brother 62 mm
# continuous cut at 100 mm (62x100mm). Set the same size in the badge template
# (<data-dir>/badges/default.json: width_mm, height_mm, media). Run as root (lpadmin).
set -euo pipefail

kind=${1:?usage: add-badge-printer.sh everywhere|brother-ql|dymo|zebra QUEUE DEVICE-URI [MODEL]}
queue=${2:?queue name missing}
uri=${3:?device URI missing (see lpinfo -v)}
model=${4:-}

pick_model() {  # PATTERN
    if [ -z "$model" ]; then
        echo "Give the PPD model as the 4th argument; candidates:" >&2
        lpinfo -m | grep -iE "$1" | head -20 >&2
        exit 64
    fi
}

case "$kind" in
    everywhere)
        lpadmin -p "$queue" -E -v "$uri" -m everywhere
        media=$(lpoptions -p "$queue" -l | sed -n 's/^PageSize[^:]*: //p')
        if [ -z "$media" ]; then
            echo "The printer did not answer: the queue has no media. Check it is on, then run this again." >&2
            exit 69
        fi ;;
    brother-ql)
        pick_model "ql-?[0-9]"
        lpadmin -p "$queue" -E -v "$uri" -m "$model" -o PageSize=62x100mm ;;
    dymo)
        pick_model "dymo|labelwriter"
        lpadmin -p "$queue" -E -v "$uri" -m "$model" -o PageSize=w167h288 ;;
    zebra)
        lpadmin -p "$queue" -E -v "$uri" -m drv:///sample.drv/zebra.ppd -o PageSize=w288h216 ;;
    *)
        echo "unknown printer kind $kind (everywhere, brother-ql, dymo, zebra)" >&2
        exit 64 ;;
esac
cupsaccept "$queue"
cupsenable "$queue"
# Badges carry guest names: CUPS keeps a printed job's document a day by default
# (PreserveJobFiles 86400). Delete it once printed.
cupsctl PreserveJobFiles=No || echo "could not set PreserveJobFiles=No; set it in /etc/cups/cupsd.conf" >&2
# cupsctl restarts the scheduler: wait for it before asking for the queue's media.
for _ in $(seq 1 50); do lpstat -r 2>/dev/null | grep -q "is running" && lpoptions -p "$queue" >/dev/null 2>&1 && break; sleep 0.2; done
echo "Queue $queue ready. Media:"
lpoptions -p "$queue" -l | grep -E '^(PageSize|media)' || true
echo "Test it: kiosk printers; kiosk badge CODE --printer $queue"

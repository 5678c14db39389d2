#!/usr/bin/env bash
# A private CUPS for tests and benchmarks: never touches the system's cupsd.
#
#   Kiosk/cups-test-rig.sh start DIR [QUEUE...]   start dbus, one ippeveprinter per queue, cupsd
#   Kiosk/cups-test-rig.sh stop DIR               stop everything started in DIR
#   Kiosk/cups-test-rig.sh restart-printer DIR QUEUE   start QUEUE's simulated printer again, on
#                                                 its port (after it was killed: a printer back on)
#
# `start` prints `CUPS_SERVER=127.0.0.1:PORT` on stdout. Each queue prints to an IPP Everywhere
# simulator (ippeveprinter from cups-ipp-utils) that advertises the badge media of
# DIR/badge.ppd and hands every job to DIR/print-job.sh, which copies the document to
# DIR/out/QUEUE/<job title>.pdf and adds the title as a line to DIR/out/QUEUE.printed. Faults are
# simulated per queue by DIR/mode/QUEUE:
#   ok (default) · hang (the printer never finishes) · fail (the printer aborts the job) ·
#   media-empty (reports out of labels until the mode file changes)
# Queue state faults use the usual commands (cupsdisable, cupsreject) with CUPS_SERVER set;
# killing a queue's printer: kill "$(cat DIR/printer-QUEUE.pid)".
set -euo pipefail
# The daemons started below must not inherit the caller's descriptors (a test runner waits for
# its pipes and process-exit notifications to close).
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
done

command=${1:?usage: cups-test-rig.sh start|stop DIR [QUEUE...]}
dir=${2:?usage: cups-test-rig.sh start|stop DIR [QUEUE...]}
shift 2 || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

wait_port() {
    for _ in $(seq 1 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

stop_all() {
    for pidfile in "$dir"/*.pid; do
        [ -e "$pidfile" ] || continue
        # KILL: ippeveprinter ignores TERM, and daemons started by a test runner may inherit a
        # signal mask that blocks it. All their state is in DIR.
        kill -KILL "$(cat "$pidfile")" 2>/dev/null || true
        rm -f "$pidfile"
    done
}

start_printer() {  # QUEUE PORT
    KIOSK_RIG_QUEUE=$1 ippeveprinter -p "$2" -n localhost -r off -P "$dir/badge.ppd" \
        -c "$dir/print-job.sh" -d "$dir/printers" "kiosk-$1" >"$dir/log/printer-$1.log" 2>&1 &
    echo $! > "$dir/printer-$1.pid"
    echo "$2" > "$dir/printer-$1.port"
    wait_port "$2"
    # Listening is not yet ready: a printer that cupsd reached before it answered its attributes
    # once had every held job cancelled ("cannot print with supplied options"). Ready is when it
    # answers Get-Printer-Attributes with its media.
    for _ in $(seq 1 100); do
        ipptool -tv -T 2 "ipp://127.0.0.1:$2/ipp/print" get-printer-attributes.test 2>/dev/null \
            | grep -q 'media-supported' && return 0
        sleep 0.1
    done
    echo "the printer of $1 on port $2 never answered its attributes" >&2
    return 1
}

if [ "$command" = stop ]; then
    stop_all
    exit 0
fi

if [ "$command" = restart-printer ]; then
    queue=${1:?usage: cups-test-rig.sh restart-printer DIR QUEUE}
    export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/dbus.socket"
    # Same port, same device URI: to cupsd this is the printer coming back.
    start_printer "$queue" "$(cat "$dir/printer-$queue.port")" 2>/dev/null
    exit 0
fi

[ "$command" = start ] || { echo "unknown command $command" >&2; exit 64; }
[ $# -gt 0 ] || set -- badge
mkdir -p "$dir"/{cups,spool,tmp,cache,state,log,out,mode,printers}
dir=$(cd "$dir" && pwd)
chmod 0755 "$dir"

# A private D-Bus system bus: Debian's ippeveprinter refuses to start without one.
cat > "$dir/dbus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/dbus.socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$dir/dbus.conf" --nofork --nopidfile >"$dir/log/dbus.log" 2>&1 &
echo $! > "$dir/dbus.pid"
for _ in $(seq 1 50); do [ -S "$dir/dbus.socket" ] && break; sleep 0.1; done
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/dbus.socket"

# The media a badge printer advertises: 4x3 in (Zebra/DYMO name w288h216), 62x100 mm
# (Brother QL), DYMO 30857 (w167h288) and A6 for previews.
cat > "$dir/badge.ppd" <<'PPD'
*PPD-Adobe: "4.3"
*FormatVersion: "4.3"
*FileVersion: "1.0"
*LanguageVersion: English
*LanguageEncoding: ISOLatin1
*PCFileName: "BADGE.PPD"
*Manufacturer: "Kiosk"
*Product: "(Badge Test Printer)"
*ModelName: "Kiosk Badge Test Printer"
*ShortNickName: "Kiosk Badge Test Printer"
*NickName: "Kiosk Badge Test Printer"
*PSVersion: "(3010.000) 0"
*LanguageLevel: "3"
*ColorDevice: True
*DefaultColorSpace: RGB
*FileSystem: False
*Throughput: "10"
*TTRasterizer: Type42
*OpenUI *PageSize/Media Size: PickOne
*OrderDependency: 10 AnySetup *PageSize
*DefaultPageSize: w288h216
*PageSize w288h216/4 x 3 in: "<</PageSize[288 216]>>setpagedevice"
*PageSize w176h283/62 x 100 mm: "<</PageSize[176 283]>>setpagedevice"
*PageSize w167h288/DYMO 30857 Badge: "<</PageSize[167 288]>>setpagedevice"
*PageSize A6/A6: "<</PageSize[298 420]>>setpagedevice"
*CloseUI: *PageSize
*OpenUI *PageRegion: PickOne
*OrderDependency: 10 AnySetup *PageRegion
*DefaultPageRegion: w288h216
*PageRegion w288h216/4 x 3 in: "<</PageSize[288 216]>>setpagedevice"
*PageRegion w176h283/62 x 100 mm: "<</PageSize[176 283]>>setpagedevice"
*PageRegion w167h288/DYMO 30857 Badge: "<</PageSize[167 288]>>setpagedevice"
*PageRegion A6/A6: "<</PageSize[298 420]>>setpagedevice"
*CloseUI: *PageRegion
*DefaultImageableArea: w288h216
*ImageableArea w288h216: "0 0 288 216"
*ImageableArea w176h283: "0 0 176 283"
*ImageableArea w167h288: "0 0 167 288"
*ImageableArea A6: "0 0 298 420"
*DefaultPaperDimension: w288h216
*PaperDimension w288h216: "288 216"
*PaperDimension w176h283: "176 283"
*PaperDimension w167h288: "167 288"
*PaperDimension A6: "298 420"
PPD

# What the simulated printer does with each job (see the modes above).
cat > "$dir/print-job.sh" <<'JOB'
#!/usr/bin/env bash
# Arguments: the spool file. Environment: IPP_JOB_NAME, IPP_MEDIA_COL, … (ippeveprinter).
rig=$(dirname "$0"); queue=$KIOSK_RIG_QUEUE
mode=$(cat "$rig/mode/$queue" 2>/dev/null || echo ok)
case "$mode" in
    hang) sleep 100000 ;;
    fail) echo "ERROR: simulated printer failure" >&2; exit 1 ;;
    media-empty)
        echo "STATE: +media-empty-error,media-needed-error" >&2
        while [ "$(cat "$rig/mode/$queue" 2>/dev/null)" = media-empty ]; do sleep 0.2; done
        echo "STATE: -media-empty-error,media-needed-error" >&2 ;;
esac
name=${IPP_JOB_NAME:-job-$IPP_JOB_ID}
mkdir -p "$rig/out/$queue"
cp "$1" "$rig/out/$queue/${name//\//_}.pdf.tmp"
printf '%s\n' "${IPP_MEDIA_COL:-}" > "$rig/out/$queue/${name//\//_}.media"
mv "$rig/out/$queue/${name//\//_}.pdf.tmp" "$rig/out/$queue/${name//\//_}.pdf"
# One line per document that came out: a badge printed twice under one title shows twice here.
printf '%s\n' "$name" >> "$rig/out/$queue.printed"
JOB
chmod +x "$dir/print-job.sh"

cupsport=$(free_port)
user_lines=""
[ "$(id -u)" -eq 0 ] && user_lines=$'User lp\nGroup lp'
cat > "$dir/cups/cups-files.conf" <<CONF
ServerRoot $dir/cups
RequestRoot $dir/spool
TempDir $dir/tmp
CacheDir $dir/cache
StateDir $dir/state
AccessLog $dir/log/access_log
ErrorLog $dir/log/error_log
PageLog $dir/log/page_log
Printcap $dir/printcap
ServerKeychain $dir/cups/ssl
FileDevice Yes
$user_lines
CONF
cat > "$dir/cups/cupsd.conf" <<CONF
Listen 127.0.0.1:$cupsport
Listen $dir/cups.sock
Browsing No
WebInterface No
LogLevel warn
JobRetryInterval 2
MaxJobTime 0
PreserveJobHistory Yes
DefaultAuthType None
<Location />
  Order allow,deny
  Allow all
</Location>
<Policy default>
  <Limit All>
    Order deny,allow
    Allow all
  </Limit>
</Policy>
CONF
# Root cupsd drops to lp for filters and backends: let them reach the rig's files.
[ "$(id -u)" -eq 0 ] && chown -R lp:lp "$dir/spool" "$dir/tmp" "$dir/cache" "$dir/state" 2>/dev/null || true
cupsd -f -c "$dir/cups/cupsd.conf" -s "$dir/cups/cups-files.conf" >"$dir/log/cupsd.log" 2>&1 &
echo $! > "$dir/cupsd.pid"
wait_port "$cupsport"
export CUPS_SERVER=127.0.0.1:$cupsport

for queue in "$@"; do
    start_printer "$queue" "$(free_port)"
    lpadmin -p "$queue" -E -v "ipp://localhost:$(cat "$dir/printer-$queue.port")/ipp/print" -m everywhere 2>>"$dir/log/lpadmin.log"
done
echo "CUPS_SERVER=$CUPS_SERVER"

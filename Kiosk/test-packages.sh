#!/usr/bin/env bash
# Install test of the Debian packages on a clean Debian 12: builds checkin-kiosk and checkin-hub
# once (Kiosk/build-deb.sh --lint: one release build, lintian without errors), makes a minimal
# Debian 12 root with debootstrap, installs both with apt resolving their dependencies, and
# checks inside it what an administrator would:
#   kiosk --version, checkin-hub --version, no Swift runtime library (ldd)
#   the kiosk user and groups, the sealed storage key, the units enabled as they should be,
#   systemd-analyze verify of the units
#   kiosk migrate --json on the packaged data directory (as root, as support runs it there)
#   checkin-hub serve answering /v1/health, and the first organizer made as the install says
#   add-badge-printer.sh: a Brother QL, a DYMO LabelWriter and a Zebra queue with Debian's
#   drivers, each pointed at a loopback socket that records what it receives; a badge through
#   each gives non-empty printer data and the state `printed`
#   the same packages installed again as an upgrade: data, key and edited settings kept
#   booted under systemd-nspawn, tty1 a tmux pane: the hub's service runs as its user; the
#   station waits until kiosk.conf exists, then runs on tty1 and admits a guest typed there; an
#   upgrade restarts both; removing the station stops it and asks for tty1's login prompt
#   remove keeps the data; purge deletes it
#
#   Kiosk/test-packages.sh                  build the packages, then test
#   Kiosk/test-packages.sh --debs DIR       test the .deb files in DIR (no build)
#   Kiosk/test-packages.sh --keep           leave the Debian root (its path is printed)
#
# Needs root (debootstrap, chroot) and Debian's mirror. Where it cannot run it prints why and
# exits 0, except under CI=true, where that is a failure: CI must run it.
set -euo pipefail
cd "$(dirname "$0")/.."

debs="" keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --debs) debs="$2"; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "test-packages.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$(date +%s)
step() { echo "== $(( $(date +%s) - started ))s: $*"; }
fail() { echo "FAILED: package install test: $*" >&2; exit 1; }
skip() {
    if [ "${CI:-}" = "true" ]; then fail "cannot run here ($*), and CI must run it"; fi
    echo "SKIPPED: package install test: $*"
    exit 0
}

[ "$(id -u)" -eq 0 ] || skip "it needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (apt-get install debootstrap)"
command -v chroot >/dev/null || skip "chroot is missing"
curl -sfI --max-time 20 "$mirror/dists/bookworm/Release" >/dev/null || skip "Debian's mirror $mirror does not answer"

root=$(mktemp -d /tmp/checkin-debroot.XXXXXX)
chmod 0755 "$root"  # it is /: the station's and hub's users must get through it
recorder_pid="" cupsd_pid="" nspawn_pid=""
cleanup() {
    set +e
    [ -z "$recorder_pid" ] || kill "$recorder_pid" 2>/dev/null
    [ -z "$cupsd_pid" ] || kill "$cupsd_pid" 2>/dev/null
    pkill -f "checkin-hub serve --db sqlite:/var/lib/checkin-hub" 2>/dev/null
    if declare -F shutdown_root >/dev/null; then shutdown_root; fi
    for mount in "$root/sys" "$root/proc" "$root/dev/pts"; do
        mountpoint -q "$mount" && umount -l "$mount"
    done
    if [ "$keep" -eq 1 ]; then
        echo "kept the Debian root: $root"
    elif grep -q " $root/" /proc/mounts; then
        echo "left $root: something is still mounted in it" >&2
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT

# The root is made while the release build runs: one waits on the network, the other on the CPU.
step "debootstrap Debian 12 (minbase) into $root, in the background"
debootstrap --variant=minbase --include=systemd,ca-certificates,curl bookworm "$root" "$mirror" \
    > "$root.debootstrap.log" 2>&1 &
bootstrap_pid=$!

if [ -z "$debs" ]; then
    step "build both packages (one release build) and lint them"
    bash Kiosk/build-deb.sh --lint
    debs=.build/deb
fi
kiosk_deb=$(ls "$debs"/checkin-kiosk_*.deb | tail -1)
hub_deb=$(ls "$debs"/checkin-hub_*.deb | tail -1)
version=$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/CheckInCore/ProductVersion.swift)
[ "$(dpkg-deb -f "$kiosk_deb" Version)" = "$version-1" ] || fail "$kiosk_deb is not version $version-1"
[ "$(dpkg-deb -f "$hub_deb" Version)" = "$version-1" ] || fail "$hub_deb is not version $version-1"

if ! wait "$bootstrap_pid"; then
    tail -20 "$root.debootstrap.log" >&2
    fail "debootstrap failed (log above)"
fi
rm -f "$root.debootstrap.log"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
# As in any chroot: packages must not start services (deb-systemd-invoke and invoke-rc.d ask).
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/tmp/debs"
cp "$kiosk_deb" "$hub_deb" "$root/tmp/debs/"

step "apt install both packages, dependencies resolved by apt"
in_root apt-get update -q >/dev/null
in_root apt-get install -y -q "/tmp/debs/$(basename "$kiosk_deb")" "/tmp/debs/$(basename "$hub_deb")" > "$root/tmp/install.log" 2>&1 \
    || { tail -30 "$root/tmp/install.log" >&2; fail "apt could not install the packages"; }
grep -A6 "checkin-hub is installed" "$root/tmp/install.log" | grep -q "staff add" || fail "no first-organizer message after install"
grep -q "recovery-key" "$root/tmp/install.log" || fail "no recovery-key message after install"
grep -q "Sealed a new storage key into /etc/credstore.encrypted/kiosk-storage-key" "$root/tmp/install.log" \
    || fail "the install did not say it sealed the storage key"
# No TPM2 here: the install says plainly that the key lies on the data's disk, and what is stronger.
if ! systemd-creds has-tpm2 --quiet 2>/dev/null; then
    grep -q "WARNING: the guest data is protected by only a key on the same disk" "$root/tmp/install.log" \
        || fail "the install did not say the storage key is on the same disk (no TPM2)"
    grep -q "kiosk storage move-key --to-removable" "$root/tmp/install.log" || fail "the install did not offer the stronger choices"
fi

step "binaries: versions, and no Swift runtime"
[ "$(in_root kiosk --version)" = "$version" ] || fail "kiosk --version is not $version"
[ "$(in_root checkin-hub --version)" = "$version" ] || fail "checkin-hub --version is not $version"
for binary in /usr/bin/kiosk /usr/bin/checkin-hub; do
    libraries=$(in_root ldd "$binary")
    if echo "$libraries" | grep -q "not found"; then echo "$libraries" >&2; fail "$binary misses a library"; fi
    if echo "$libraries" | grep -qiE "libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime"; then
        echo "$libraries" >&2; fail "$binary needs a Swift runtime library"
    fi
done
in_root test ! -e /usr/lib/swift || fail "a Swift runtime was installed"

step "users, storage key, units"
in_root id -nG kiosk | tr ' ' '\n' | grep -qx video || fail "kiosk is not in group video"
in_root id -nG kiosk | tr ' ' '\n' | grep -qx lp || fail "kiosk is not in group lp"
if in_root id -nG kiosk | tr ' ' '\n' | grep -qxE "tty|input"; then fail "kiosk is in tty or input"; fi
in_root id checkin-hub >/dev/null || fail "no checkin-hub user"
key="$root/etc/credstore.encrypted/kiosk-storage-key"
[ -s "$key" ] || fail "the storage key was not sealed"
[ "$(stat -c %a "$key")" = 600 ] || fail "the storage key is not 0600"
key_sum=$(md5sum < "$key")
[ -L "$root/etc/systemd/system/multi-user.target.wants/checkin-kiosk.path" ] || fail "checkin-kiosk.path is not enabled"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/checkin-kiosk.service" ] || fail "the station's unit is enabled before it is configured"
[ -L "$root/etc/systemd/system/multi-user.target.wants/checkin-hub.service" ] || fail "checkin-hub.service is not enabled"
[ ! -e "$root/etc/checkin-kiosk/kiosk.conf" ] || fail "the package wrote kiosk.conf: the station would start unconfigured"
verify=$(in_root systemd-analyze verify /lib/systemd/system/checkin-kiosk.service /lib/systemd/system/checkin-kiosk.path /lib/systemd/system/checkin-hub.service 2>&1) \
    || { echo "$verify" >&2; fail "systemd-analyze verify refused a unit"; }
if echo "$verify" | grep -E "checkin-(kiosk|hub)" ; then fail "systemd-analyze verify warned about a unit (above)"; fi

step "kiosk migrate --json on the packaged data directory, as root"
migrate=$(in_root kiosk migrate --json) || fail "kiosk migrate failed: $migrate"
echo "$migrate" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["schema_version"]==r["latest_version"]>0, r' \
    || fail "kiosk migrate did not bring the store to the latest version: $migrate"
[ "$(in_root stat -c %U /var/lib/checkin-kiosk/kiosk.sqlite)" = kiosk ] \
    || fail "the station's database is not the kiosk user's"
in_root kiosk import /usr/share/checkin-kiosk/demo-roster.csv >/dev/null || fail "kiosk import failed"
in_root kiosk checkin DEMO-0002 >/dev/null || fail "kiosk checkin failed"
roster_before=$(in_root kiosk status --json | python3 -c 'import json,sys; r=json.load(sys.stdin)["roster"]; print(r["guests"], r["checked_in"])')
[ "${roster_before#* }" = 1 ] || fail "the check-in was not recorded: $roster_before"

step "checkin-hub serve (as its service would) answers /v1/health; the first organizer"
# shellcheck disable=SC1091
db=$(sed -n 's/^CHECKIN_HUB_DB=//p' "$root/etc/checkin-hub/hub.conf")
printf 'organizer-password-1\n' | in_root runuser -u checkin-hub -- checkin-hub staff add --db "$db" \
    --email first@example.org --name "First Organizer" --role organizer >/dev/null || fail "staff add as the message says failed"
in_root runuser -u checkin-hub -- checkin-hub serve --db "$db" --host 127.0.0.1 --port 0 > "$root/tmp/hub.out" 2>&1 &
for _ in $(seq 1 100); do grep -q "listening on" "$root/tmp/hub.out" && break; sleep 0.2; done
port=$(sed -n 's/^listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$root/tmp/hub.out")
[ -n "$port" ] || { cat "$root/tmp/hub.out" >&2; fail "checkin-hub serve did not start"; }
curl -sf "http://127.0.0.1:$port/v1/health" | grep -q '"ok"' || fail "/v1/health did not answer ok"
pkill -TERM -f "checkin-hub serve --db sqlite:/var/lib/checkin-hub" || true
[ "$(in_root stat -c %U /var/lib/checkin-hub/hub.sqlite)" = checkin-hub ] || fail "the hub's database is not its user's"

step "badge printers: Brother QL, DYMO LabelWriter, Zebra through Debian's drivers"
recorded="$root/tmp/printers"
mkdir -p "$recorded"
python3 - "$recorded" > "$recorded/ports" <<'PY' &
import os, socket, sys, threading
folder = sys.argv[1]
def serve(name, server):
    count = 0
    while True:
        connection, _ = server.accept()
        count += 1
        with connection, open(os.path.join(folder, f"{name}.{count}"), "wb") as out:
            while chunk := connection.recv(65536):
                out.write(chunk)
for name in ("ql", "dymo", "zebra"):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    print(name, server.getsockname()[1], flush=True)
    threading.Thread(target=serve, args=(name, server), daemon=True).start()
threading.Event().wait()
PY
recorder_pid=$!
for _ in $(seq 1 50); do [ "$(wc -l < "$recorded/ports")" -eq 3 ] && break; sleep 0.1; done
port_of() { sed -n "s/^$1 //p" "$recorded/ports"; }
# The root's own scheduler, on its socket and a free loopback port (never the host's 631).
cups_port=$(free_port)
sed -i -e "s/^Listen localhost:631/Listen 127.0.0.1:$cups_port/" -e "s/^Port 631/Port $cups_port/" "$root/etc/cups/cupsd.conf"
mkdir -p "$root/run/cups"
chroot "$root" /usr/sbin/cupsd -f > "$root/tmp/cupsd.out" 2>&1 &
cupsd_pid=$!
for _ in $(seq 1 100); do [ -S "$root/run/cups/cups.sock" ] && break; sleep 0.1; done
[ -S "$root/run/cups/cups.sock" ] || { cat "$root/tmp/cupsd.out" >&2; fail "cupsd did not start in the root"; }
ql_model=$(in_root lpinfo -m | awk 'tolower($0) ~ /ql-800/ {print $1; exit}')
dymo_model=$(in_root lpinfo -m | awk 'tolower($0) ~ /labelwriter 450/ && !/twin|turbo|duo/ {print $1; exit}')
[ -n "$ql_model" ] || fail "no Brother QL-800 driver (printer-driver-ptouch) in the root"
[ -n "$dymo_model" ] || fail "no DYMO LabelWriter 450 driver (printer-driver-dymo) in the root"
add=/usr/share/checkin-kiosk/add-badge-printer.sh
in_root "$add" brother-ql ql "socket://127.0.0.1:$(port_of ql)" "$ql_model" >/dev/null || fail "add-badge-printer.sh brother-ql failed"
in_root "$add" dymo dymo "socket://127.0.0.1:$(port_of dymo)" "$dymo_model" >/dev/null || fail "add-badge-printer.sh dymo failed"
in_root "$add" zebra zebra "socket://127.0.0.1:$(port_of zebra)" >/dev/null || fail "add-badge-printer.sh zebra failed"
for queue in ql dymo zebra; do
    result=$(in_root kiosk badge DEMO-0001 --printer "$queue" --reprint --timeout 120 --json) \
        || { echo "$result" >&2; tail -20 "$root/var/log/cups/error_log" >&2 2>/dev/null; fail "the badge on $queue did not print"; }
    echo "$result" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["state"]=="printed", r' \
        || fail "the badge on $queue is not printed: $result"
    data=$(ls "$recorded/$queue".* 2>/dev/null | tail -1)
    [ -n "$data" ] && [ -s "$data" ] || fail "the $queue printer received nothing"
    echo "   $queue ($(in_root lpstat -l -p "$queue" 2>/dev/null | sed -n 's/.*Interface: //p' | head -1)): $(stat -c %s "$data") bytes of printer data, state printed"
done
grep -qa '\^XA' "$recorded"/zebra.* || fail "the Zebra printer received no ZPL label (^XA)"
kill "$cupsd_pid"; wait "$cupsd_pid" 2>/dev/null || true; cupsd_pid=""

# The packages in a booted Debian: systemd-nspawn boots the root (sharing the host's network),
# with a tmux pane's terminal bound as its /dev/tty1, so the station's console can be read and
# typed into. What a chroot cannot show: the hub's service running as its user, the station not
# started until kiosk.conf exists then started by its path unit, both restarted by an upgrade,
# and a removal that stops the station and asks for tty1's login prompt.
container_pid="" nspawn_pid=""
boot() {
    for mount in "$root/sys" "$root/proc"; do mountpoint -q "$mount" && umount "$mount"; done
    tmux -L checkin-debroot kill-server 2>/dev/null || true
    # The pane's shell ignores the hangup systemd sends when it hands tty1 to the station.
    tmux -L checkin-debroot new-session -d -s tty1 -x 110 -y 30 "trap '' HUP; exec sleep 100000"
    tmux -L checkin-debroot set-option -t tty1 remain-on-exit on >/dev/null
    local pty
    pty=$(tmux -L checkin-debroot display -p -t tty1 '#{pane_tty}')
    systemd-nspawn -D "$root" -b --register=no --keep-unit --console=pipe -q --bind="$pty:/dev/tty1" \
        < /dev/null > "$root.nspawn.log" 2>&1 &
    nspawn_pid=$!
    for _ in $(seq 1 300); do
        container_pid=$(pgrep -P "$nspawn_pid" | head -1 || true)
        if [ -n "$container_pid" ]; then
            state=$(nsenter -t "$container_pid" -a systemctl is-system-running 2>/dev/null || true)
            case "$state" in running|degraded) return 0 ;; esac
        fi
        sleep 0.2
    done
    cat "$root.nspawn.log" >&2
    fail "the root did not boot under systemd-nspawn within 60 s (state: ${state:-none})"
}
inside() { nsenter -t "$container_pid" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
screen() { tmux -L checkin-debroot capture-pane -p -t tty1; }
wait_for() {  # SECONDS DESCRIPTION CONDITION (shell code, run here: the functions above work)
    local seconds=$1 what=$2 condition=$3
    for _ in $(seq 1 $((seconds * 5))); do eval "$condition" >/dev/null 2>&1 && return 0; sleep 0.2; done
    fail "$what (after $seconds s)"
}
shutdown_root() {
    [ -n "$nspawn_pid" ] || return 0
    inside systemctl poweroff >/dev/null 2>&1 || kill "$nspawn_pid" 2>/dev/null || true
    wait "$nspawn_pid" 2>/dev/null || true
    nspawn_pid="" container_pid=""
    tmux -L checkin-debroot kill-server 2>/dev/null || true
    rm -f "$root.nspawn.log"
}
main_pid() { inside systemctl show -p MainPID --value "$1"; }
runs_as() { inside stat -c %U "/proc/$(main_pid "$1")"; }
boot_checks() {
    rm -f "$root/usr/sbin/policy-rc.d"   # a booted box: the packages' scripts may start services
    mv "$root/etc/checkin-kiosk/kiosk.conf" "$root/root/kiosk.conf"
    hub_port=$(free_port)
    sed -i "s/^CHECKIN_HUB_PORT=.*/CHECKIN_HUB_PORT=$hub_port/" "$root/etc/checkin-hub/hub.conf"
    cp "$kiosk_deb" "$hub_deb" "$root/root/"
    boot
    # The hub: enabled at install, so running, as its own user, on hub.conf's port.
    wait_for 20 "checkin-hub.service did not answer /v1/health on port $hub_port" \
        "curl -sf http://127.0.0.1:$hub_port/v1/health | grep -q '\"ok\"'"
    [ "$(runs_as checkin-hub.service)" = checkin-hub ] || fail "the hub does not run as checkin-hub"
    # The station: not configured, so not started, and tty1 untouched.
    [ "$(inside systemctl is-active checkin-kiosk.path)" = active ] || fail "checkin-kiosk.path is not active after boot"
    [ "$(inside systemctl is-active checkin-kiosk.service || true)" = inactive ] || fail "the station started before it was configured"
    # Configured as README says: the path unit starts it, full screen on tty1.
    inside install -m 0640 -g kiosk /root/kiosk.conf /etc/checkin-kiosk/kiosk.conf
    wait_for 20 "the station did not start once kiosk.conf existed" "screen | grep -q 'Check-in · Door 7'"
    [ "$(runs_as checkin-kiosk.service)" = kiosk ] || fail "the station does not run as kiosk"
    # The service, as its own user, cannot read the sealed file: it asks systemd-creds has-tpm2.
    if ! systemd-creds has-tpm2 --quiet 2>/dev/null; then
        wait_for 20 "tty1 does not say the storage key is on the same disk" "screen | grep -q 'Guest data key on this same disk'"
    fi
    tmux -L checkin-debroot send-keys -t tty1 "DEMO-0003" Enter
    wait_for 15 "the station on tty1 did not admit DEMO-0003" "screen | grep -q 'Welcome'"
    echo "   tty1: $(screen | grep -m1 'Welcome' | sed 's/^ *//')"
    # An upgrade on the running box restarts both on the new binaries.
    local station_pid hub_pid next_guest
    next_guest=$(awk -F, '$4 == "DEMO-0004" {print $1}' Kiosk/demo-roster.csv)
    station_pid=$(main_pid checkin-kiosk.service)
    hub_pid=$(main_pid checkin-hub.service)
    inside dpkg -i "/root/$(basename "$kiosk_deb")" "/root/$(basename "$hub_deb")" > "$root/tmp/booted-upgrade.log" 2>&1 \
        || { tail "$root/tmp/booted-upgrade.log" >&2; fail "the upgrade on the booted root failed"; }
    wait_for 20 "the upgrade did not restart the station" \
        '[ "$(main_pid checkin-kiosk.service)" != "$station_pid" ] && [ "$(inside systemctl is-active checkin-kiosk.service)" = active ]'
    [ "$(main_pid checkin-hub.service)" != "$hub_pid" ] || fail "the upgrade did not restart the hub"
    # The restarted station redraws tty1: the next guest is admitted there.
    tmux -L checkin-debroot send-keys -t tty1 "DEMO-0004" Enter
    wait_for 30 "the station after the upgrade did not admit DEMO-0004 on tty1" "screen | grep -q 'Welcome, $next_guest'"
    # Removing the station stops it and asks systemd for tty1's login prompt (a container has no
    # VT, so getty@tty1 is then skipped by its own ConditionPathExists=/dev/tty0: on a box it runs).
    inside dpkg -r checkin-kiosk > "$root/tmp/booted-remove.log" 2>&1 || fail "removing the station on the booted root failed"
    [ "$(inside systemctl is-active checkin-kiosk.service || true)" != active ] || fail "the station still runs after remove"
    [ -n "$(inside systemctl show -p ConditionTimestamp --value getty@tty1.service)" ] || fail "remove did not start getty@tty1"
    [ -s "$root/var/lib/checkin-kiosk/kiosk.sqlite" ] || fail "remove on the booted root deleted the station's data"
    shutdown_root
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
}

step "upgrade: the same packages again, with the data kept"
echo "station_name = Door 7" > "$root/etc/checkin-kiosk/kiosk.conf"
sed -i 's/^CHECKIN_HUB_PORT=.*/CHECKIN_HUB_PORT=8443/' "$root/etc/checkin-hub/hub.conf"
in_root dpkg -i "/tmp/debs/$(basename "$kiosk_deb")" "/tmp/debs/$(basename "$hub_deb")" > "$root/tmp/upgrade.log" 2>&1 \
    || { tail -20 "$root/tmp/upgrade.log" >&2; fail "installing again failed"; }
grep -q "Unpacking checkin-kiosk (.*) over (" "$root/tmp/upgrade.log" || fail "dpkg did not take it as an upgrade"
[ "$(md5sum < "$key")" = "$key_sum" ] || fail "the upgrade changed the storage key"
grep -q "Keeping the storage key already sealed" "$root/tmp/upgrade.log" || fail "the upgrade did not say it kept the storage key"
grep -q "Door 7" "$root/etc/checkin-kiosk/kiosk.conf" || fail "the upgrade changed kiosk.conf"
grep -q "^CHECKIN_HUB_PORT=8443" "$root/etc/checkin-hub/hub.conf" || fail "the upgrade replaced the edited hub.conf"
status=$(in_root kiosk status --json) || fail "kiosk status failed after the upgrade: $status"
roster_after=$(echo "$status" | python3 -c 'import json,sys; r=json.load(sys.stdin)["roster"]; print(r["guests"], r["checked_in"])')
[ "$roster_after" = "$roster_before" ] || fail "guests and check-ins were $roster_before before the upgrade, $roster_after after"
in_root runuser -u checkin-hub -- checkin-hub staff list --db "$db" | grep -q first@example.org || fail "the hub lost its organizer"

step "booted: systemd runs the units (systemd-nspawn), tty1 a terminal the test reads"
if ! command -v systemd-nspawn >/dev/null || ! command -v tmux >/dev/null; then
    skip "systemd-nspawn (systemd-container) or tmux is missing: the units were not run"
fi
boot_checks
step "remove keeps the data; purge deletes it"
in_root apt-get remove -y -q checkin-kiosk checkin-hub > "$root/tmp/remove.log" 2>&1 || { tail "$root/tmp/remove.log" >&2; fail "remove failed"; }
[ ! -e "$root/usr/bin/kiosk" ] && [ ! -e "$root/usr/bin/checkin-hub" ] || fail "the binaries are still there after remove"
[ -d "$root/var/lib/checkin-kiosk" ] && [ -s "$key" ] || fail "remove deleted the station's data or key"
[ -s "$root/var/lib/checkin-hub/hub.sqlite" ] || fail "remove deleted the hub's database"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/checkin-kiosk.path" ] || fail "the path unit is still enabled after remove"
in_root apt-get purge -y -q checkin-kiosk checkin-hub > "$root/tmp/purge.log" 2>&1 || { tail "$root/tmp/purge.log" >&2; fail "purge failed"; }
[ ! -e "$root/var/lib/checkin-kiosk" ] && [ ! -e "$key" ] && [ ! -e "$root/var/lib/checkin-hub" ] || fail "purge left the data"
[ ! -e "$root/etc/checkin-kiosk" ] && [ ! -e "$root/etc/checkin-hub" ] || fail "purge left the configuration"

step "passed: $(basename "$kiosk_deb") $(du -k "$kiosk_deb" | cut -f1) KB, $(basename "$hub_deb") $(du -k "$hub_deb" | cut -f1) KB"

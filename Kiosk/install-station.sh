#!/usr/bin/env bash
# Turns a Debian/Ubuntu box into a check-in station: runtime packages, the kiosk binary, a
# dedicated user (groups video and lp), the configuration, the udev rule and the systemd unit
# that runs `kiosk run` on tty1.
#
#   sudo Kiosk/install-station.sh                 build, install, enable and start
#   Kiosk/install-station.sh --dry-run            print every step, change nothing; renders the
#                                                 unit into a staging folder and verifies it
# Options: --binary PATH (use this kiosk instead of building), --stage DIR (where --dry-run
# renders files; default a temporary folder), --no-start (install and enable, don't start),
# --scanner-usb VVVV:PPPP (the keyboard-mode scanner's USB vendor:product from lsusb; the udev
# rule then names it /dev/kiosk-scanner-kbd for the kiosk group).
set -euo pipefail
cd "$(dirname "$0")/.."

dry_run=0 binary="" stage="" start=1 scanner_usb=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --binary) binary="$2"; shift ;;
        --stage) stage="$2"; shift ;;
        --no-start) start=0 ;;
        --scanner-usb) scanner_usb="$2"; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "install-station.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

bin_path=/usr/local/bin/kiosk
unit_dir=/etc/systemd/system
config_dir=/etc/checkin-kiosk
udev_dir=/etc/udev/rules.d
data_dir=/var/lib/checkin-kiosk

step() { echo "+ $*"; if [ "$dry_run" -eq 0 ]; then "$@"; fi; }

if [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install-station.sh: run as root (sudo), or with --dry-run to see the steps" >&2
    exit 77
fi

# 1. Packages and the binary.
if [ -z "$binary" ]; then
    step bash Kiosk/install-packages.sh Kiosk/packages-run.txt
    # Only the versions of the committed Package.resolved: nothing floats on a build run as root.
    step swift build -c release --product kiosk --only-use-versions-from-resolved-file
    binary=.build/release/kiosk
fi

# 2. Files, rendered first into a staging folder (the dry run stops there and verifies them).
if [ -z "$stage" ]; then stage="$(mktemp -d)"; fi
mkdir -p "$stage"
# With --dry-run the unit points at the binary given, so systemd-analyze can check ExecStart.
exec_path="$bin_path"
if [ "$dry_run" -eq 1 ] && [ -n "$binary" ] && [ -x "$binary" ]; then exec_path="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"; fi
# The unit names the packaged binary (/usr/bin/kiosk): this install puts its own in ExecStart.
sed "s#/usr/bin/kiosk #${exec_path} #" Kiosk/checkin-kiosk.service > "$stage/checkin-kiosk.service"
if [ -n "$scanner_usb" ]; then
    if ! [[ "$scanner_usb" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$ ]]; then
        echo "install-station.sh: --scanner-usb wants VVVV:PPPP as lsusb shows it, e.g. 05e0:1200" >&2
        exit 64
    fi
    sed -e "s/SCANNER_VENDOR/${scanner_usb%%:*}/" -e "s/SCANNER_PRODUCT/${scanner_usb##*:}/" \
        Kiosk/99-checkin-kiosk.rules > "$stage/99-checkin-kiosk.rules"
else
    cp Kiosk/99-checkin-kiosk.rules "$stage/99-checkin-kiosk.rules"
fi
cp Kiosk/kiosk.conf.example "$stage/kiosk.conf"
echo "rendered into $stage: checkin-kiosk.service 99-checkin-kiosk.rules kiosk.conf"
if command -v systemd-analyze >/dev/null; then
    echo "+ systemd-analyze verify $stage/checkin-kiosk.service"
    if ! output="$(systemd-analyze verify "$stage/checkin-kiosk.service" 2>&1)" || [ -n "$output" ]; then
        echo "$output" >&2
        echo "install-station.sh: the unit does not verify" >&2
        exit 1
    fi
    echo "unit verified"
    # Exposure on systemd's 0-10 scale; --threshold takes tenths.
    echo "+ systemd-analyze security --offline=yes --threshold=20 $stage/checkin-kiosk.service"
    if ! output="$(systemd-analyze security --offline=yes --threshold=20 "$stage/checkin-kiosk.service" 2>&1)"; then
        echo "$output" | tail -3 >&2
        echo "install-station.sh: the unit's exposure is above 2.0" >&2
        exit 1
    fi
    echo "unit exposure: $(echo "$output" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
fi

# 3. User, files, device rule, service.
if ! id kiosk >/dev/null 2>&1; then
    step useradd --system --home-dir "$data_dir" --shell /usr/sbin/nologin --groups video,lp kiosk
else
    step usermod --append --groups video,lp kiosk
    # Earlier installs put the kiosk user in tty; the unit no longer needs it.
    if id -nG kiosk 2>/dev/null | grep -qw tty; then step gpasswd --delete kiosk tty; fi
fi
step install -m 0755 "$binary" "$bin_path"
step install -d -m 0750 -o kiosk -g kiosk "$data_dir"
step install -d -m 0755 "$config_dir"
if [ -e "$config_dir/kiosk.conf" ]; then
    echo "keeping the existing $config_dir/kiosk.conf"
else
    step install -m 0640 -g kiosk "$stage/kiosk.conf" "$config_dir/kiosk.conf"
fi
# The storage key: 32 random bytes sealed with systemd-creds to the box's TPM2 when it has one,
# else to the host key, which is on the same disk; never written to disk in clear. kiosk storage
# seal says which, plainly, with the stronger choices. An existing one stays: a new key would not
# open the station's data.
step "$bin_path" storage seal --data-dir "$data_dir"
step install -m 0644 "$stage/99-checkin-kiosk.rules" "$udev_dir/99-checkin-kiosk.rules"
step udevadm control --reload
step udevadm trigger --subsystem-match=video4linux --subsystem-match=tty --subsystem-match=input
step install -m 0644 "$stage/checkin-kiosk.service" "$unit_dir/checkin-kiosk.service"
step systemctl daemon-reload
step systemctl disable getty@tty1.service
if [ "$start" -eq 1 ]; then
    step systemctl enable --now checkin-kiosk.service
else
    step systemctl enable checkin-kiosk.service
fi
# A recovery key, printed once, for the day this box dies or its TPM is reset: it opens the data
# on another machine (kiosk storage recover). Not kept on the box.
if [ "$dry_run" -eq 1 ]; then
    echo "+ $bin_path storage recovery-key --data-dir $data_dir"
elif ! "$bin_path" storage show --data-dir "$data_dir" --json 2>/dev/null | grep -q '"recovery_key":true'; then
    echo "Write this recovery key on paper and keep it away from the station:"
    "$bin_path" storage recovery-key --data-dir "$data_dir"
fi
echo "station installed: edit $config_dir/kiosk.conf, then: systemctl restart checkin-kiosk"

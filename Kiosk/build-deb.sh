#!/usr/bin/env bash
# Builds the two Debian packages from one release build, Swift's runtime linked in:
#   checkin-kiosk   the station: /usr/bin/kiosk, its units, udev rule, example configuration,
#                   the badge-printer set-up script
#   checkin-hub     the hub: /usr/bin/checkin-hub, its unit and configuration
#
#   Kiosk/build-deb.sh                 build, assemble, write .build/deb/*.deb
#   Kiosk/build-deb.sh --no-build      assemble from the release build already there
#   Kiosk/build-deb.sh --lint          then run lintian on both (fails on any error)
#
# The package trees are generated under .build/deb (the top level has no debian/ folder);
# nothing here is committed. Needs the Swift toolchain and the Debian packages of
# Kiosk/packages-run.txt and Kiosk/packages-deb.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1 lint=0
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0 ;;
        --lint) lint=1 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "build-deb.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

# One version: ProductVersion.current is what `kiosk --version` and `checkin-hub --version` say.
version=$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/CheckInCore/ProductVersion.swift)
[ -n "$version" ] || { echo "build-deb.sh: no version in Sources/CheckInCore/ProductVersion.swift" >&2; exit 1; }
revision=1
package_version="$version-$revision"
arch=$(dpkg --print-architecture)
maintainer="Check-in station team <checkin@example.org>"
# Reproducible dates: the commit's, not the clock's.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")

# Only the versions of Package.resolved (committed): a manifest that disagrees with it stops the
# build instead of resolving other versions.
swift_flags=(-c release --static-swift-stdlib --only-use-versions-from-resolved-file)
if [ "$build" -eq 1 ]; then
    swift build "${swift_flags[@]}" --product kiosk
    swift build "${swift_flags[@]}" --product checkin-hub
fi
bin=$(swift build "${swift_flags[@]}" --show-bin-path)
for program in kiosk checkin-hub; do
    [ -x "$bin/$program" ] || { echo "build-deb.sh: $bin/$program is missing: run without --no-build" >&2; exit 1; }
done

out=.build/deb
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The Swift packages inside both binaries: Package.resolved, which the build was held to (Package.swift
# pins each direct one with exact:).
swift_packages() {
    python3 - <<'PY'
import json
pins = json.load(open("Package.resolved"))["pins"]
for pin in sorted(pins, key=lambda p: p["identity"]):
    state = pin["state"]
    print(f'{pin["identity"]} {state.get("version") or state.get("revision")} {pin["location"]}')
PY
}

# Debian's copyright file: this project, Swift's runtime, and each embedded Swift package with
# its licence (Apache-2.0 by reference to common-licenses, others in full).
write_copyright() {  # FILE
    {
        echo "Check-in station (kiosk) and hub (checkin-hub)"
        echo
        echo "Copyright: 2026 the check-in station team <checkin@example.org>"
        echo "License: Apache-2.0"
        echo
        echo "The programs are statically linked with the Swift runtime and Foundation"
        echo "(Copyright 2014-2026 Apple Inc. and the Swift project authors; Apache-2.0 with"
        echo "the Runtime Library Exception) and with these Swift packages:"
        echo
        swift_packages | while read -r name pinned location; do
            directory=".build/checkouts/$(basename "$location" .git)"
            licence=$(ls "$directory" 2>/dev/null | grep -iE '^(license|copying)' | head -1 || true)
            if [ -n "$licence" ] && grep -q "Apache License" "$directory/$licence"; then
                echo " $name $pinned ($location): Apache-2.0"
            elif [ -n "$licence" ]; then
                echo " $name $pinned ($location):"
                sed -e 's/^$/./' -e 's/^/   /' "$directory/$licence"
            else
                echo " $name $pinned ($location): see its repository"
            fi
        done
        echo
        echo "On Debian systems the full text of the Apache License 2.0 is in"
        echo "/usr/share/common-licenses/Apache-2.0."
    } > "$1"
}

write_changelog() {  # PACKAGE FILE
    cat > "$work/changelog" <<EOF
$1 ($package_version) bookworm; urgency=medium

  * Release $version of the check-in station and hub, built from commit
    $(git rev-parse --short HEAD 2>/dev/null || echo unknown).

 -- $maintainer  $changelog_date
EOF
    gzip -9nc "$work/changelog" > "$2"
}

# Shared libraries the binaries link, as Debian package dependencies.
shlib_depends() {  # PACKAGE BINARY...
    mkdir -p "$work/shlibs/debian"
    printf 'Source: checkin\n\nPackage: %s\nArchitecture: any\n' "$1" > "$work/shlibs/debian/control"
    shift
    local binaries=()
    for b in "$@"; do binaries+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"); done
    (cd "$work/shlibs" && dpkg-shlibdeps -O --warnings=0 "${binaries[@]}") | sed -n 's/^shlibs:Depends=//p'
}

install_binary() {  # FROM TO
    install -D -m 0755 "$1" "$2"
    # Symbols and debug info off (lintian: unstripped-binary-or-object); Swift's reflection
    # metadata lives in its own sections and stays.
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$2"
}

# assemble PACKAGE SECTION "DEPENDS-BY-HAND" "RECOMMENDS" "SUMMARY" "DESCRIPTION" BINARY
assemble() {
    local package=$1 section=$2 depends=$3 recommends=$4 summary=$5 description=$6 binary=$7
    local root="$out/$package"
    local doc="$root/usr/share/doc/$package"
    install -d -m 0755 "$doc"
    # The manual page, from the program's own help (Kiosk/deb/man-page.py).
    install -d -m 0755 "$root/usr/share/man/man1"
    PACKAGE=$package python3 Kiosk/deb/man-page.py "$root/usr/bin/$binary" "$summary" "${man_files[@]}" \
        | gzip -9nc > "$root/usr/share/man/man1/$binary.1.gz"
    write_copyright "$doc/copyright"
    write_changelog "$package" "$doc/changelog.Debian.gz"
    gzip -9nc README.md > "$doc/README.md.gz"
    swift_packages > "$doc/swift-packages.txt"

    if [ -f "Kiosk/deb/$package.lintian-overrides" ]; then
        install -D -m 0644 "Kiosk/deb/$package.lintian-overrides" "$root/usr/share/lintian/overrides/$package"
    fi
    install -d -m 0755 "$root/DEBIAN"
    for script in postinst prerm postrm; do
        install -m 0755 "Kiosk/deb/$package.$script" "$root/DEBIAN/$script"
    done
    (cd "$root" && find etc -type f 2>/dev/null | sort | sed 's#^#/#') > "$root/DEBIAN/conffiles"
    [ -s "$root/DEBIAN/conffiles" ] || rm "$root/DEBIAN/conffiles"

    local shlibs
    shlibs=$(shlib_depends "$package" "$root/usr/bin/$binary")
    local size
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    {
        echo "Package: $package"
        echo "Version: $package_version"
        echo "Architecture: $arch"
        echo "Maintainer: $maintainer"
        echo "Installed-Size: $size"
        echo "Depends: $shlibs, $depends"
        [ -z "$recommends" ] || echo "Recommends: $recommends"
        echo "Section: $section"
        echo "Priority: optional"
        echo "Description: $summary"
        echo "$description" | sed -e 's/^$/./' -e 's/^/ /'
    } > "$root/DEBIAN/control"
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's#^\./##' | sort | xargs -d '\n' md5sum) > "$root/DEBIAN/md5sums"
    find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${package}_${package_version}_${arch}.deb" >/dev/null
    echo "$out/${package}_${package_version}_${arch}.deb"
}

rm -rf "$out/checkin-kiosk" "$out/checkin-hub" "$out"/*.deb

# The station.
root="$out/checkin-kiosk"
install_binary "$bin/kiosk" "$root/usr/bin/kiosk"
install -D -m 0644 Kiosk/checkin-kiosk.service "$root/lib/systemd/system/checkin-kiosk.service"
install -D -m 0644 Kiosk/checkin-kiosk.path "$root/lib/systemd/system/checkin-kiosk.path"
install -D -m 0644 Kiosk/99-checkin-kiosk.rules "$root/lib/udev/rules.d/99-checkin-kiosk.rules"
install -D -m 0644 Kiosk/kiosk.conf.example "$root/etc/checkin-kiosk/kiosk.conf.example"
install -D -m 0755 Kiosk/add-badge-printer.sh "$root/usr/share/checkin-kiosk/add-badge-printer.sh"
install -D -m 0644 Kiosk/demo-roster.csv "$root/usr/share/checkin-kiosk/demo-roster.csv"
man_files=(
    "/etc/checkin-kiosk/kiosk.conf: the station's configuration; once it exists, checkin-kiosk.path starts the station on tty1 (kiosk.conf.example beside it says what each setting does)"
    "/var/lib/checkin-kiosk: the station's data: guests (encrypted), check-ins, the queue for the hub, badges"
    "/etc/credstore.encrypted/kiosk-storage-key: the storage key, sealed with systemd-creds"
    "/usr/share/checkin-kiosk/add-badge-printer.sh: adds the CUPS queue of a Brother QL, DYMO LabelWriter, Zebra or driverless badge printer"
)
assemble checkin-kiosk misc \
    "adduser, systemd (>= 250), init-system-helpers (>= 1.54~), cups, cups-client, fonts-noto-core" \
    "printer-driver-ptouch, printer-driver-dymo, fonts-noto-cjk" \
    "event check-in station: camera, scanner and badge printer at the door" \
    "A station for the door of an event: it checks attendees in from QR codes
read by a camera or a scanner and from names typed by staff, prints badges
through CUPS and knows whether each one printed, and syncs with the event's
checkin-hub, working on when the network is gone and sending what it
recorded, in order, when it comes back.

The station runs full screen on tty1 once /etc/checkin-kiosk/kiosk.conf
exists; until then the box keeps its login prompt. Guest data is encrypted
at rest with a key sealed by systemd-creds." \
    kiosk

# The hub.
root="$out/checkin-hub"
install_binary "$bin/checkin-hub" "$root/usr/bin/checkin-hub"
install -D -m 0644 Kiosk/checkin-hub.service "$root/lib/systemd/system/checkin-hub.service"
install -D -m 0644 Kiosk/checkin-hub.conf "$root/etc/checkin-hub/hub.conf"
install -D -m 0644 Sources/HubAPI/openapi.yaml "$root/usr/share/doc/checkin-hub/openapi.yaml"
man_files=(
    "/etc/checkin-hub/hub.conf: the service's settings: database, address, port, TLS and other serve options"
    "/var/lib/checkin-hub/hub.sqlite: the SQLite database (PostgreSQL is named in hub.conf instead)"
    "/usr/share/doc/checkin-hub/openapi.yaml: the API stations use"
)
assemble checkin-hub web \
    "adduser, init-system-helpers (>= 1.54~)" \
    "" \
    "event check-in hub: rosters, station sync and the organizers' dashboard" \
    "The server that check-in stations sync with: it keeps an event's roster
and every check-in, decides between doors that admit one ticket at once,
and serves organizers a live dashboard, review, guest lookup and exports.
SQLite for one process, PostgreSQL for several.

Settings are in /etc/checkin-hub/hub.conf; the service runs as its own user." \
    checkin-hub

if [ "$lint" -eq 1 ]; then
    # Errors fail the build; the overrides (Kiosk/deb/*.lintian-overrides) say why each is there.
    lintian --fail-on error --tag-display-limit 0 "$out"/checkin-kiosk_*.deb "$out"/checkin-hub_*.deb
fi

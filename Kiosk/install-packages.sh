#!/usr/bin/env bash
# Installs the Debian packages listed in the given files (one per line, # comments), only
# those missing, and checks that a Swift toolchain is present.
set -euo pipefail

packages=()
for list in "$@"; do
    while read -r line; do
        line="${line%%#*}"; line="${line//[[:space:]]/}"
        [ -n "$line" ] && packages+=("$line")
    done < "$list"
done

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "Installing: ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # policy-rc.d keeps package scripts from starting system daemons (cupsd, postgresql):
    # the station and the tests start their own.
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        [ -x "$candidate/swift" ] && export PATH="$candidate:$PATH"
    done
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "Swift 6.2 or newer is required: install it from swift.org (e.g. with swiftly) and run this again." >&2
    exit 1
fi

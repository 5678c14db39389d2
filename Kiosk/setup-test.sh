#!/usr/bin/env bash
# Sets up a fresh Debian machine for the tests and runs the whole test suite.
# Services the tests need (a private cupsd, a PostgreSQL cluster, a hub) are started by the
# tests themselves, on loopback, in temporary directories.
set -euo pipefail
cd "$(dirname "$0")/.."

source Kiosk/install-packages.sh Kiosk/packages-test.txt

swift build --build-tests
swift test --skip-build

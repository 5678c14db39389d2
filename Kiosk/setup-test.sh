#!/usr/bin/env bash
# Sets up a fresh Debian machine for the tests and runs the whole test suite.
# Services the tests need (a private cupsd, a PostgreSQL cluster, a hub, a pretix) are started by
# the tests themselves, on loopback, in temporary directories; so is the hub the fuzz step attacks.
set -euo pipefail
cd "$(dirname "$0")/.."

source Kiosk/install-packages.sh Kiosk/packages-test.txt Kiosk/packages-deb.txt
# Playwright for the dashboard's browser tests, driving Debian's chromium.
bash Kiosk/setup-browser-tests.sh

# The committed Package.resolved must match Package.swift: the builds below use its versions.
bash Kiosk/check-package-resolved.sh
# pretix for the pretix suites (Kiosk/pretix-server.sh): from PyPI, then its database migrated
# once (about 2.5 minutes on a fresh machine, one core), beside the build.
mkdir -p .build
bash Kiosk/pretix-server.sh install > .build/pretix-install.log 2>&1 &
pretix_install=$!
swift build --build-tests --only-use-versions-from-resolved-file
wait "$pretix_install" || { cat .build/pretix-install.log >&2; echo "setup-test: installing pretix failed" >&2; exit 1; }
# A test that hangs fails the run with its name instead of holding CI until its own limit.
# The browser suites (chromium, hubs, stations and PostgreSQL at once) run after the rest, by
# themselves: beside them on CI's two cores, the camera suites' decoder threads (which lower their
# own priority) got no CPU for over a minute.
bash Kiosk/run-tests.sh "${KIOSK_TEST_MINUTES:-40}" --skip BrowserTests
bash Kiosk/run-tests.sh 15 --filter BrowserTests
# The hub under schemathesis, every route of openapi.yaml: 0 server errors, hub alive (~2.5 min).
bash Kiosk/fuzz-hub.sh
# Both .deb packages built (one release build), linted, installed into a clean Debian 12 root,
# upgraded and removed there (Kiosk/test-packages.sh says what it checks).
bash Kiosk/test-packages.sh

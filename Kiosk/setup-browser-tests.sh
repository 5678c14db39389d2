#!/usr/bin/env bash
# Makes the Python that drives the dashboard's browser tests (DashboardBrowserTests): Playwright
# from PyPI in a virtual environment under .build/playwright. Idempotent: does nothing when the
# pinned version is there already. Playwright's own browser download is never used (it is not
# reachable here): the tests launch Debian's chromium (Kiosk/packages-test.txt).
# Needs Debian's python3-venv. Usage: bash Kiosk/setup-browser-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PLAYWRIGHT_VERSION=1.65.2
venv="$PWD/.build/playwright"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("playwright"))' 2>/dev/null)" != "$PLAYWRIGHT_VERSION" ]; then
    echo "Installing Playwright $PLAYWRIGHT_VERSION into $venv (no browser download)" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 "$venv/bin/pip" install --quiet --disable-pip-version-check "playwright==$PLAYWRIGHT_VERSION"
fi
command -v chromium >/dev/null || echo "setup-browser-tests: no chromium on the PATH (apt-get install chromium)" >&2

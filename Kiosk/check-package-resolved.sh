#!/usr/bin/env bash
# Fails when Package.swift and the committed Package.resolved disagree (a dependency added,
# removed or moved to another version without resolving again), so every build is made of the
# versions the repository names and no other. Run by Kiosk/setup-test.sh (CI) before it builds.
#
#   bash Kiosk/check-package-resolved.sh
#
# After changing a dependency: swift package resolve, then commit Package.resolved with the change.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f Package.resolved ]; then
    echo "check-package-resolved.sh: Package.resolved is missing: run swift package resolve and commit it" >&2
    exit 1
fi
if ! swift package resolve --only-use-versions-from-resolved-file; then
    echo "check-package-resolved.sh: Package.resolved does not match Package.swift:" \
        "run swift package resolve and commit Package.resolved with the change" >&2
    exit 1
fi
echo "Package.resolved matches Package.swift"

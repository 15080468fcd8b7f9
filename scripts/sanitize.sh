#!/usr/bin/env bash
# Runs the whole Swift test suite under AddressSanitizer (leak detection off: the Swift
# runtime's one-time caches would be reported). A separate build folder keeps the normal
# build intact. Usage: bash scripts/sanitize.sh [swift test arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
swift build --build-tests --sanitize=address --scratch-path .build-asan
# The CLI and protocol tests run the sanitized `routes` binary beside the test bundle.
swift test --sanitize=address --scratch-path .build-asan "$@"

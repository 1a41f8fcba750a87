#!/usr/bin/env bash
# Installs what is needed, builds memopt and runs every test (lit/FileCheck
# regression tests, CPU differential tests, ptxas checks, runtime unit tests).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
BUILD=${MEMOPT_BUILD_DIR:-$ROOT/build}
ninja -C "$BUILD" check-memopt

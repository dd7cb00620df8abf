#!/usr/bin/env bash
# Runs all of kiln's tests, installing the tools they need first when they are missing.
# Tests that need a tool fail (they never skip) if it is still absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo test --workspace --locked "$@"

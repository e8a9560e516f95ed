#!/usr/bin/env bash
# Runs a clean install with engine checks enforced, the build and the whole suite on one Node.js release, installed
# by scripts/node-release.sh. Usage: scripts/test-on-node.sh VERSION   (run from the repository root)
set -euo pipefail
bin="$(bash "$(dirname "$0")/node-release.sh" "$1")"
export PATH="$bin:$PATH"
echo "== Node $(node --version)"
# --engine-strict: the versions named in package.json `engines` must install without a single engine mismatch.
npm ci --engine-strict --no-audit --no-fund
npm test

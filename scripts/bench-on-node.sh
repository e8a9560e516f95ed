#!/usr/bin/env bash
# Runs the benchmarks on one Node.js release, installed by scripts/node-release.sh: every process they time or start
# (the daemon, the client commands, the floors) runs on it. The installed packages are those of the checkout.
# Usage: scripts/bench-on-node.sh VERSION [npm run bench arguments …]   (run from the repository root)
set -euo pipefail
bin="$(bash "$(dirname "$0")/node-release.sh" "$1")"
shift
export PATH="$bin:$PATH"
echo "== Node $(node --version)" >&2
npm run bench -- "$@"

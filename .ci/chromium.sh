#!/usr/bin/env bash
# Installs Debian's Chromium when missing (end-to-end tests drive it with playwright-core; browser
# downloads are not possible here). Prints nothing on stdout.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "chromium.sh: Chromium is missing; install the Debian package 'chromium' (needs root)" >&2
  exit 1
fi
echo "chromium.sh: installing Debian's chromium" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2

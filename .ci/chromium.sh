#!/usr/bin/env bash
# Installs Debian's Chromium and the fonts the application PDF needs when missing (end-to-end tests
# drive Chromium with playwright-core; browser downloads are not possible here; the server prints
# PDFs with it, and applicants' answers may hold emoji). Prints nothing on stdout.
set -euo pipefail
packages=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  packages+=(chromium fonts-dejavu-core)
fi
if [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
  packages+=(fonts-noto-color-emoji)
fi
[ ${#packages[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "chromium.sh: missing Debian packages: ${packages[*]} (installing them needs root)" >&2
  exit 1
fi
echo "chromium.sh: installing ${packages[*]}" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2

#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (Playwright drives it through executablePath;
# we never download a browser with `playwright install`). Installs it with apt-get when missing.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  echo "chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo -n); else
  echo "chromium is missing at $CHROMIUM and we are not root: install Debian's 'chromium' package (or set CHROMIUM_PATH)" >&2
  exit 1
fi

echo "chromium: not found at $CHROMIUM, installing Debian's package with apt-get"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
echo "chromium: $("$CHROMIUM" --version)"

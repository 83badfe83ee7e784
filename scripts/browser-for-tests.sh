#!/usr/bin/env bash
# Print the Chromium the chronicle's browser test drives (tests/browser.py), installing
# Debian's `chromium` package when it is missing (needs root, as in CI). Playwright drives it
# through its protocol; the browser builds Playwright downloads do not install on these
# machines. Exits non-zero, printing why, when no browser can be had.
set -euo pipefail
BROWSER="${ARBITRO_TEST_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$BROWSER" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "chromium is not installed and this is not root: skipping the browser tests" >&2
    exit 1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >&2
fi
if [ ! -x "$BROWSER" ]; then
  echo "no Chromium at $BROWSER after installing: skipping the browser tests" >&2
  exit 1
fi
echo "$BROWSER"

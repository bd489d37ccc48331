#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt (the engines) and
# scripts/debian-test-packages.txt (what the tests drive: a headless browser, a terminal) that are
# missing. Fast when all are present (one dpkg query), so `make dev` and `make test` call it every
# time. The worker image reads only debian-packages.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mapfile -t wanted < <(grep -hvE '^\s*(#|$)' "$here/debian-packages.txt" "$here/debian-test-packages.txt")

missing=()
for pkg in "${wanted[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "[system-deps] missing packages and no apt-get here: ${missing[*]}" >&2
  echo "[system-deps] install them with your package manager, or use docker-compose." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "[system-deps] need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "[system-deps] installing ${#missing[@]} Debian package(s): ${missing[*]}" >&2
start=$(date +%s)
$sudo apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >&2
echo "[system-deps] done in $(( $(date +%s) - start ))s" >&2

#!/usr/bin/env bash
# Installs Debian's metapixel (the classic photomosaic tool the engine benchmark compares against)
# when it is missing.
set -euo pipefail
command -v metapixel >/dev/null 2>&1 && exit 0
echo "Installing metapixel from Debian's packages…" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq -o DPkg::Lock::Timeout=300
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 metapixel >/dev/null

#!/usr/bin/env bash
# Installs what the scale-mode tests need from Debian's packages when it is missing: redis-server and
# PostgreSQL. The tests start their own instances on free ports in temporary folders; the packages'
# system services are not used (and are stopped again if installing them started them).
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing ${missing[*]} from Debian's packages…" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq -o DPkg::Lock::Timeout=300
# policy-rc.d 101: do not start the packages' own services on the standard ports.
policy=/usr/sbin/policy-rc.d
created_policy=false
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
  "${sudo_cmd[@]}" chmod +x "$policy"
  created_policy=true
fi
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
if $created_policy; then "${sudo_cmd[@]}" rm -f "$policy"; fi

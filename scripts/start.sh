#!/bin/sh
# `npm start`: build what the server serves, then run it. The compilers' own output shows only with
# VERBOSE=1, or when the build fails (so the reason is on screen).
set -eu
cd "$(dirname "$0")/.."
if [ -n "${VERBOSE:-}" ]; then
  npm run build
else
  echo 'Building the packages and the server (tsc) and the web app (vite); VERBOSE=1 shows their output…'
  started=$(date +%s)
  log=$(mktemp)
  if ! npm run build --silent >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  echo "Built in $(($(date +%s) - started)) s. Starting the server (PORT=${PORT:-3000}):"
fi
# The old generation starts at 64 MB: see the Dockerfile's CMD.
exec node --initial-old-space-size=64 apps/server/dist/server.js

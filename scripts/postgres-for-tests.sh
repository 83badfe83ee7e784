#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster on 127.0.0.1:55432 for the test suite and print the
# URL to export as ARBITRO_TEST_POSTGRES_URL. Installs Debian's postgresql when it is missing
# (needs root, as in CI). Exits non-zero, printing why, when no server can be had.
set -euo pipefail
PORT="${ARBITRO_TEST_POSTGRES_PORT:-55432}"
DATA="${ARBITRO_TEST_POSTGRES_DATA:-/tmp/arbitro-pgdata}"
bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(bin_dir)" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgresql is not installed and this is not root: skipping PostgreSQL tests" >&2
    exit 1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2
fi
BIN="$(bin_dir)"
run_as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

if ! run_as_postgres "$BIN/pg_isready -h 127.0.0.1 -p $PORT" >/dev/null 2>&1; then
  rm -rf "$DATA" && mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown postgres "$DATA"
  run_as_postgres "$BIN/initdb -D $DATA -A trust -U postgres" >/dev/null
  run_as_postgres "$BIN/pg_ctl -D $DATA -o '-p $PORT -k /tmp -c listen_addresses=127.0.0.1' -l $DATA/server.log -w start" >/dev/null
fi
run_as_postgres "psql -h 127.0.0.1 -p $PORT -U postgres -tAc \"select 1 from pg_database where datname='arbitro_test'\"" | grep -q 1 \
  || run_as_postgres "psql -h 127.0.0.1 -p $PORT -U postgres -c 'create database arbitro_test'" >/dev/null
echo "postgresql+asyncpg://postgres@127.0.0.1:$PORT/arbitro_test"

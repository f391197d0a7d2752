#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL 15: a fresh cluster in a temporary folder, on a random free
# port, listening on 127.0.0.1 only, removed again when the command ends (whatever happens).
#   bash scripts/with-postgres.sh npm run test:api
# The command sees TEST_DATABASE_URL (what tests/helpers/app.ts reads; each test file makes its own schema).
# Installs Debian's `postgresql` with apt-get when the binaries are missing. PG_BINDIR overrides where they are.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 <command> [args...]" >&2; exit 2; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

find_bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  local d
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return; }
  done
  return 0
}

BINDIR="$(find_bindir)"
if [ -z "$BINDIR" ]; then
  echo "postgresql: binaries not found, installing Debian's package with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  BINDIR="$(find_bindir)"
  [ -n "$BINDIR" ] || { echo "postgresql: still no initdb/pg_ctl under /usr/lib/postgresql after installing" >&2; exit 1; }
fi

# initdb and pg_ctl refuse to run as root: then the cluster belongs to the `postgres` user.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/false postgres
  AS_PG=(runuser -u postgres --)
  PGUSER_NAME=postgres
else
  AS_PG=()
  PGUSER_NAME="$(id -un)"
fi

# Below the kernel's ephemeral range (32768 and up, /proc/sys/net/ipv4/ip_local_port_range): a port there can be the local
# end of some client's connection — nothing answers on it, yet it cannot be bound.
free_port() {
  local p i
  for i in $(seq 1 50); do
    p=$((20000 + RANDOM % 12000))
    # Nothing answers on it (bash's /dev/tcp connect fails) → free.
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "no free port found" >&2
  return 1
}

TMP="$(mktemp -d "${TMPDIR:-/tmp}/bhagya-pg.XXXXXX")"
PORT="$(free_port)"
started=0
cleanup() {
  local rc=$?
  if [ "$started" = 1 ]; then "${AS_PG[@]}" "$BINDIR/pg_ctl" -D "$TMP/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$TMP/data" "$TMP/sock"
[ "$(id -u)" -eq 0 ] && chown -R postgres: "$TMP"
chmod 700 "$TMP"

"${AS_PG[@]}" "$BINDIR/initdb" -D "$TMP/data" -U "$PGUSER_NAME" --auth=trust -E UTF8 --locale=C.UTF-8 >"$TMP/initdb.log" 2>&1 \
  || { cat "$TMP/initdb.log" >&2; exit 1; }
# Throwaway data: durability off makes the tests faster. The same options for the start below and for TEST_PG_START.
PG_OPTS="-c listen_addresses=127.0.0.1 -k $TMP/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
started=1
# A port taken between the look and the start (another run, another test's server): another port, a few times.
for attempt in 1 2 3 4 5; do
  : >"$TMP/server.log"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$TMP/server.log"
  if "${AS_PG[@]}" "$BINDIR/pg_ctl" -D "$TMP/data" -l "$TMP/server.log" -w -t 60 start -o \
    "-p $PORT $PG_OPTS" >/dev/null 2>&1; then
    break
  fi
  if [ "$attempt" = 5 ] || ! grep -q 'Address already in use' "$TMP/server.log"; then cat "$TMP/server.log" >&2; exit 1; fi
  PORT="$(free_port)"
done
"${AS_PG[@]}" "$BINDIR/createdb" -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" bhagya_test

export TEST_DATABASE_URL="postgresql://$PGUSER_NAME@127.0.0.1:$PORT/bhagya_test"
# For the outage proof (bench/outage.ts): the commands that stop this server and start it again, as they are.
export TEST_PG_STOP="${AS_PG[*]} $BINDIR/pg_ctl -D $TMP/data -m fast -w stop"
export TEST_PG_START="${AS_PG[*]} $BINDIR/pg_ctl -D $TMP/data -l $TMP/server.log -w -t 60 start -o '-p $PORT $PG_OPTS'"
echo "postgresql: $("$BINDIR/postgres" --version | sed 's/^postgres //') on 127.0.0.1:$PORT (throwaway, $TMP)"

set +e
"$@"
rc=$?
set -e
exit "$rc"

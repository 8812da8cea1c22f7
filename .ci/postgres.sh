#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the test suite and prints the settings that point at it.
#
#   eval "$(bash .ci/postgres.sh)"          # start; prints only `export` lines on stdout
#   bash .ci/postgres.sh stop "$PGTEST_DATA_DIR"   # stop that server and delete its data dir
#
# Start prints exactly:
#   export TEST_DATABASE_URL=postgres://app_test:app_test@127.0.0.1:<PORT>/app_test
#   export TEST_DATABASE_ADMIN_URL=postgres://postgres@127.0.0.1:<PORT>/postgres
#   export PGTEST_DATA_DIR=<dir>
# `app_test` is a login role with CREATEDB CREATEROLE but not superuser; it owns database `app_test`.
# The port is $PGTEST_PORT (default 55432), or the next free one up to +20.
#
# Server binaries (initdb, pg_ctl, postgres) are taken from PATH, else the newest
# /usr/lib/postgresql/*/bin; if neither has them and we are root, the Debian `postgresql` package is
# installed with apt-get. PostgreSQL will not run as root, so as root the server runs as the
# `postgres` system user, or a `pgtest` system user created for the purpose.
#
# Everything except the export lines goes to stderr; failure exits non-zero with a message.
set -euo pipefail

# Keep the real stdout on fd 3 for the export lines; anything else written to stdout lands on stderr.
# Commands that may leave a daemon behind (pg_ctl start, apt-get's postinst) get fd 3 closed:
# a server holding the pipe open would make the caller's "$(...)" wait forever.
exec 3>&1 1>&2

log() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { printf 'postgres.sh: error: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------------
# Binaries

BIN_DIR=''

# Sets BIN_DIR to a directory holding initdb, pg_ctl and postgres; returns 1 if there is none.
find_server_bin() {
  local p dir d
  if p=$(command -v initdb 2>/dev/null) && command -v pg_ctl >/dev/null 2>&1 \
      && command -v postgres >/dev/null 2>&1; then
    # Resolve symlinks (e.g. /usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb) so that
    # psql/pg_isready of the same version are found next to it.
    dir=$(dirname "$(readlink -f "$p")")
    if [[ -x $dir/pg_ctl && -x $dir/postgres ]]; then
      BIN_DIR=$dir
    else
      # The three are on PATH but not side by side; pg_prog falls back to PATH for what is not
      # in initdb's directory.
      BIN_DIR=$(dirname "$p")
    fi
    return 0
  fi
  dir=''
  while IFS= read -r d; do
    if [[ -x $d/initdb && -x $d/pg_ctl && -x $d/postgres ]]; then dir=$d; fi
  done < <(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V)
  if [[ -n $dir ]]; then BIN_DIR=$dir; return 0; fi
  return 1
}

# Prints the path of a PostgreSQL program: next to the server binaries, else on PATH.
pg_prog() {
  local name=$1
  if [[ -n $BIN_DIR && -x $BIN_DIR/$name ]]; then
    printf '%s\n' "$BIN_DIR/$name"
  elif command -v "$name" >/dev/null 2>&1; then
    command -v "$name"
  else
    return 1
  fi
}

ensure_server_bin() {
  if find_server_bin; then return 0; fi
  if [[ $EUID -ne 0 ]]; then
    die "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH or in /usr/lib/postgresql/*/bin, and not root so cannot apt-get install them"
  fi
  command -v apt-get >/dev/null 2>&1 \
    || die "PostgreSQL server binaries not found and apt-get is not available to install them"
  log "PostgreSQL server binaries not found; installing the Debian 'postgresql' package"
  apt-get update >&2 3>&- || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2 3>&- \
    || die "apt-get install postgresql failed"
  find_server_bin || die "installed postgresql but still cannot find initdb/pg_ctl/postgres"
}

# ---------------------------------------------------------------------------------------------------
# Running as the unprivileged user

RUN_USER=''

choose_user() {
  if [[ $EUID -ne 0 ]]; then
    RUN_USER=$(id -un)
    return
  fi
  if id -u postgres >/dev/null 2>&1; then
    RUN_USER=postgres
  else
    if ! id -u pgtest >/dev/null 2>&1; then
      log "creating system user pgtest"
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pgtest \
        || die "could not create system user pgtest"
    fi
    RUN_USER=pgtest
  fi
}

# Runs a command as RUN_USER (directly when we are not root), from / so that the user's lack of
# access to the caller's working directory does not matter.
as_user() {
  if [[ $EUID -ne 0 ]]; then
    (cd / && "$@") 3>&-
  elif command -v runuser >/dev/null 2>&1; then
    (cd / && runuser -u "$RUN_USER" -- "$@") 3>&-
  else
    local cmd='' a
    for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
    (cd / && su -s /bin/sh "$RUN_USER" -c "exec$cmd") 3>&-
  fi
}

# Runs a command with every file descriptor above 2 closed, so that a daemon it leaves behind holds
# none of the caller's pipes open (fd 3 here is the caller's "$(...)"; CI runners have their own).
without_extra_fds() {
  (
    local fd
    for fd in /proc/self/fd/*; do
      fd=${fd##*/}
      if [[ $fd =~ ^[0-9]+$ ]] && ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    "$@"
  )
}

# ---------------------------------------------------------------------------------------------------
# stop subcommand

if [[ ${1:-} == stop ]]; then
  [[ $# -eq 2 ]] || die "usage: $0 stop <data-dir>"
  DATA_DIR=$2
  [[ -d $DATA_DIR ]] || die "data dir '$DATA_DIR' does not exist"
  [[ -f $DATA_DIR/PG_VERSION ]] \
    || die "'$DATA_DIR' does not look like a PostgreSQL data dir (no PG_VERSION); refusing to delete it"
  ensure_server_bin
  PG_CTL=$(pg_prog pg_ctl) || die "pg_ctl not found"
  if [[ $EUID -eq 0 ]]; then
    RUN_USER=$(stat -c %U "$DATA_DIR")
    [[ $RUN_USER != root && $RUN_USER != UNKNOWN ]] \
      || die "data dir '$DATA_DIR' is owned by '$RUN_USER', expected an unprivileged user"
  else
    RUN_USER=$(id -un)
  fi
  if as_user "$PG_CTL" -D "$DATA_DIR" status >/dev/null 2>&1; then
    log "stopping PostgreSQL in $DATA_DIR"
    as_user "$PG_CTL" -D "$DATA_DIR" -m fast -w -t 60 stop >&2 \
      || die "pg_ctl stop failed for $DATA_DIR (log: $DATA_DIR/server.log)"
  else
    log "no server running in $DATA_DIR"
  fi
  rm -rf -- "$DATA_DIR"
  log "removed $DATA_DIR"
  exit 0
fi

[[ $# -eq 0 || ${1:-} == start ]] || die "usage: $0 [start] | $0 stop <data-dir>"

# ---------------------------------------------------------------------------------------------------
# start

BASE_PORT=${PGTEST_PORT:-55432}
[[ $BASE_PORT =~ ^[0-9]+$ ]] && ((BASE_PORT >= 1 && BASE_PORT <= 65515)) \
  || die "PGTEST_PORT must be a port number between 1 and 65515, got '$BASE_PORT'"

ensure_server_bin
INITDB=$(pg_prog initdb) || die "initdb not found"
PG_CTL=$(pg_prog pg_ctl) || die "pg_ctl not found"
PSQL=$(pg_prog psql) || die "psql not found (expected next to initdb in $BIN_DIR or on PATH)"
PG_ISREADY=$(pg_prog pg_isready) || PG_ISREADY=''
log "using $("$INITDB" --version) from $BIN_DIR"

choose_user
log "running the server as user $RUN_USER"

DATA_DIR=''
STARTED=0
cleanup_on_error() {
  local rc=$?
  if ((rc != 0)) && [[ -n $DATA_DIR ]]; then
    if ((STARTED)); then
      as_user "$PG_CTL" -D "$DATA_DIR" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    if [[ -f $DATA_DIR/server.log ]]; then
      log "last lines of $DATA_DIR/server.log:"
      tail -n 20 "$DATA_DIR/server.log" >&2 || true
    fi
    rm -rf -- "$DATA_DIR"
  fi
}
trap cleanup_on_error EXIT

# Fixed /tmp (not $TMPDIR): the unprivileged user must be able to reach it, and unix socket paths
# inside it must stay short.
DATA_DIR=$(mktemp -d /tmp/pgtest.XXXXXX) || die "mktemp failed"
if [[ $EUID -eq 0 ]]; then chown "$RUN_USER": "$DATA_DIR"; fi
chmod 700 "$DATA_DIR"

log "initdb in $DATA_DIR"
if ! out=$(as_user "$INITDB" -D "$DATA_DIR" -U postgres --auth=trust --encoding=UTF8 --locale=C 2>&1); then
  printf '%s\n' "$out" >&2
  die "initdb failed"
fi

# True if something accepts connections (or at least answers) on 127.0.0.1:$1.
port_in_use() {
  local port=$1 rc
  if [[ -n $PG_ISREADY ]]; then
    rc=0
    "$PG_ISREADY" -q -h 127.0.0.1 -p "$port" -t 2 >/dev/null 2>&1 || rc=$?
    # 0 = accepting, 1 = rejecting (e.g. starting up): a PostgreSQL server is there.
    if ((rc == 0 || rc == 1)); then return 0; fi
  fi
  # Any other kind of listener.
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

PORT=''
for ((port = BASE_PORT; port <= BASE_PORT + 20; port++)); do
  if port_in_use "$port"; then
    log "port $port is in use, trying the next one"
    continue
  fi
  log_size=0
  [[ -f $DATA_DIR/server.log ]] && log_size=$(stat -c %s "$DATA_DIR/server.log")
  log "starting PostgreSQL on 127.0.0.1:$port"
  if without_extra_fds as_user "$PG_CTL" -D "$DATA_DIR" -l "$DATA_DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$DATA_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >&2; then
    PORT=$port
    STARTED=1
    break
  fi
  # Lost a race for the port? Then try the next one; otherwise give up.
  if tail -c +"$((log_size + 1))" "$DATA_DIR/server.log" 2>/dev/null \
      | grep -q 'Address already in use'; then
    log "port $port was taken while starting, trying the next one"
    continue
  fi
  die "pg_ctl start failed on port $port (server log follows)"
done
[[ -n $PORT ]] || die "no free port in $BASE_PORT..$((BASE_PORT + 20)) on 127.0.0.1"

log "creating role and database app_test"
if ! out=$("$PSQL" -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE app_test LOGIN PASSWORD 'app_test' NOSUPERUSER CREATEDB CREATEROLE" \
    -c "CREATE DATABASE app_test OWNER app_test" 2>&1); then
  printf '%s\n' "$out" >&2
  die "could not create role/database app_test"
fi

trap - EXIT
log "PostgreSQL ready on 127.0.0.1:$PORT (data dir $DATA_DIR; stop with: bash .ci/postgres.sh stop $DATA_DIR)"

printf 'export TEST_DATABASE_URL=postgres://app_test:app_test@127.0.0.1:%s/app_test\n' "$PORT" >&3
printf 'export TEST_DATABASE_ADMIN_URL=postgres://postgres@127.0.0.1:%s/postgres\n' "$PORT" >&3
printf 'export PGTEST_DATA_DIR=%s\n' "$DATA_DIR" >&3

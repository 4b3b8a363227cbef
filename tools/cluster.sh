# tools/cluster.sh — throwaway PostgreSQL clusters for make test and make demo.
#
# Sourced, not run.  A cluster lives entirely in one temporary directory:
# data, a private Unix socket directory (listen_addresses = '') and the log.
# initdb and postgres refuse to run as root, so as root every server-side
# command runs as the unprivileged "postgres" account (PGBENCH_EXT_OS_USER
# overrides), which then owns the directory.
#
# After cluster_start:  PGHOST, PGPORT, PGUSER, CLUSTER_DIR, CLUSTER_BINDIR set.

: "${PG_CONFIG:=pg_config}"

as_server_user() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "${PGBENCH_EXT_OS_USER:-postgres}" -- "$@"
	else
		"$@"
	fi
}

# cluster_start DIR [SETTING=VALUE ...]
cluster_start() {
	CLUSTER_DIR=$1
	shift
	CLUSTER_BINDIR=$("$PG_CONFIG" --bindir)
	mkdir -p "$CLUSTER_DIR/sock"
	if [ "$(id -u)" = 0 ]; then
		chown -R "${PGBENCH_EXT_OS_USER:-postgres}" "$CLUSTER_DIR"
	fi
	chmod 700 "$CLUSTER_DIR/sock"

	as_server_user "$CLUSTER_BINDIR/initdb" -D "$CLUSTER_DIR/data" -U postgres -A trust \
		--no-sync >"$CLUSTER_DIR/initdb.log" 2>&1 || {
		echo "cluster: initdb failed; its output:" >&2
		cat "$CLUSTER_DIR/initdb.log" >&2
		return 1
	}

	# Any port works behind a private socket directory; a random one keeps
	# SysV shared-memory keys of concurrent clusters apart.
	PGPORT=$((20000 + RANDOM % 30000))
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$CLUSTER_DIR/sock'"
		echo "port = $PGPORT"
		echo "shared_preload_libraries = 'pgbench_ext'"
		for setting in "$@"; do echo "$setting"; done
	} >>"$CLUSTER_DIR/data/postgresql.auto.conf"

	as_server_user "$CLUSTER_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" \
		-w -t 60 start >/dev/null || {
		echo "cluster: server did not start; its log:" >&2
		tail -20 "$CLUSTER_DIR/server.log" >&2
		return 1
	}
	export PGHOST="$CLUSTER_DIR/sock" PGPORT PGUSER=postgres
	unset PGDATABASE PGSERVICE PGPASSWORD
}

cluster_stop() {
	[ -n "${CLUSTER_DIR:-}" ] || return 0
	if [ -f "$CLUSTER_DIR/data/postmaster.pid" ]; then
		as_server_user "$CLUSTER_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	rm -rf "$CLUSTER_DIR"
	CLUSTER_DIR=
}

# bench/lib.sh — set-up shared by the benchmarks; sourced, not run.
#
# The benchmarks' one way to start a throwaway cluster (cluster_start,
# cluster_stop): they restart servers with other preloaded libraries, run
# them under valgrind or perf, and time pgbench against them directly, which
# the client's managed clusters (experiments: bench/calibrate.sh,
# bench/driver_cpu.sh) and the tests' PostgreSQL::Test::Cluster are not for.
#
# After bench_begin NAME: $work is a fresh directory the server account can
# enter (removed by each script's own EXIT trap), what the benchmarks need is
# installed (tools/deps install bench), and this tree is built and installed
# into PG_CONFIG's installation.

: "${PG_CONFIG:=pg_config}"
export PG_CONFIG

# A cluster lives entirely in one directory: data, a private Unix socket
# directory (listen_addresses = '') and the log.  initdb and postgres refuse
# to run as root, so as root every server-side command runs as the
# unprivileged "postgres" account (PGBENCH_EXT_OS_USER overrides, as for the
# client), which then owns the directory.
as_server_user() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "${PGBENCH_EXT_OS_USER:-postgres}" -- "$@"
	else
		"$@"
	fi
}

# cluster_start DIR [SETTING ...]: a started cluster with pgbench_ext
# preloaded unless a setting says otherwise (the last one written wins).
# Sets PGHOST, PGPORT, PGUSER, CLUSTER_DIR and CLUSTER_BINDIR.
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

# cluster_stop: stop and remove the cluster in CLUSTER_DIR, if any.
cluster_stop() {
	[ -n "${CLUSTER_DIR:-}" ] || return 0
	if [ -f "$CLUSTER_DIR/data/postmaster.pid" ]; then
		as_server_user "$CLUSTER_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	rm -rf "$CLUSTER_DIR"
	CLUSTER_DIR=
}

# bench_results_dir NAME: $work is $OUT (made if need be, and kept) or a
# fresh directory under /tmp removed at exit; either one the server
# account can enter.  For the scripts that run the client's experiments
# and keep their results directories only when asked.
bench_results_dir() {
	if [ -n "${OUT:-}" ]; then
		work=$OUT
		mkdir -p "$work"
	else
		work=$(mktemp -d "/tmp/pgbench_ext_$1.XXXXXX")
		trap 'rm -rf "$work"' EXIT
	fi
	chmod 755 "$work"
}

bench_begin() {
	work=$(mktemp -d "/tmp/pgbench_ext_$1.XXXXXX")
	chmod 755 "$work"
	trap 'exit 130' INT TERM
	tools/deps install bench || exit 1
	make -s PG_CONFIG="$PG_CONFIG" >/dev/null && make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# bench_cluster DIR [SETTING ...]: a started cluster (pgbench_ext preloaded
# unless a setting says otherwise) with pgbench tables of scale $SCALE (5).
bench_cluster() {
	local dir=$1
	shift
	cluster_start "$dir" "max_connections = 20" "$@" >/dev/null
	"$CLUSTER_BINDIR/pgbench" -i -q -s "${SCALE:-5}" postgres >/dev/null 2>&1
}

# The variants the overhead benchmarks compare, one a line:
# name|shared_preload_libraries|PGOPTIONS for the pgbench sessions|server settings
BENCH_VARIANTS="none|||
pgbench_ext|pgbench_ext||
pgbench_ext_nosampler|pgbench_ext||pgbench_ext.sample_interval_ms = 0
pgbench_ext_hw|pgbench_ext|-c pgbench_ext.track_hw=on|
pg_stat_statements|pg_stat_statements||
pgss_kcache|pg_stat_statements,pg_stat_kcache||
pg_wait_sampling|pg_wait_sampling||"

bench_port() { sed -n 4p "$1/data/postmaster.pid"; }

# bench_sql DIR SQL: one statement on the cluster in DIR, its rows unaligned
bench_sql() {
	"$CLUSTER_BINDIR/psql" -X -q -A -t -h "$1/sock" -p "$(bench_port "$1")" -c "$2" postgres
}

# SETTINGS (lines of postgresql.conf, may be empty) as the cluster's variant.conf
bench_variant_conf() {
	grep -qx "include_if_exists = 'variant.conf'" "$1/data/postgresql.conf" ||
		echo "include_if_exists = 'variant.conf'" >>"$1/data/postgresql.conf"
	echo "$2" >"$1/data/variant.conf"
}

# bench_reload_with DIR SETTINGS: a variant's server settings by reload,
# for variants that share a running cluster
bench_reload_with() {
	bench_variant_conf "$1" "$2"
	bench_sql "$1" "SELECT pg_reload_conf()" >/dev/null
	sleep 0.1
}

# bench_restart_with DIR LIBS SETTINGS: restart the cluster in DIR with LIBS
# (comma-separated, may be empty) as shared_preload_libraries and SETTINGS in
# its variant.conf, and check that the server preloads LIBS.
# postgresql.auto.conf holds shared_preload_libraries (cluster_start wrote it
# there), so the libraries go through ALTER SYSTEM; ALTER SYSTEM SET ... = ''
# would store '""', a library named "", hence RESET for none.
bench_restart_with() {
	local dir=$1 libs=$2 settings=$3 loaded
	bench_variant_conf "$dir" "$settings"
	if [ -z "$libs" ]; then
		bench_sql "$dir" "ALTER SYSTEM RESET shared_preload_libraries"
	else
		bench_sql "$dir" "ALTER SYSTEM SET shared_preload_libraries = $(echo "$libs" | sed "s/[^,]*/'&'/g")"
	fi
	as_server_user "$CLUSTER_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
		-w -t 60 restart >/dev/null
	loaded=$(bench_sql "$dir" "SHOW shared_preload_libraries" | tr -d ' "')
	if [ "$loaded" != "$libs" ]; then
		echo "bench: $dir preloads \"$loaded\" where \"$libs\" was asked for" >&2
		return 1
	fi
}

# quiet_flags CONFIG: the [experiment] keys of a quieting configuration
# (bench/quiet.sh, bench/decide.sh) as ab's flags.  Every one names its
# schedule and aslr, so that a configuration means the same whatever the default
# (base: interleaved rounds and nothing else, the defaults before
# schedule = auto; a duet's CPUs traded between rounds only, as before
# swap_interval: duet-swap trades them every 100 ms within a run,
# duet-swap25 every 25 ms; randomization on, as before aslr = auto) — but
# defaults, which passes no key and so measures the client's defaults of
# the day.
quiet_flags() {
	case $1 in
		defaults) echo "" ;;
		base | interleaved) echo "--schedule interleaved --aslr on" ;;
		pin) echo "--schedule interleaved --pin on --aslr on" ;;
		aslr-off) echo "--schedule interleaved --aslr off" ;;
		prewarm) echo "--schedule interleaved --prewarm on --aslr on" ;;
		duet | duet3) echo "--schedule duet --swap-interval off --aslr on" ;;
		duet-swap) echo "--schedule duet --swap-interval 100ms --aslr on" ;;
		duet-swap25) echo "--schedule duet --swap-interval 25ms --aslr on" ;;
		duet-swap-aslr) echo "--schedule duet --swap-interval 100ms --aslr off" ;;
		quiet) echo "--schedule interleaved --pin on --aslr off --prewarm on" ;;
		quiet-duet) echo "--schedule duet --swap-interval off --aslr off --prewarm on" ;;
		huge) echo "--schedule interleaved --huge-pages on --aslr on" ;;
		huge-duet) echo "--schedule duet --swap-interval off --huge-pages on --aslr on" ;;
		*) echo "bench: unknown configuration \"$1\"" >&2; return 2 ;;
	esac
}

# counted_metric SUMMARY: the first counted metric of a results directory's
# summary.json (instructions per transaction, its first cell) as one line:
# A's median, B's, B/A, the CI's ends (ratios, unrounded), decision, verdict
counted_metric() {
	perl -MJSON::PP -e '
		my $s = JSON::PP->new->decode(do { local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n"; <$f> });
		my $m = $s->{profiles}{cells}[0]{metrics}[0] or die "$ARGV[0]: no counted metric\n";
		print join(" ", map({ sprintf "%.17g", $_ } @$m{qw(a_median b_median estimate ci_low ci_high)}),
			@$m{qw(decision verdict)}), "\n";' "$1"
}

# bench_ab WHAT LOG CLIENT ARGS...: CLIENT ab ARGS, its output into LOG; if
# it fails, the end of that output and exit 1, naming WHAT
bench_ab() {
	local what=$1 log=$2 client=$3
	shift 3
	"$client" ab "$@" >"$log" 2>&1 || {
		echo "$0: $what failed; its output:" >&2
		tail -20 "$log" >&2
		exit 1
	}
}

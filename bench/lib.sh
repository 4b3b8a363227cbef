# bench/lib.sh — set-up shared by the benchmarks; sourced, not run.
#
# After bench_begin NAME: $work is a fresh directory the server account can
# enter (removed by each script's own EXIT trap) and this tree is built and
# installed into PG_CONFIG's installation.

: "${PG_CONFIG:=pg_config}"
export PG_CONFIG
. tools/cluster.sh

bench_begin() {
	work=$(mktemp -d "/tmp/pgbench_ext_$1.XXXXXX")
	chmod 755 "$work"
	trap 'exit 130' INT TERM
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

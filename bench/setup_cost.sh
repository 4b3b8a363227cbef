#!/bin/bash
# bench/setup_cost.sh — what the steps around a run cost in CPU: starting a
# process, a connection, a server, a copy of the run database, pgbench -i,
# and a whole minimal experiment of the client's, so that the share of
# make test's minutes that is set-up rather than load can be told from
# measurement (docs/measurements.md, "make test within its budget").
#
#   bench/setup_cost.sh [REPS]      (root; REPS of each step, 5 by default)
#
# Every process of a step, the server's included, runs in one
# CPU-accounting control group (cgroup v2's cpu.stat or v1's cpuacct, as
# bench/test_time.sh), so its CPU is counted whoever its parent becomes;
# each figure is the median over REPS of the group's CPU during the step,
# less that of an empty step.  Other load on the machine changes wall
# times, much less these.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
reps=${1:-5}

[ "$(id -u)" = 0 ] || { echo "bench/setup_cost.sh: needs root (control groups)" >&2; exit 2; }
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	root=/sys/fs/cgroup
	usage_us() { sed -n 's/^usage_usec //p' "$group/cpu.stat"; }
elif [ -d /sys/fs/cgroup/cpuacct ]; then
	root=/sys/fs/cgroup/cpuacct
	usage_us() { echo $(($(cat "$group/cpuacct.usage") / 1000)); }
else
	echo "bench/setup_cost.sh: no CPU-accounting control group hierarchy under /sys/fs/cgroup" >&2
	exit 2
fi
group=$root/pgbench_ext_setup_cost.$$
mkdir "$group"
bench_begin setup_cost
trap 'cluster_stop; echo $$ > "$root/cgroup.procs"; rmdir "$group" 2>/dev/null; rm -rf "$work"' EXIT
echo $$ >"$group/cgroup.procs"

# step NAME CMD...: the median CPU (ms) of REPS runs of CMD
base_ms=0
step() {
	local name=$1 i before
	shift
	local -a ms=()
	for ((i = 0; i < reps; i++)); do
		before=$(usage_us)
		"$@" >/dev/null 2>&1
		ms+=($((($(usage_us) - before) / 1000 - base_ms)))
	done
	printf '%-58s %6d ms\n' "$name" "$(printf '%s\n' "${ms[@]}" | sort -n | sed -n "$(((reps + 1) / 2))p")"
}
base_ms=$( (step empty true) | awk '{ print $(NF - 1) }')

bindir=$("$PG_CONFIG" --bindir)
cluster_start "$work/c"
sql() { as_server_user "$bindir/psql" -X -q -d "$1" -c "$2"; }
restart() { as_server_user "$bindir/pg_ctl" -D "$CLUSTER_DIR/data" -w -m fast restart >/dev/null; }
sql postgres 'CREATE DATABASE tmpl' >/dev/null
as_server_user "$bindir/pgbench" -q -i -s 1 tmpl >/dev/null 2>&1
copy() { sql postgres 'DROP DATABASE IF EXISTS run' && sql postgres "CREATE DATABASE run TEMPLATE tmpl $1" && sql run CHECKPOINT; }

echo "== one step each ($reps times, median; the server's processes counted)"
step 'a process (/bin/true as the server account)' as_server_user true
step 'a connection: psql -c "SELECT 1" (psql and a backend)' sql postgres 'SELECT 1'
step 'CHECKPOINT with nothing to write' sql postgres CHECKPOINT
step 'the server restarted (pg_ctl restart)' restart
step 'the run database copied (WAL_LOG), then CHECKPOINT' copy ''
if [ "$(as_server_user "$bindir/psql" -XAtc 'SHOW server_version_num' postgres)" -ge 150000 ]; then
	step 'the run database copied (FILE_COPY), then CHECKPOINT' copy 'STRATEGY FILE_COPY'
fi
step 'pgbench -i -s 1 (into a fresh database)' as_server_user "$bindir/pgbench" -q -i -s 1 tmpl
cluster_stop

echo "== a whole experiment of the client: two variants of this installation, 20 transactions a run"
export PGBENCH_EXT_INITDB_CACHE=$work/initdb-cache PGBENCH_EXT_STATE_DIR=$work/state
mkdir -m 700 "$PGBENCH_EXT_INITDB_CACHE"
chown "${PGBENCH_EXT_OS_USER:-postgres}" "$PGBENCH_EXT_INITDB_CACHE"
ab() {
	rm -rf "$work/ab"
	"$bindir/pgbench_ext" ab -s 1 -c 1 -t 20 -b select-only --seed 3 --variant A --bindir "$bindir" \
		--variant B --bindir "$bindir" -o "$work/ab" "$@"
}
ab -r 1 >/dev/null 2>&1 # the initdb cache's entry
step 'ab, 1 round (defaults: a duet, a restart before each round)' ab -r 1
step 'ab, 4 rounds (the same)' ab -r 4
step 'ab, 4 rounds, --restart never' ab -r 4 --restart never
step 'ab, 4 rounds, --restart never --reset never' ab -r 4 --restart never --reset never

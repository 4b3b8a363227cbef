#!/bin/bash
# bench/hook_instructions.sh — instructions each variant adds to a pgbench -S
# transaction in the backend, counted by callgrind.
#
# Times on a shared VM move by tens of per cent with the host's load, so the
# tps of overhead.sh cannot resolve a cost of a few hundred ns.  Instructions
# executed do not move: callgrind counts the same total for the same binary
# and input however busy the machine is.  For each variant a throwaway
# cluster is started under valgrind --tool=callgrind, each backend counted
# from the start of PostgresMain into its own file when it exits; then
# pgbench -n -S -c 1 runs SHORT and LONG transactions in turns, REPEAT times.
# The instructions of the backends that ended during a run are summed;
# (LONG sum - SHORT sum) / (LONG - SHORT) is the cost of one transaction with
# connection set-up and catalog warm-up cancelled out.  The spread over
# repeats is printed, so a reader can see how exact the count is.
#
# Counted: the backend's user-space instructions, the hooks' and those of the
# libc functions they call.  Not counted: the kernel and the vDSO.  Valgrind
# hides the vDSO, so a clock_gettime() is counted as its libc wrapper only
# (timed natively by bench/clock_cost.c, whose figure is printed last;
# pgbench_ext reads the clock three times per pgbench -S transaction), and a getrusage() per query (pg_stat_kcache)
# shows up only as its wrapper.  Cache misses are not counted either.  The ns
# column converts at the speed this machine's backend runs user-space code
# natively: pgbench_ext's own counters give the user CPU per transaction of a
# native pgbench -S -c 1 run (NATIVE seconds), divided by the instructions
# per transaction callgrind counted for the same variant.
#
#   PG_CONFIG=... bench/hook_instructions.sh   (SHORT=500 LONG=2500 REPEAT=2 NATIVE=10;
#                                               needs valgrind; VARIANTS="none pgbench_ext ...")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
SHORT=${SHORT:-500}
LONG=${LONG:-2500}
REPEAT=${REPEAT:-2}
NATIVE=${NATIVE:-10}

# The sampler is a process of its own and does not run in backends: the
# variant without it would count the same instructions.
VARIANTS=${VARIANTS:-$(echo "$BENCH_VARIANTS" | cut -d'|' -f1 | grep -v nosampler | paste -sd' ' -)}

bench_begin instr
postmaster=
# fast shutdown; each process writes its callgrind file as it exits
stop_valgrind_postmaster() {
	[ -n "$postmaster" ] || return 0
	kill -INT "$postmaster" 2>/dev/null
	while kill -0 "$postmaster" 2>/dev/null; do sleep 0.2; done
	postmaster=
}
trap 'stop_valgrind_postmaster; cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# Server children of the postmaster: a run is over when their number is back
# to what it was before (the backends it used have exited and been dumped).
children() { pgrep -c -P "$postmaster" || true; }
# the number of children once background workers have started: unchanged for 3 s
settled_children() {
	local last=-1 same=0 now
	while [ "$same" -lt 6 ]; do
		now=$(children)
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
		last=$now
		sleep 0.5
	done
	echo "$last"
}
wait_children() {
	for _ in $(seq 1 600); do
		[ "$(children)" -le "$1" ] && return 0
		sleep 0.2
	done
	echo "hook_instructions: backends did not exit" >&2
	exit 1
}

# one line "INSTRUCTIONS FILE" per callgrind file that appeared since the list in $1
new_files() {
	comm -13 "$1" <(ls "$cg" | sort) | while read -r f; do
		echo "$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$cg/$f") $f"
	done
}

# pgbench_ext's own functions in the backend of the last LONG run, per
# transaction (self cost: what the functions' own code executed)
profile_pgbench_ext() {
	local busiest
	busiest=$(new_files "$work/before" | sort -n | tail -1 | cut -d' ' -f2)
	echo "  where pgbench_ext's own instructions go, per transaction:"
	callgrind_annotate --inclusive=no --threshold=100 "$cg/$busiest" 2>/dev/null |
		awk -v n="$LONG" '/pgbench_ext\.so\]$/ {
			gsub(",", "", $1)
			fn = $(NF - 1)
			sub(/.*:/, "", fn)
			if ($1 / n >= 1) printf "    %-36s %6.0f\n", fn, $1 / n
		}'
}

native_user_ns_per_xact() {
	local opts=$1
	"$bin/psql" -X -q -c "CREATE EXTENSION IF NOT EXISTS pgbench_ext" -c "SELECT pgbench_ext.reset()" postgres >/dev/null
	PGOPTIONS=$opts "$bin/pgbench" -n -S -c 1 -T "$NATIVE" postgres >/dev/null 2>&1
	sleep 1
	"$bin/psql" -X -A -t -c "SELECT 1000 * max(value) FILTER (WHERE metric = 'cpu_user_us')
		/ nullif(max(value) FILTER (WHERE metric = 'commits'), 0)
		FROM pgbench_ext.counters() WHERE scope = 'xact'" postgres
}

echo "host: $(nproc) CPUs, $(uname -r); $("$PG_CONFIG" --version); valgrind $(valgrind --version)"
echo "pgbench -n -S -c 1, scale ${SCALE:-5}: ($LONG - $SHORT transactions) per sample, $REPEAT samples per variant"
result=$work/result
: >"$result"
for v in $VARIANTS; do
	line=$(echo "$BENCH_VARIANTS" | grep "^$v|") || { echo "hook_instructions: unknown variant \"$v\"" >&2; exit 2; }
	IFS='|' read -r name libs opts settings <<<"$line"
	bench_cluster "$work/$name" "autovacuum = off" "checkpoint_timeout = '1d'" \
		"shared_preload_libraries = '$libs'" ${settings:+"$settings"}
	bin=$CLUSTER_BINDIR
	"$bin/psql" -X -q -c "CREATE EXTENSION pg_prewarm" postgres
	user_ns=
	if [ "$name" = pgbench_ext ]; then
		user_ns=$(native_user_ns_per_xact "$opts")
	fi
	as_server_user "$bin/pg_ctl" -D "$CLUSTER_DIR/data" -w stop >/dev/null

	cg=$CLUSTER_DIR/callgrind
	mkdir -p "$cg" "$CLUSTER_DIR/tmp"
	chown "$(stat -c %U "$CLUSTER_DIR/data")" "$cg" "$CLUSTER_DIR/tmp"
	# Only what runs inside PostgresMain is counted: a backend's own work.  A
	# forked child would otherwise start with the postmaster's count so far.
	as_server_user env TMPDIR="$CLUSTER_DIR/tmp" valgrind -q --tool=callgrind \
		--toggle-collect=PostgresMain --callgrind-out-file="$cg/%p" \
		"$bin/postgres" -D "$CLUSTER_DIR/data" >"$CLUSTER_DIR/valgrind.log" 2>&1 &
	postmaster=$!
	for _ in $(seq 1 300); do
		"$bin/pg_isready" -q && break
		sleep 0.5
	done
	# as root, $! is runuser's pid: the postmaster is its child
	[ "$(id -u)" = 0 ] && postmaster=$(head -1 "$CLUSTER_DIR/data/postmaster.pid")
	idle=$(settled_children)
	# every page in shared buffers first: a transaction that reads its page
	# in costs thousands of instructions more than one that finds it there
	"$bin/psql" -X -q -c "SELECT pg_prewarm(c) FROM unnest(array['pgbench_accounts',
		'pgbench_accounts_pkey', 'pgbench_branches', 'pgbench_tellers']::regclass[]) c" postgres >/dev/null
	PGOPTIONS=$opts "$bin/pgbench" -n -S -c 1 -t "$SHORT" postgres >/dev/null 2>&1
	wait_children "$idle"

	samples=""
	for _ in $(seq 1 "$REPEAT"); do
		per_run=()
		for n in "$SHORT" "$LONG"; do
			ls "$cg" | sort >"$work/before"
			PGOPTIONS=$opts "$bin/pgbench" -n -S -c 1 -t "$n" postgres >/dev/null 2>&1
			wait_children "$idle"
			per_run+=("$(new_files "$work/before" | awk '{ s += $1 } END { print s + 0 }')")
		done
		samples="$samples $(( (per_run[1] - per_run[0]) / (LONG - SHORT) ))"
	done
	profile=
	[ "$name" = pgbench_ext ] && profile=$(profile_pgbench_ext)
	stop_valgrind_postmaster
	cluster_stop
	echo "$name${samples}" | tee -a "$result" | awk '{ printf "  %-20s instructions per transaction:", $1; for (i = 2; i <= NF; i++) printf " %d", $i; print "" }'
	[ -n "$profile" ] && echo "$profile"
	[ -n "$user_ns" ] && echo "user_ns $user_ns" >>"$result"
done

echo
awk '
	$1 == "user_ns" { user_ns = $2; next }
	{
		name[++n] = $1; s = 0; lo = $2; hi = $2
		for (i = 2; i <= NF; i++) { s += $i; if ($i < lo) lo = $i; if ($i > hi) hi = $i }
		mean[n] = s / (NF - 1); spread[n] = hi - lo
	}
	END {
		for (i = 1; i <= n; i++) if (name[i] == "none") base = mean[i]
		for (i = 1; i <= n; i++) if (name[i] == "pgbench_ext") ext = mean[i]
		ns_per_instr = (user_ns != "" && ext > 0) ? user_ns / ext : 0
		if (ns_per_instr > 0)
			printf "native user CPU per transaction with pgbench_ext: %.0f ns = %.3f ns per instruction\n\n", user_ns, ns_per_instr
		printf "%-20s %14s %8s %14s %9s %10s\n", "variant", "instr/xact", "spread", "added instr", "added", "added ns"
		for (i = 1; i <= n; i++) {
			d = base ? mean[i] - base : 0
			other = base && name[i] != "none"
			printf "%-20s %14.0f %8d %14s %9s %10s\n", name[i], mean[i], spread[i],
				(other ? sprintf("%+.0f", d) : ""),
				(other ? sprintf("%+.2f%%", 100 * d / base) : ""),
				((other && ns_per_instr) ? sprintf("%+.0f", d * ns_per_instr) : "")
		}
	}' "$result"

# the clock reads callgrind cannot see, timed natively
echo
${CC:-cc} -O2 -o "$work/clock_cost" bench/clock_cost.c && "$work/clock_cost"

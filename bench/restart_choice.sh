#!/bin/bash
# bench/restart_choice.sh — what restart = auto chooses, and what the
# pre-flight says of the budget, from each record of a noise history alone
# (docs/calibration.md, "restart = auto at a record's bounds").
#
#   bench/restart_choice.sh EXPERIMENT NOISE.csv [CLIENT ...]
#
# EXPERIMENT is an experiment file, or "demo" for make demo's first
# experiment (two servers of PG_CONFIG's installation, pgbench -S -c 1,
# 2-second runs, rounds = auto with a budget of 2m30s, reset = never), as
# tools/demo-experiments spells it: each CLIENT checks it as ab's flags
# ("ab ... --check", which clients have from commit c4db673 on).
# For every record of NOISE.csv (the host's history: noise.csv in the
# client's state directory, docs/experiments.md) of two servers whose sds
# both rest on 10 degrees of freedom or more, as restart = auto needs, and
# of the schedule SCHEDULE names (default duet-swap/aslr-off, the demo's),
# the dry run "CLIENT run EXPERIMENT --check" (of the demo "CLIENT ab
# ... --check") with that record as the whole history, for
# each CLIENT in turn (default client/pgbench_ext; a clone of another
# commit to compare): a line per record with each client's rounds between
# restarts and its word for the budget (can, may not, cannot), then per
# client how often each spacing and each word came, and the mean spacing;
# with two clients or more, from how many records the second chose fewer
# rounds than the first, and more.
# Nothing runs but the dry run: no server starts.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -lt 2 ]; then
	echo "usage: bench/restart_choice.sh EXPERIMENT NOISE.csv [CLIENT ...]" >&2
	exit 2
fi
experiment=$1
history=$2
shift 2
[ $# -gt 0 ] || set -- "$top/client/pgbench_ext"
schedule=${SCHEDULE:-duet-swap/aslr-off}
for f in "$history" "$@"; do
	[ -r "$f" ] || { echo "bench/restart_choice.sh: cannot read \"$f\"" >&2; exit 2; }
done

[ "$experiment" = demo ] || [ -r "$experiment" ] || { echo "bench/restart_choice.sh: cannot read \"$experiment\"" >&2; exit 2; }

work=$(mktemp -d /tmp/pgbench_ext_restart_choice.XXXXXX)
trap 'rm -rf "$work"' EXIT
export PGBENCH_EXT_STATE_DIR="$work"
if [ "$experiment" = demo ]; then
	. "$top/tools/demo-experiments"
	demo_across_servers "$("${PG_CONFIG:-pg_config}" --bindir)"
fi
# CLIENT's pre-flight of the experiment
check_with() {
	if [ "$experiment" = demo ]; then
		"$1" ab "${demo_flags[@]}" --check
	else
		"$1" run "$experiment" --check
	fi
}

# columns: 5 servers, 6 schedule, 8 round_df, 10 instance_df
awk -F, -v s="$schedule" 'NR > 1 && $5 == "two" && $6 == s && $8 >= 10 && $10 >= 10' "$history" >"$work/records"
echo "$(wc -l <"$work/records") records of two servers, $schedule, both sds on 10 df or more"

while read -r record; do
	{ head -1 "$history"; echo "$record"; } >"$work/noise.csv"
	line="$(echo "$record" | cut -d, -f2,7-10)"
	for client in "$@"; do
		out=$(check_with "$client")
		rounds=$(echo "$out" | sed -n 's/^restart = auto: every \([0-9]*\) round.*/\1/p')
		# the words of a client before the pre-flight spoke of power, and after
		if echo "$out" | grep -Eq "^pre-flight: warning: (this experiment's|in its) .* cannot decide"; then
			word=cannot
		elif echo "$out" | grep -Eq "^pre-flight: (warning: this experiment's .* may not decide|warning: in its .* sees a|in its .* keeps 80% even at)"; then
			word="may not"
		else
			word=can
		fi
		line="$line | ${rounds:-?} $word"
		[ "$client" != "$1" ] || first_rounds=${rounds:-?}
		[ "$client" != "${2:-}" ] || echo "$first_rounds	${rounds:-?}" >>"$work/pairs"
		echo "$client	${rounds:-?}	$word" >>"$work/choices"
	done
	echo "$line"
done <"$work/records"

echo
for client in "$@"; do
	awk -F'\t' -v c="$client" '$1 == c {
			n++; sum += $2; spacing[$2]++; word[$3]++
		}
		END {
			printf "%s: %d records, mean %.2f rounds between restarts;", c, n, n ? sum / n : 0
			for (r in spacing) printf " every %s: %d;", r, spacing[r]
			for (w in word) printf " %s: %d;", w, word[w]
			printf "\n"
		}' "$work/choices"
done
if [ $# -ge 2 ]; then
	awk -F'\t' -v a="$1" -v b="$2" '{ if ($2 < $1) fewer++; else if ($2 > $1) more++; else same++ }
		END { printf "%s against %s: fewer rounds between restarts from %d records, more from %d, the same from %d\n", b, a, fewer, more, same }' "$work/pairs"
fi

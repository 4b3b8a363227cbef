#!/bin/bash
# bench/test_time.sh — where make test's time goes: its wall time, and each
# TAP test's wall time and CPU time, the CPU of every process the test
# started counted (its servers too, which prove's own CPU column misses:
# pg_ctl leaves them to init).
#
#   bench/test_time.sh [make test's arguments, e.g. TEST_JOBS=4]
#   PG_CONFIG=/prefix/bin/pg_config bench/test_time.sh   a private installation
#   bench/test_time.sh --tap PROVE_TESTS='test/t/041_run_e2e.pl ...'
#                      the TAP tests alone (make prove_installcheck) on
#                      what is built and installed, without make test's
#                      installs, build and pg_regress
#
# Needs root: each TAP test runs in a CPU-accounting control group of its
# own (cgroup v2's cpu.stat, or v1's cpuacct), which every process it
# starts inherits, whoever its parent becomes.  Prints make test's own
# output, then a table of the tests, most CPU first, and the CPU of the
# whole machine against make test's during the run: when the two are near
# twice the wall time on a 2-core machine, the suite is bound by CPU and
# only less work shortens it.  docs/measurements.md's table came from this.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

target=test
if [ "${1:-}" = --tap ]; then
	target=prove_installcheck
	shift
fi
[ "$(id -u)" = 0 ] || { echo "bench/test_time.sh: needs root (control groups)" >&2; exit 2; }
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	root=/sys/fs/cgroup
	usage() { sed -n 's/^usage_usec //p' "$1/cpu.stat" | awk '{ printf "%.1f", $1 / 1e6 }'; }
elif [ -d /sys/fs/cgroup/cpuacct ]; then
	root=/sys/fs/cgroup/cpuacct
	usage() { awk '{ printf "%.1f", $1 / 1e9 }' "$1/cpuacct.usage"; }
else
	echo "bench/test_time.sh: no CPU-accounting control group hierarchy under /sys/fs/cgroup" >&2
	exit 2
fi
group=$root/pgbench_ext_test_time.$$
mkdir "$group"
wrapper=$(mktemp /tmp/pgbench_ext_test_time.XXXXXX)
trap 'echo $$ > "$root/cgroup.procs" 2>/dev/null || echo $$ > "$root/tasks"; rmdir "$group"/*/ "$group" 2>/dev/null; rm -f "$wrapper"' EXIT

# prove runs each test through this: into a group named for it, then perl
# with the include directories prove would have given
# (PG_CONFIG in the environment names the installation, as for make test)
pgxs_perl=$(dirname "$("${PG_CONFIG:-pg_config}" --pgxs)")/../../src/test/perl
cat > "$wrapper" <<EOF
#!/bin/sh
g="$group/\$(basename "\$1" .pl)"
mkdir -p "\$g"
echo \$\$ > "\$g/cgroup.procs" 2>/dev/null || echo \$\$ > "\$g/tasks"
PERL5LIB="$pgxs_perl:$top:$top/test/lib\${PERL5LIB:+:\$PERL5LIB}" exec perl "\$@"
EOF
chmod 755 "$wrapper"

machine_cpu() { awk '/^cpu / { printf "%.1f", ($2 + $3 + $4 + $7 + $8) / '"$(getconf CLK_TCK)"' }' /proc/stat; }
echo $$ > "$group/cgroup.procs" 2>/dev/null || echo $$ > "$group/tasks"
m0=$(machine_cpu)
start=$(date +%s)
log=$(mktemp /tmp/pgbench_ext_test_time_log.XXXXXX)
make -s "$target" PG_CONFIG="${PG_CONFIG:-pg_config}" PROVE_FLAGS="--exec $wrapper" "$@" | tee "$log" || true
wall=$(( $(date +%s) - start ))
m1=$(machine_cpu)

echo
echo "== each TAP test: wall s (prove --timer), CPU s (its control group)"
printf '%-40s %8s %8s\n' test wall CPU
for g in "$group"/*/; do
	name=$(basename "$g")
	w=$(sed -n "s/.*test\/t\/$name\.pl \.* ok *\([0-9]*\) ms.*/\1/p" "$log" | awk '{ printf "%.1f", $1 / 1000 }')
	printf '%-40s %8s %8s\n' "$name.pl" "${w:--}" "$(usage "$g")"
done | sort -k3 -rn
rm -f "$log"
echo "make $target: wall $wall s, CPU $(usage "$group") s (its TAP tests, and make test's build);" \
	"the machine's CPU $(awk "BEGIN { printf \"%.0f\", $m1 - $m0 }") s"

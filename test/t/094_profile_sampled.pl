# Sampled profiles (profile = sampled) on the installed PostgreSQL: perf
# samples the server during every run, each run gets its CPU time per
# transaction per function, and the report compares them as it compares
# tps.  Three variants on one server: A; B, the same (an A/A: no function
# changed beyond what chance gives once in 1,000); slow, with
# pgbench_ext.inject_delay_ns, a busy-wait before every commit in
# pgbench_ext's inject_delay_before_commit.  perf is killed during the
# first run: that run keeps its tps and says why it has no profile.
#
# What it assumes of the machine: perf, allowed to sample the servers'
# account's own processes (kernel.perf_event_paranoid <= 2; Debian's
# kernels ship 3 on some releases: the test then skips, saying so), any
# sampling event (a VM without the CPU's counters gets cpu-clock), call
# chains through postgres to PostgresMain, and symbols: Debian's postgres
# names its exported functions, pgbench_ext.so all of its own.  Where the
# busy-wait's time lands is the machine's clock path: in the loop's own
# function, or in clock_gettime's vDSO code or glibc's wrapper (a loaded
# host, kvm-clock or tsc), so any of them counts.
#
# The load is held to 500 transactions a second (pgbench -R) for the 2 s
# of a run: about 1,000 transactions, where a run at full speed kept a CPU
# busy for its 2 s and the 33 runs were half of this test's CPU (60 CPU-s
# then, 30 held).  What is sampled is CPU time, so a throttled run has
# fewer samples: a throttled transaction took 161-375 us of user-space
# CPU in two runs here and under 100 us in a third, as the host's load came
# and went (2-CPU AMD EPYC, kvm-clock, 2026-12-06; 31-46 us at full
# speed), and at the default 499 samples per CPU-second the third's runs
# had under 50, where the floor of a function a run lacks, half a sample,
# is over the 1% that makes a function compared: all 143 seen were, and
# none could reach q < 0.05.  So sample_rate = 4999: from 31 us a
# transaction up, 155 samples a run of A or more, the floor 0.3% at most
# (perf's cost, about 8
# us a sample, 4% of the servers' CPU, alike for every variant), and
# slow's busy-wait, 200 us in each of its transactions, about 1,000 more.
# The chance checks: the busy-wait runs in slow's transactions only, so
# every round of slow has about 1,000 of its samples (in its function or
# the clock's) and A's none: with 11 rounds (PGBENCH_EXT_TEST_LONG) its
# change is found in every round whatever the load (q <= 2 / 2^10 x the
# functions compared, the first round's A without a profile; under 0.05
# while 25 or fewer are); with 3, it is compared and costs more, which
# its 1,000 samples a run make certain.  B's functions would need half
# that busy-wait's time more than A's in the median round: 100 us a
# transaction, where its largest (the group of postgres's unnamed
# functions) took under a quarter of a transaction, at most 94 us at the
# heaviest: the host's load, which moved a whole transaction's CPU by
# 6-50% between A and B here, would have to double that function's in 6
# of 10 rounds, or 2 of 3 (at full speed, the bar was a quarter of a
# transaction), and its samples, hundreds a run, cannot by chance.  A run without
# samples (checked below) has a chance of e^-155.
use strict;
use warnings;

use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

# what the client itself refuses with (client/spec/profile_spec.c): a missing
# perf, or one that may not sample the servers' processes
{
	my $paranoid = -r '/proc/sys/kernel/perf_event_paranoid'
	  ? (slurp_file('/proc/sys/kernel/perf_event_paranoid') =~ /(-?\d+)/)[0] : undef;
	plan skip_all => 'no perf on PATH (tools/deps install brings linux-perf)'
	  unless grep { -x "$_/perf" } split /:/, $ENV{PATH};
	plan skip_all => "kernel.perf_event_paranoid is $paranoid: perf may not sample the servers' processes "
	  . '(as root: sysctl -w kernel.perf_event_paranoid=2)'
	  if defined $paranoid && $paranoid > 2;
}

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/sampled";

# the children of pid named comm
sub child_named
{
	my ($pid, $comm) = @_;
	opendir my $proc, '/proc' or die;
	foreach my $p (grep { /^\d+$/ } readdir $proc)
	{
		open my $fh, '<', "/proc/$p/stat" or next;
		my $stat = <$fh> // '';
		close $fh;
		return $p if $stat =~ /^\d+ \(\Q$comm\E\) \S (\d+)/ && $1 == $pid;
	}
	return undef;
}

# 11 rounds: a single changed function among ~15 needs 2 / 2^rounds * 15 <
# 0.05.  Those verdicts are PGBENCH_EXT_TEST_LONG=1's (make test-build, CI):
# 33 runs of 2 s, over two minutes of a loaded host; plain make test runs
# 3 rounds for the method (the first run without perf, every other run's
# samples, the tables, the flame graph), which needs no verdict.
my $verdicts = long_leg();
my $rounds = $verdicts ? 11 : 3;
my $runs = 3 * $rounds;
my @ab = ('ab', '-s', '1', '-c', '1', '-T', '2', '-r', $rounds, '-b', 'select-only', '--reset', 'never',
	'--pgbench-args', '-R 500', '--profile', 'sampled', '--sample-rate', '4999', '--seed', '5', '--verbose',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--cluster', 'A',
	'--variant', 'slow', '--cluster', 'A', '--session-set', 'pgbench_ext.inject_delay_ns=200000',
	'-o', $dir);
my ($out, $err) = ('', '');
my $h = IPC::Run::start([ client(), @ab ], '<', \undef, '>', \$out, '2>', \$err);
# perf of the first run, once pgbench has reported its first second
my $perf = wait_until(600, sub {
	-f "$dir/runs/0001.err" && slurp_file("$dir/runs/0001.err") =~ /^progress: /m
	  ? child_named($h->{KIDS}[0]{PID}, 'perf') : undef;
}, $h);
ok($perf && kill('KILL', $perf), 'perf killed during the first run');
$h->finish;
is($? >> 8, 0, 'a sampled experiment completes') or diag "$out\n$err";

my $json = JSON::PP->new;
my $exp = $json->decode(slurp_file("$dir/experiment.json"));
like($exp->{profile}{event}, qr/^(cpu-clock|cycles)$/, "the event is recorded: $exp->{profile}{event}");
is($exp->{spec}{experiment}{sample_rate}, 4999, 'and the sample rate');

my @runs = read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' && $_->{tps} > 0 } @runs), $runs, "all $runs runs ok, with their tps");
my ($first) = grep { $_->{run_id} == 1 } @runs;
like($first->{reason}, qr/^no sampled profile: perf (record failed \(signal 9\)|did not start sampling)/,
	"the run whose perf was killed says so: $first->{reason}");
ok(!-e "$dir/runs/0001.profile.json", 'and has no profile');
like($out, qr/^warning: 1 counted run\(s\) have no sampled profile: 1 /m, 'the report warns of it');
my $profiled = 0;
foreach my $run (grep { $_->{run_id} > 1 } @runs)
{
	my $p = $json->decode(slurp_file(sprintf("%s/runs/%04d.profile.json", $dir, $run->{run_id})));
	$profiled++ if $p->{samples} > 0 && $p->{events}[0] eq $exp->{profile}{event} && $p->{totals}[0] > 1000;
}
is($profiled, $runs - 1, 'every other run has samples, of the recorded event, more than 1 µs of CPU (or 1000 cycles) per transaction');
opendir my $d, "$dir/clusters/A/perf" or die;
is(scalar(grep { /\.data$/ } readdir $d), 0, 'perf\'s data files are removed once read');
closedir $d;

like($out, qr/^sampled profile \(runs as above\): (ns of CPU|cycles) per transaction \(user space\)$/m, 'the sampled table');
like($out, qr/^ select-only \| 1 +\| slow +\| (CPU ns|cycles)\/tx \(sampled\) \|/m, 'a row per metric');
like($out, qr/^function changes, select-only, 1 client: B vs A \([^)]*\):( none of \d+ functions compared$|\n)/m,
	'A/A: B\'s function changes are listed') if $verdicts;
like($out, qr/^function changes, select-only, 1 client: B vs A \([^)]*\): none of \d+ functions compared; with so few runs not even one function could reach q < alpha among \d+: make at least \d+ rounds$/m,
	'3 rounds: the report says that no function change could be found, and what would find one') unless $verdicts;
# The busy-wait's own time is inject_delay_before_commit's, or that of the
# clock it reads in its loop (clock_gettime, the vDSO), where perf puts
# most of it when the machine is loaded; its call chains are checked below.
my $busy_wait = qr/inject_delay_before_commit|\[vdso\]|clock_gettime\S*/;
like($out, qr/^function changes, select-only, 1 client: slow vs A .*\n(  .*\n)*  (?:$busy_wait) \+\d+ /m,
	'slow: the busy-wait among the changes') if $verdicts;

my $summary = $json->decode(slurp_file("$dir/summary.json"));
my %cells = map { ($_->{variant} => $_) } @{ $summary->{profiles}{cells} };
my ($spin) = sort { $b->{change} <=> $a->{change} }
  grep { $_->{function} =~ /^(?:$busy_wait)$/ && ($_->{changed} || !$verdicts) && $_->{change} > 0 } @{ $cells{slow}{functions} };
ok($spin, 'summary: the busy-wait costs more' . ($verdicts ? '' : ' (not judged in 3 rounds)') . ': '
	  . ($spin ? "$spin->{function} +$spin->{change} ns, q $spin->{q_value}" : '-'));
# B is an A/A.  How often an A/A calls a function changed is a property of
# the statistics, proven by simulation in test/unit/test_profile_fdr.c and
# measured by bench/profile_aa.sh (docs/profiles.md); here the host's load
# can move several functions at once in one run, so a count of B's
# discoveries would fail by chance more often than once in 1,000.  What a
# fault in pairing or attribution does instead is give B the cost of
# another variant's runs: B's functions must stay far from slow's
# busy-wait, a difference chance does not make.
my @b_changed = grep { $_->{changed} } @{ $cells{B}{functions} };
note("B's total $cells{B}{a_total} ns in A, $cells{B}{b_total} ns in B; changed at q < 0.05: " . join(', ', map { "$_->{function} $_->{change} (q $_->{q_value})" } @b_changed));
my @b_like_slow = grep { $spin && $_->{change} > $spin->{change} / 2 } @{ $cells{B}{functions} };
ok($spin && !@b_like_slow,
	'summary: no function of B costs half the busy-wait more than in A: ' . join(', ', map { "$_->{function} +$_->{change}" } @b_like_slow));
isnt($summary->{cells}[0]{comparison}{verdict}, undef, 'tps keeps its verdict in a sampled experiment');

ok(-s "$dir/profiles/slow.select-only.c1.folded" && -s "$dir/plots/flame-2.svg", 'folded stacks and a flame graph');
like(slurp_file("$dir/profiles/slow.select-only.c1.folded"), qr/^PostgresMain;.*inject_delay_before_commit(?:;[^;\n]+)? \d+$/m,
	'slow\'s stacks, from perf\'s call chains, lead to inject_delay_before_commit');
like(slurp_file("$dir/report.html"), qr/<h2>Sampled profile<\/h2>/, 'report.html has the sampled profile');

done_testing();

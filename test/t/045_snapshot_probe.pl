# The snapshot probe without a source build: two variants on the installed
# PostgreSQL with snapshot_probe on.  Every counted run carries the probe's
# figures in runs.csv, agreeing with the probes kept in runs/NNNN.json (taken
# inside the run's window, in both modes); the terminal, report.md,
# report.html and summary.json compare them with the tps verdict's
# statistics; two variants of one installation have identical layouts, so
# no layout section.  Then the probe on one variant only (the variant key):
# only its runs are probed and the report flags its tps.  Bad values are
# refused before anything starts.
#
# What it assumes of the machine: that the client, in its poll() loop,
# gets a CPU every 150 ms or so: a probe (1,000 calls, well under a
# millisecond) every 40 ms within the run's window of 1 s (the first and
# last 0.5 s of a 2 s run are left out) gives about 24, and the checks ask
# for 3 of each mode.  The probes' nanoseconds are the machine's and are
# checked only for being positive, finite and the runs' own medians; the
# verdicts may be any (ties between equal medians are allowed for).
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $bindir = pg_bindir();
my $base = shared_tempdir();

# Runs of 2 s: the probes are sent in the second between the first and the
# last half second, every 40 ms (about 24 at rest); at 100 ms, the
# default, a loaded machine left fewer than three of a mode in a run.
my $duration = 2;

# The quantile snapshot_probe.c computes: linear between order statistics.
sub quantile
{
	my ($q, @x) = @_;
	@x = sort { $a <=> $b } @x;
	my $pos = $q * $#x;
	my $lo = int($pos);
	my $hi = $lo + 1 > $#x ? $#x : $lo + 1;
	return $x[$lo] + ($x[$hi] - $x[$lo]) * ($pos - $lo);
}

sub median { return quantile(0.5, @_); }

# --- bad values: refused with exit status 2 ---------------------------------
foreach my $case (
	[ [ '--snapshot-probe=maybe' ], qr/snapshot_probe must be on or off, got "maybe"/ ],
	[ [ '--snapshot-probe-interval', '5' ],
		qr/snapshot_probe_interval must be a whole number of milliseconds from 10 to 60000, got "5"/ ])
{
	my ($rc, $out, $err) = run_client('ab', @{ $case->[0] }, '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--bindir', $bindir, '-o', "$base/bad");
	is($rc, 2, "@{ $case->[0] }: exit status 2");
	like($err, $case->[1], "@{ $case->[0] }: the message names the key and what it takes");
	ok(!-e "$base/bad", "@{ $case->[0] }: no results directory");
}

# --- the probe on for both variants -------------------------------------------
my $dir = "$base/probe";
# Throttled (pgbench -R): the probes' path to the report is the point, not
# the server's speed, and a throttled load leaves the CPUs to the tests
# beside this one (the probe's backend sees the load's two backends,
# connected, at any rate); nor is the run database copied afresh before
# each run (reset = never: select-only changes nothing).
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-T', $duration, '-c', '2', '-j', '2',
	'-b', 'select-only', '--seed', '11', '-r', '6', '--snapshot-probe', '--snapshot-probe-interval', '40',
	'--pgbench-args', '-R 100', '--reset', 'never',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 0, 'an A/B with the snapshot probe completes') or diag "$out\n$err";

my @runs = grep { $_->{status} eq 'ok' && $_->{warmup} eq 'false' } read_runs($dir);
is(scalar @runs, 12, 'twelve counted runs');
foreach my $run (@runs)
{
	my $id = $run->{run_id};
	my $json = read_json(sprintf("%s/runs/%04d.json", $dir, $id));
	my $probe = $json->{snapshot_probe};

	ok(defined $probe && !defined $probe->{error}, "run $id: runs/$id.json holds its probes")
	  or diag explain $probe;
	my @full = map { $_->{ns} } @{ $probe->{full} };
	my @reuse = map { $_->{ns} } @{ $probe->{reuse} };
	cmp_ok(scalar @full, '>=', 3, "run $id: at least three full-mode probes (" . scalar(@full) . ')');
	cmp_ok(scalar @reuse, '>=', 3, "run $id: at least three reuse-mode probes");
	is($run->{snapshot_probes}, @full + @reuse, "run $id: runs.csv counts every probe");
	ok(!grep({ $_->{at_s} < 0.5 || $_->{at_s} > $duration - 0.5 } (@{ $probe->{full} }, @{ $probe->{reuse} })),
		"run $id: every probe was sent inside the run's window");
	ok(!grep({ !($_ > 0 && $_ < 1e6) } (@full, @reuse)), "run $id: every probe has a positive, finite ns per call");
	is($probe->{calls}, 1000, "run $id: 1000 calls a probe");
	is($probe->{interval_ms}, 40, "run $id: a pause of 40 ms, as asked");
	cmp_ok(abs($run->{snapshot_full_ns_median} - median(@full)), '<', 0.001,
		"run $id: full median in runs.csv is the median of its probes ($run->{snapshot_full_ns_median})");
	cmp_ok(abs($run->{snapshot_full_ns_p90} - quantile(0.9, @full)), '<', 0.001,
		"run $id: full p90 likewise");
	cmp_ok(abs($run->{snapshot_reuse_ns_median} - median(@reuse)), '<', 0.001,
		"run $id: reuse median likewise");
	cmp_ok($run->{snapshot_full_ns_p90}, '>=', $run->{snapshot_full_ns_median}, "run $id: p90 >= median");
	# pgbench's two clients and the probe's own backend
	cmp_ok($run->{snapshot_procs}, '>=', 3, "run $id: the probe saw the load's backends ($run->{snapshot_procs})");
	ok($run->{snapshot_xcnt} ne '', "run $id: xcnt recorded");
}

my %csv_col = ('full median' => 'snapshot_full_ns_median', 'full p90' => 'snapshot_full_ns_p90',
	'reuse median' => 'snapshot_reuse_ns_median', 'reuse p90' => 'snapshot_reuse_ns_p90');
# A probe's figure is a whole number of nanoseconds over a batch of calls,
# so a round's two medians can be equal (20.611 and 20.611 in one make
# test); the paired test sets a round without a difference aside, and five
# rounds cannot reach p < 0.05 (2/32 at best): "insufficient" is then the
# right answer, and the report says why, unless the CI of all six rounds
# lies inside the threshold, where it says what that CI says: "no change",
# with no MDE (no test to have one).
sub verdicts_of
{
	my ($col) = @_;
	my %by_round;
	$by_round{ $_->{round} }{ $_->{variant} } = $_->{$col} foreach @runs;
	my $ties = grep { $_->{A} == $_->{B} } values %by_round;
	# a direction short of the threshold is said with it (statistics.md, the verdict)
	# (with its figure in the report, "the threshold" in summary.json)
	my $words = '(?:faster|slower)(?:, by less than (?:[\d.]+%|the threshold)|; beyond (?:[\d.]+%|the threshold) not settled)?'
	  . '|no change';
	return $ties ? "$words|insufficient|no change" : $words;
}
like($out, qr/^snapshot probe: ns per GetSnapshotData\(\) call, lower is better$/m, 'the terminal has the probe block');
foreach my $fig ('full (median', 'full (p90', 'reuse (median', 'reuse (p90')
{
	my $verdicts = verdicts_of($csv_col{ $fig =~ s/ \(/ /r }) =~ s/no change/~ no change \\(MDE [\\d.]+%\\)/r;
	like($out, qr/^  GetSnapshotData, \Q$fig\E of each run's probes\), under the run's load: [\d.]+ → [\d.]+ ns \([-+][\d.]+%, CI \[[-+][\d.]+%, [-+][\d.]+%\], p [\d.e-]+, 6 rounds\), ($verdicts)$/m,
		"terminal: $fig, with its CI, p, six rounds and a verdict");
}
unlike($out, qr/what the patch moved/, 'no layout summary: one installation, one layout');

my $summary = read_json("$dir/summary.json");
my @rows = @{ $summary->{snapshot_probe} };
is(scalar @rows, 4, 'summary.json: four probe figures for the one cell');
foreach my $row (@rows)
{
	my $name = "$row->{mode} $row->{statistic}";
	my $col = $csv_col{$name};
	is($row->{higher_is_better}, JSON::PP::false, "$name: lower is better");
	is($row->{a}{n}, 6, "$name: six runs of A");
	is($row->{b}{n}, 6, "$name: six runs of B");
	cmp_ok(abs($row->{a}{median} - median(map { $_->{$col} } grep { $_->{variant} eq 'A' } @runs)), '<', 0.01,
		"$name: A's median is that of its runs' figures");
	cmp_ok(abs($row->{b}{median} - median(map { $_->{$col} } grep { $_->{variant} eq 'B' } @runs)), '<', 0.01,
		"$name: B's likewise");
	is($row->{comparison}{n_pairs}, 6, "$name: compared round by round, like tps");
	ok(defined $row->{comparison}{ci_low} && $row->{comparison}{ci_low} <= $row->{comparison}{estimate}
		  && $row->{comparison}{estimate} <= $row->{comparison}{ci_high}, "$name: a CI around the estimate");
	my $verdicts = verdicts_of($col);
	like($row->{comparison}{verdict}, qr/^($verdicts)$/, "$name: a verdict");
	like($row->{sentence}, qr/^GetSnapshotData, \Q$row->{mode}\E \(/, "$name: the sentence");
}
is_deeply($summary->{layout_diffs}, [], 'summary.json: no layout diff');
ok(-s "$dir/layout-A.json" && -s "$dir/layout-B.json", 'both layouts were saved at setup');

my $md = slurp_file("$dir/report.md");
like($md, qr/^## GetSnapshotData under the run's load$/m, 'report.md has the probe section');
like($md, qr/^\| select-only \| 2 \| B \| full, median \| [\d.]+ \| [\d.]+ \| [-+][\d.]+% \| \[/m,
	'report.md: the full-mode row with its CI');
like($md, qr/^\| select-only \| 2 \| A \| 6 of 6 \| [\d.]+ \| \d+ \| \d+ \| [\d.]+% \|$/m,
	'report.md: what the probes saw');
unlike($md, qr/What the patch moved/, 'report.md: no layout section');
my $html = slurp_file("$dir/report.html");
like($html, qr/<h2>GetSnapshotData under the run&#39;s load<\/h2>/, 'report.html has the probe section, its apostrophe escaped');
like($html, qr/<td>reuse, p90<\/td>/, 'report.html: the reuse rows');

my $first = slurp_file("$dir/summary.json");
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report re-renders') or diag $err;
is(slurp_file("$dir/summary.json"), $first, 'the same probe figures from the directory alone');

# --- the probe on one variant only: the variant key ----------------------------
my $ini = "$base/one.ini";
open my $fh, '>', $ini or die;
print $fh <<"EOF";
[experiment]
scale = 1
clients = 2
duration = 2
rounds = 2
script = select-only
seed = 5
reset = never
pgbench_args = -R 100
snapshot_probe_interval = 50

[variant off]
bindir = $bindir

[variant on]
cluster = off
snapshot_probe = on
EOF
close $fh;
$dir = "$base/one";
($rc, $out, $err) = run_client('run', $ini, '-o', $dir);
is($rc, 0, 'an experiment with the probe on one variant completes') or diag "$out\n$err";
@runs = read_runs($dir);
is(scalar(grep { $_->{variant} eq 'on' && $_->{snapshot_full_ns_median} > 0 } @runs), 2,
	'both runs of the probed variant have probe figures');
is(scalar(grep { $_->{variant} eq 'off' && $_->{snapshot_full_ns_median} eq '' && $_->{snapshot_probes} == 0 } @runs), 2,
	'the runs of the other have none');
my $probe = read_json(sprintf("%s/runs/%04d.json", $dir,
		(grep { $_->{variant} eq 'on' } @runs)[0]{run_id}))->{snapshot_probe};
is($probe->{interval_ms}, 50, 'snapshot_probe_interval is the pause between probes');
unlike($out, qr/^snapshot probe:/m, 'no probe comparison where one side has no figures');
like($out, qr/^warning: variant on ran with the snapshot probe and off without it: their tps comparison includes what the probe costs/m,
	'the report flags a tps comparison of probed against unprobed runs');
my $exp = read_json("$dir/experiment.json");
is($exp->{spec}{variants}[1]{snapshot_probe}, JSON::PP::true, 'experiment.json records the variant key');
is($exp->{spec}{experiment}{snapshot_probe_interval}, 50, 'and the interval');

done_testing();

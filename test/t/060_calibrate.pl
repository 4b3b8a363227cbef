# "pgbench_ext calibrate" end to end at a tiny size: both phases run, the
# figures are reported and kept, --reanalyse gives them again; bad options
# are usage errors.  The sizing phase is analysed here from a copy of the
# slowed phase; run for real (a third phase, 16 unthrottled runs, a third
# of this test's CPU) with PGBENCH_EXT_TEST_LONG=1 (make test-build, CI), as
# the calibrations across servers (061) and counted (099) are.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

# The session settings of all variants of an experiment.json
sub session_settings
{
	my ($path) = @_;
	return map { @{ $_->{session_set} // [] } } @{ read_json($path)->{spec}{variants} };
}

my ($rc, $out, $err);
foreach my $case (
	[ [ '--target', '60' ], qr/--target must be a percentage above 0 and below 50, got "60"/ ],
	[ [ '--target', '2', '--delay-ns', '1000' ], qr/--target and --delay-ns exclude each other/ ],
	[ [ '--rounds', '1' ], qr/--rounds must be in range 2\.\.1000/ ],
	[ [ '--size-rounds', '4', '--delay-ns', '1000' ], qr/--size-rounds and --delay-ns exclude each other/ ],
	[ [ '--size-rounds', '3' ], qr/--size-rounds must be in range 4\.\.10000/ ],
	[ [ '--setting', '2', '--size-rounds', '4' ], qr/--setting excludes --delay-ns and --size-rounds/ ],
	[ [ '--setting', '0' ], qr/--setting must be a percentage above 0 and at most 50, got "0"/ ],
	[ [ '--schedule', 'sometimes' ], qr/--schedule: schedule must be auto .* got "sometimes"/ ],
	[ [ '--reanalyse', "$base/nothing" ], qr/is not a finished calibration/ ])
{
	my ($args, $pattern) = @$case;
	($rc, $out, $err) = run_client('calibrate', @$args);
	is($rc, 2, "calibrate @$args: exit status 2");
	like($err, $pattern, "calibrate @$args: message");
}

my $dir = "$base/cal";
($rc, $out, $err) = run_client('calibrate', '--bindir', $bindir, '-s', '1', '-c', '1', '-T', '1',
	'--blocks', '2', '--rounds', '4', '-o', $dir);
is($rc, 0, 'a tiny calibration completes') or diag $err;
like($err, qr/phase 1 of 2, A against an identical A \(2 comparisons of 4 rounds\)/, 'A/A phase runs');
like($err, qr/phase 2 of 2, A against A slowed down by 3\.0% \(a wait at each commit in proportion to its transaction\)/,
	'the second phase injects the target slowdown');
like($out, qr/A\/A false-positive rate: \d of 2 comparisons/, 'false-positive rate reported');
like($out, qr/detection rate: \d of 2 comparisons/, 'detection rate reported');
like($out, qr/CI coverage of the true effect: \d of 2/, 'coverage reported');
like($out, qr/expected from CPU time per transaction [-+]\d.* A \d+\.\d\d µs, slowed \d+\.\d\d µs, against \d+\.\d\d µs per transaction/,
	'CPU cross-check from the counters, with the figures it comes from');
ok(-f "$dir/calibration.md" && -f "$dir/aa/runs.csv" && -f "$dir/delay/runs.csv",
	'report and both phases kept');
ok((grep { $_ eq 'pgbench_ext.inject_slowdown_pct=3' } session_settings("$dir/delay/experiment.json")),
	'the slowdown is recorded as the variant\'s session setting');
ok(-d "$dir/delay/clusters/A" && !-e "$dir/delay/clusters/delayed" && -d "$dir/aa/clusters/A2",
	'the slowed variant runs on A\'s server; the A/A phase has two');
# each phase's schedule as run resolves it: A and A2 have servers of their
# own (a duet where this process may use two CPUs), the slowed variant
# shares A's
my $aa_schedule = read_json("$dir/aa/experiment.json")->{spec}{experiment}{schedule};
like($err, qr/^calibrate: schedule = auto: \Q$aa_schedule\E: /m, "the A/A phase ran as run would run it: $aa_schedule");
is(read_json("$dir/delay/experiment.json")->{spec}{experiment}{schedule}, 'interleaved', 'the slowed phase interleaved');
like($err, qr/^calibrate: schedule = auto: interleaved: a duet cannot run here \(.*variant "delayed" shares another variant's server/m,
	'saying why');
# 4 rounds are too few for the signed-rank test: each block compares 4+4 runs
like($out, qr/^\| A\/A 2 \| [-+][\d.]+% \| .* \| 4\+4 \| (no change|faster|slower|(faster|slower)(, by less than the threshold|; beyond the threshold not settled)) \| - \| - \|$/m,
	'each comparison in a table');
like($out, qr/^\| slowed 1 \| .* \| [-+]\d+\.\d\d% \| (yes|no, by \d+\.\d{3} points) \|$/m,
	'the slowed comparisons too, each with its own true effect and whether its CI covers it');
like($out, qr/CI coverage of the pooled effect: \d of 2/, 'coverage of the pooled effect reported');
{
	my ($covered) = $out =~ /CI coverage of the true effect: (\d+) of 2/;
	my $yes = () = $out =~ /^\| slowed \d+ \| .* \| yes \|$/mg;
	is($yes, $covered, 'the table\'s rows agree with the coverage figure');
}
like($out, qr/noise between paired rounds: all 8 rounds of the A\/A phase/, 'noise between rounds, all 8 paired');
like($out, qr/A2 against A over all 8 rounds: [-+]\d+\.\d\d% \[[-+]\d/, 'A2 against A pooled, round by round');

is(read_json("$dir/calibration.json")->{rounds_per_comparison}, 4,
	'the split is recorded beside the phases');

# without options, --reanalyse splits the runs as the calibration did
my ($rc2, $out2) = run_client('calibrate', '--reanalyse', $dir);
is($rc2, 0, '--reanalyse succeeds');
my ($fp1) = $out =~ /(A\/A false-positive rate: .*)/;
my ($fp2) = $out2 =~ /(A\/A false-positive rate: .*)/;
is($fp2, $fp1, '--reanalyse gives the same figures');
like($out2, qr/4 rounds per comparison/, '--reanalyse uses the recorded split');

# an explicit split wins over the recorded one
my ($rc3, $out3) = run_client('calibrate', '--reanalyse', $dir, '--blocks', '1', '--rounds', '8');
is($rc3, 0, '--reanalyse with another split succeeds');
like($out3, qr/8 rounds per comparison/, 'the split given on the command line is used');
like($out3, qr/A\/A false-positive rate: \d of 1 comparison/, 'one comparison of eight rounds');

# Without the A/A phase (--skip-aa), the delay phase's own A runs still give
# the noise table and the CPU cross-check.
my $delay_only = "$base/delay_only";
mkdir $delay_only;
system('cp', '-r', "$dir/delay", "$dir/calibration.json", $delay_only) == 0
  or die "could not copy the delay phase";
my ($rc4, $out4, $err4) = run_client('calibrate', '--reanalyse', $delay_only);
is($rc4, 0, '--reanalyse of a delay phase alone succeeds') or diag $err4;
unlike($out4, qr/A\/A false-positive rate/, 'no A/A figure without an A/A phase');
like($out4, qr/expected from CPU time per transaction [-+]\d/, 'CPU cross-check without an A/A phase');
# The noise table needs 3 per-second progress lines of A; a run of 1 s
# prints one or none (pgbench's first progress report races its end), so
# the table is there exactly when A's runs left 3.
my $progress_lines = 0;
foreach my $run (grep { $_->{variant} eq 'A' && $_->{status} eq 'ok' && $_->{warmup} eq 'false' } read_runs("$delay_only/delay"))
{
	my $errfile = sprintf("%s/delay/runs/%04d.err", $delay_only, $run->{run_id});
	$progress_lines += () = slurp_file($errfile) =~ /^progress: /mg if -f $errfile;
}
if ($progress_lines >= 3)
{
	like($out4, qr/^\| 1 s \| \d+\.\d+% \| (\d+\.\d+%|-) \|/m, "noise table without an A/A phase (from $progress_lines progress lines)");
}
else
{
	unlike($out4, qr/^\| 1 s \| \d/m, "no noise table from $progress_lines progress lines of A");
}

# Sizing, analysed: the delay phase above taken as a sizing phase of the
# setting 3 scales the setting by 3% over the slowdown it measured, or keeps
# it when the slowdown's CI includes none.
my $sized = "$base/sized";
mkdir $sized;
system('cp', '-r', "$dir/delay", "$dir/calibration.json", $sized) == 0
  and system('cp', '-r', "$dir/delay", "$sized/size") == 0
  or die "could not copy the delay phase";
my ($rc5, $out5, $err5) = run_client('calibrate', '--reanalyse', $sized);
is($rc5, 0, '--reanalyse with a sizing phase succeeds') or diag $err5;
if ($out5 =~ /sizing: inject_slowdown_pct = 3\.00 slowed A by ([-\d.]+)% \[([-\d.]+)%, [-\d.]+%\] over .*; (scaled for 3\.0%|not told from no slowdown, so kept): ([\d.]+)/)
{
	my ($slowdown, $low, $how, $setting) = ($1, $2, $3, $4);
	if ($how =~ /kept/)
	{
		ok($low <= 0 && $setting == 3, "kept at 3 as the CI's low end $low% is no slowdown");
	}
	else
	{
		my $want = 3 * 3 / $slowdown;
		$want = 12 if $want > 12;
		$want = 0.75 if $want < 0.75;
		ok($low > 0 && abs($setting - $want) < 0.011 + 0.01 * $want / $slowdown,
			"sized setting $setting is 3 x 3% / $slowdown% within the figures' rounding");
	}
}
else
{
	fail('the sizing line is reported');
	diag $out5;
}

# Sizing, run: the second phase runs with the setting the first one gave.
end_unless_long_leg('a calibration with a sizing phase');
my $size_run = "$base/size_run";
my ($rc6, $out6, $err6) = run_client('calibrate', '--bindir', $bindir, '-s', '1', '-c', '1', '-T', '1',
	'--skip-aa', '--size-rounds', '4', '--blocks', '1', '--rounds', '4', '-o', $size_run);
is($rc6, 0, 'a calibration with a sizing phase completes') or diag $err6;
like($err6, qr/phase 1 of 2, sizing: A against A slowed down by 3\.0% .*\(4 rounds\)/,
	'the sizing phase runs first, with the target as the setting');
my ($used) = $out6 =~ /(?:scaled for 3\.0%|so kept): ([\d.]+)/;
ok(defined $used, 'the sized setting is reported') or diag $out6;
ok((grep { $_ eq 'pgbench_ext.inject_slowdown_pct=' . ($used + 0) } session_settings("$size_run/delay/experiment.json")),
	'the slowed phase ran with the sized setting');
like($out6,
	$used == 3
	? qr/A against A slowed down by 3\.0%/
	: qr/A against A slowed down with inject_slowdown_pct = \Q$used\E, sized for 3\.0%/,
	'the report names the setting the slowed phase used');

done_testing();

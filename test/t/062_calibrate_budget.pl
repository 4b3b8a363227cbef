# "pgbench_ext calibrate --rounds auto --budget D" at a tiny size: each
# comparison is a budgeted experiment of its own (an A/A of two servers,
# then 2% and 5% slowdowns on one), and the report gives the false
# positives, the detection, the coverage and the time to decide of each
# phase; bad combinations are usage errors.
#
# What it assumes of the machine: nothing of its speed.  A budget of 25 s
# pays for one block of 5 rounds of each comparison (the A/A's estimated
# at 22 s, a slowed one's at 15 s), and a second only where the first took
# 12.5 s or less, which ten 1 s runs and their overhead do not on a 2-CPU
# host (12-14 s quiet, over 15 s loaded to 9, 2026-12-06, AMD EPYC,
# kvm-clock): 5 rounds, judged on their runs, as the fixed verdict of 5
# rounds is (the signed-rank test of 5 cannot reach p < 0.05).  The unit
# checked is still the one the rounds of the deciding (or last) look call
# for, whichever the host gave; a budgeted comparison of two blocks,
# judged round by round, is test 046's.  (The budget was 30 s, two blocks
# on a quiet host: a third of this test's CPU for what 046 runs too.)
#
# The calibration itself, three budgeted comparisons of 25 s with
# unthrottled runs (about 24 CPU-s on a 2-CPU AMD EPYC host), runs with
# PGBENCH_EXT_TEST_LONG=1 (make test-build, CI), as the other calibrations
# that run for minutes do (060's sizing, 061, 099); its parts are make
# test's anyway: budgeted experiments end to end in 046 and 047, their
# plan and looks in test_budget and test_stats_sequential.  Plain make
# test checks the options.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

foreach my $case (
	[ [ '--rounds', 'auto' ], qr/--rounds auto needs --budget/ ],
	[ [ '--budget', '5m' ], qr/--budget goes with --rounds auto/ ],
	[ [ '--rounds', 'auto', '--budget', '5x' ], qr/--budget must be a duration such as 900s, 30m or 2h, got "5x"/ ],
	[ [ '--rounds', 'auto', '--budget', '5m', '--target', '2' ], qr/--rounds auto runs its own phases/ ])
{
	my ($args, $pattern) = @$case;
	my ($rc, $out, $err) = run_client('calibrate', @$args, '-o', "$base/bad");
	is($rc, 2, "calibrate @$args: exit status 2");
	like($err, $pattern, "calibrate @$args: message");
}

end_unless_long_leg('a budgeted calibration');

my $dir = "$base/cal";
my ($rc, $out, $err) = run_client('calibrate', '--bindir', $bindir, '-s', '1', '-c', '1', '-T', '1',
	'--rounds', 'auto', '--budget', '25s', '--blocks', '1', '--schedule', 'interleaved', '-o', $dir);
is($rc, 0, 'a tiny budgeted calibration completes') or diag "$out\n$err";
# --schedule sets every phase's: the A/A of two servers, a duet under
# schedule = auto (060), runs interleaved, and nothing is resolved
is(read_json("$dir/auto-aa-1/experiment.json")->{spec}{experiment}{schedule}, 'interleaved',
	'--schedule interleaved: the A/A across servers runs interleaved');
unlike($err, qr/^calibrate: schedule = auto:/m, 'and no phase resolves its own');
like($err, qr/calibrate: rounds = auto, A against an identical A 1 of 1 \(a budget of 25 s\)/, 'the A/A runs');
like($err, qr/calibrate: rounds = auto, A against A slowed down by 5% 1 of 1/, 'and the 5% slowdown');
like($out, qr/A\/A false-positive rate \(rounds = auto\): \d of 1 comparisons/, 'false positives reported');
like($out, qr/detection at 2%: \d of 1 comparisons .* CI coverage of the pooled effect [-+][\d.]+%: \d of 1/,
	'detection and coverage at 2%');
like($out, qr/^\| 5% \(inject_slowdown_pct\), one server \| 1 \| \d \| \d \| \d \| \d \| [-+][\d.]+% \| \d of 1 \| (\d+ s|-) \| (\d+|-) \|$/m,
	'the phases\' table: decisions, the true effect, coverage, time and rounds to decide');

foreach my $phase ('aa', 'slowed-2', 'slowed-5')
{
	my $exp = read_json("$dir/auto-$phase-1/experiment.json");
	is($exp->{spec}{experiment}{rounds}, 'auto', "$phase: a budgeted experiment");
	# calibrate analyses the directories itself; report renders one of them
	my ($rrc, $rout, $rerr) = run_client('report', "$dir/auto-$phase-1");
	is($rrc, 0, "$phase: report of the comparison") or diag $rerr;
	my $summary = read_json("$dir/auto-$phase-1/summary.json");
	my $seq = $summary->{cells}[0]{sequential};
	like($out, qr/^\| $phase 1 \| \Q$seq->{decision}\E \| /m, "$phase: its decision in the report ($seq->{decision})");
	# the phase's counts are its comparison's decision, counted once
	my %label = (aa => 'A/A, two servers (restart = auto)', 'slowed-2' => '2% (inject_slowdown_pct), one server',
		'slowed-5' => '5% (inject_slowdown_pct), one server');
	my ($counts) = $out =~ /^\| \Q$label{$phase}\E \| 1 \| (\d \| \d \| \d \| \d) \|/m;
	is($counts, join(' | ', map { $seq->{decision} eq $_ ? 1 : 0 } qw(faster slower same undecided)),
		"$phase: the table counts that decision (faster, slower, same, undecided)");
	my $by_round = ($seq->{rounds} // 0) >= 6;
	is($summary->{cells}[0]{comparison}{unit}, $phase eq 'aa' ? 'instance pair' : $by_round ? 'round' : 'run',
		"$phase: judged " . ($phase eq 'aa' ? 'across instance pairs'
			: $by_round ? "round by round ($seq->{rounds} rounds)" : "on its runs (" . ($seq->{rounds} // 0) . ' rounds)'));
}
ok(-f "$dir/calibration-budget.md", 'the report is kept');

done_testing();

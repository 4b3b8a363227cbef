# "pgbench_ext calibrate --counted" on the installed PostgreSQL: its usage
# errors, then a short counted A/A of two servers of one installation,
# whose report gives the verdict, the CI and the design's spread; and a
# known-cost phase against a build without the known cost, which must say
# that it found none rather than report a size.  (The known cost found at
# its size, from source builds, is test 098's.)  The calibration itself,
# servers under valgrind for about two minutes, runs with
# PGBENCH_EXT_TEST_LONG=1 (make test-build, CI), as calibrations do.
#
# What it assumes of the machine: valgrind.  Instructions are counted,
# not timed; the A/A's figures are checked for their shape, whatever they
# are.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

foreach my $bad (
	[ [ '-t', '50' ], qr/-t and --known-cost-bindir go with --counted/ ],
	[ [ '--known-cost-bindir', $bindir ], qr/-t and --known-cost-bindir go with --counted/ ],
	[ [ '--counted', '--skip-aa' ], qr/--counted runs its own phases .* --skip-aa/ ],
	[ [ '--counted', '--rounds', 'auto', '--budget', '5m' ], qr/--counted runs its own phases/ ],
	[ [ '--counted', '-t', '10' ], qr/-t\/--transactions/ ])
{
	my ($args, $pattern) = @$bad;
	my ($rc, $out, $err) = run_client('calibrate', @$args, '-o', "$base/never");
	is($rc, 2, "calibrate @$args: exit status 2");
	like($err, $pattern, "calibrate @$args: message");
}
ok(!-e "$base/never", 'nothing was run');

end_unless_long_leg('the counted calibration itself');

# 3 rounds of 20 transactions (15 counted after the warm-up): the design's
# spread needs 3 paired rounds; the known-cost phase on the same
# installation finds no known cost and says so.
my $dir = "$base/cal";
my ($rc, $out, $err) = run_client('calibrate', '--counted', '--bindir', $bindir, '--known-cost-bindir', $bindir,
	'--rounds', '3', '-t', '20', '-s', '1', '-o', $dir);
is($rc, 1, 'calibrate --counted ends in error: the second build has no known cost') or diag "$out\n$err";
like($err, qr/no run of \S+counted-cost counted pgbench_ext_known_cost\(\): is --known-cost-bindir a build with/,
	'and names the function it did not find, and the patch');
my $summary = read_json("$dir/counted-aa/summary.json");
my ($m) = @{ $summary->{profiles}{cells}[0]{metrics} };
is($m->{metric}, 'instructions/tx', 'the A/A phase compared instructions per transaction');
is($m->{noise}, 0.0005, 'at the counted threshold, ±0.05%');
cmp_ok($m->{aa_rounds}, '==', 3, 'the design\'s spread from its 3 paired rounds');
cmp_ok($m->{aa_spread_pct}, '>=', 0, "the spread: ±$m->{aa_spread_pct}%");
like($out, qr/^# Counted instructions per transaction on this machine\n\nA\/A: B\/A [-+][\d.]+% \[[-+][\d.]+%, [-+][\d.]+%\], .*; an A\/A of this design would read within ±[\d.]+%, MDE /m,
	'the calibration\'s report line');
like(slurp_file("$dir/calibration-counted.md"), qr/^A\/A: B\/A /m, 'the A/A\'s line is kept, the later phase having failed');
unlike($out, qr/^known cost: /m, 'no line for the known cost');

done_testing();

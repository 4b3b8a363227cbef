# "pgbench_ext history DIR...": a series of synthetic results directories,
# one point each, with a known shift: the change point at its place with
# its size and CI, its plot with the change marked, a flat series without
# any, points of other machines refused unless --any-machine, and the
# command line's errors.  No server: every directory is written here,
# deterministically (the noise is a fixed pattern, not drawn at random).
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;

# uniform noise in [-1, 1) with a fixed seed: the same on every machine
my $wobble = ReportFixture::noise(12345);

# One point: 8 rounds of one variant, tps = level * (1 + 1% noise)
sub point
{
	my ($dir, $level, $i, %o) = @_;
	ReportFixture::write_dir(
		$dir,
		clients => [2],
		rounds => 8,
		variants => [ { name => 'head' } ],
		written_at => sprintf('2026-01-%02dT00:00:00Z', $i + 1),
		tps => sub {
			return $level * (1 + 0.01 * $wobble->());
		},
		%o);
	return $dir;
}

# 20 points, 5% faster from point 12 on
my @dirs = map { point(sprintf("$base/step%02d", $_), $_ >= 11 ? 1050 : 1000, $_) } 0 .. 19;
my ($rc, $out, $err) = run_client('history', '-o', "$base/plot", @dirs);
is($rc, 0, 'history of 20 points exits 0') or diag $err;
like($out, qr/^------ change: \+5\.\d\d% \[\+\d\.\d\d%, \+\d\.\d\d%\], p = 0\.001 \(11 points before, 9 after\)\n\s+12 /m,
	'one change point, before point 12, +5% with its CI and p') or diag $out;
is(() = $out =~ /^------ change/mg, 1, 'and no other');
like($out, qr/^1 change point at alpha 0\.05 \(999 permutations, seed 1\)$/m, 'the test\'s settings are stated');
my ($shift, $lo, $hi) = $out =~ /change: \+([\d.]+)% \[\+([\d.]+)%, \+([\d.]+)%\]/;
ok($lo < 5 && $hi > 5 && $lo < $shift && $shift < $hi, "its CI [$lo%, $hi%] holds the true 5% and the estimate $shift%");

my @csv = split /\n/, slurp_file("$base/plot/changepoints.csv");
is(scalar @csv, 2, 'changepoints.csv: a header and one change point');
like($csv[1], qr{^12,"\Q$dirs[11]\E",1\.05\d*,}, '  at point 12, the first results directory after the change');
is(lines_in("$base/plot/history.dat"), 1 + 20 + 3 + 2 * 3, 'history.dat: 20 points and two segments');
SKIP:
{
	skip 'gnuplot is not installed', 2 unless grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	ok(-s "$base/plot/history.svg", 'history.svg is drawn');
	my $svg = slurp_file("$base/plot/history.svg");
	like($svg, qr/\+5\.\d%/, 'the change point is marked with its shift');
}

# a flat history of 12 points: no change point
my @flat = map { point("$base/flat$_", 1000, $_) } 0 .. 11;
($rc, $out, $err) = run_client('history', @flat);
is($rc, 0, 'a flat history exits 0') or diag $err;
like($out, qr/^0 change points at alpha 0\.05/m, 'and has no change point') or diag $out;

# points of another machine: refused, then pooled when asked
my $other = point("$base/other", 1000, 12,
	machine => { arch => 'x86_64', cpus => 4, hostname => 'elsewhere', kernel => '6.1' });
($rc, $out, $err) = run_client('history', @flat, $other);
is($rc, 2, 'a point of another machine: exit status 2');
like($err, qr/ran on different machines \(fingerprints [0-9a-f]{16} of "fixture" and [0-9a-f]{16} of "elsewhere"\)/,
	'  naming both machines');
like($err, qr/hint: .*--any-machine/, '  with the option that pools them');
($rc, $out, $err) = run_client('history', '--any-machine', @flat, $other);
is($rc, 0, '--any-machine pools them') or diag $err;

# a point of another experiment (another scale): refused
my $scale = point("$base/scale", 1000, 13);
{
	my $doc = PgbenchExtTest::read_json("$scale/experiment.json");
	$doc->{spec}{experiment}{scale} = 10;
	open my $f, '>', "$scale/experiment.json" or die;
	print $f JSON::PP->new->canonical->encode($doc);
	close $f;
}
($rc, $out, $err) = run_client('history', @flat, $scale);
is($rc, 2, 'a point of another experiment: exit status 2');
like($err, qr/\Q$scale\E holds another experiment than \Q$flat[0]\E \(signatures [0-9a-f]{16} and [0-9a-f]{16}\)/,
	'  naming it');

# a directory without the variant asked for is left out, with a warning
($rc, $out, $err) = run_client('history', '--variant', 'head', @flat[0 .. 5], "$base/step00");
is($rc, 0, 'history --variant head');
($rc, $out, $err) = run_client('history', '--variant', 'patch', @flat[0 .. 5]);
like($err, qr/\Q$flat[0]\E is left out of the history: it has no variant "patch"/, 'a point without the variant is left out');
like($out, qr/^no change point can be found in 0 points: it takes at least 6/m, 'and too few points is said');

# the command line
foreach my $case (
	[ [], qr/no results directory given/ ],
	[ [ '--alpha', '2', $flat[0] ], qr/--alpha must be a number above 0 and below 1/ ],
	[ [ '--permutations', '0', $flat[0] ], qr/--permutations must be in range/ ],
	[ [ '--bogus', $flat[0] ], qr/unrecognized option/ ],
	[ ["$base/none"], qr/must be a results directory/ ])
{
	($rc, $out, $err) = run_client('history', @{ $case->[0] });
	is($rc, 2, "history @{$case->[0]}: exit status 2");
	like($err, $case->[1], '  and why');
}
($rc, $out) = run_client('history', '--help');
like($out, qr/Usage:\n  pgbench_ext history \[OPTION\]\.\.\. DIR\.\.\./, 'history --help');

done_testing();

# A real, short A/B on a managed cluster: the end of "ab" prints the verdict
# table and writes report.md, report.html with its SVG plots, summary.json
# and benchstat.txt; "report" re-renders the same figures.  (How to look at
# report.html in headless Chromium: README, section Reports.)
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $bindir = pg_bindir();
my $base = shared_tempdir();

my $dir = "$base/ab";
# restart = never: two runs a side (restarts are test 043's).  The report's
# path is the point, not the servers' speed: pgbench throttled (-R 400),
# which leaves the CPUs to the tests beside this one, no copy of the run
# database before each run (select-only changes nothing), and one server,
# jit on, whose variant "off" turns it off in its sessions (this run on
# two clusters took 8.5 CPU-s, on one 5.3, 2026-12-06; two servers'
# reports are 041's and 043's).
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-T', '2', '-c', '1', '-b', 'select-only', '--seed', '7',
	'-r', '2', '--restart', 'never', '--reset', 'never', '--pgbench-args', '-R 400', '--variant', 'on', '--bindir', $bindir, '--set', 'jit=on',
	'--variant', 'off', '--cluster', 'on', '--session-set', 'jit=off', '-o', $dir);
is($rc, 0, 'A/B completes') or diag "$out\n$err";
like($out, qr/^ script +\| clients \| on tps +\| off tps +\| B\/A +\| CI +\| p +\| n +\| verdict/m,
	'verdict table header');
like($out, qr/^ select-only \| 1 +\| [\d.]+ ±∞ +\| [\d.]+ ±∞ +\| [-+][\d.]+% \| - +\| [\d.]+ +\| 2\+2 \| insufficient/m,
	'the row: medians without a CI, an estimate, p, n and insufficient for 2 runs a side');
like($out, qr/^ geomean /m, 'geomean row');
like($out, qr/^ off vs on  .{41}  insufficient  [-+][\d.]+%, no CI$/m, 'the text forest plot: a row per comparison');
unlike($out, qr/^noise: /m, 'the noise line only with --verbose');
like($out, qr/^warning: fewer than 6 counted runs/m, 'too few runs warned');
like($out, qr/^report: \Q$dir\E\/report\.html/m, 'says where the report is');
cmp_ok(scalar(split /\n/, $out), '<=', 23, 'the end of the run stays short');

my $html = slurp_file("$dir/report.html");
my $svgs = () = $html =~ /<svg/g;
cmp_ok($svgs, '>=', 5, "report.html holds the SVG plots ($svgs)");
like($html, qr/<svg[^>]*>.*<path/s, 'the SVG plots have drawn paths');
unlike($html, qr/<script|<link|src=|href="http/, 'report.html is self-contained');
ok(!-e "$dir/plots/progress_tps.svg", 'no per-second plot of 2-second runs: no shape to see');
like(slurp_file("$dir/plots/progress.dat"), qr/^1\.0 [\d.]+ [\d.]+$/m, 'progress data parsed');
ok(-s "$dir/plots/tps_rounds.svg", 'tps by round plotted');

my $summary = read_json("$dir/summary.json");
is($summary->{cells}[0]{a}{n} + $summary->{cells}[0]{b}{n}, 4, 'summary.json counts the four runs');
my $first = slurp_file("$dir/summary.json");
($rc, $out, $err) = run_client('report', '--verbose', $dir);
is($rc, 0, 'report re-renders');
like($out, qr/^noise: on .*; off /m, 'with --verbose, the noise line');
is(slurp_file("$dir/summary.json"), $first, 'the same figures from the directory alone');

done_testing();

# Reports from synthetic results directories with known figures: the verdict
# table (values, verdicts, geomean, noise, warnings), --baseline, exports,
# re-rendering, plots with and without gnuplot, and "compare DIR_A DIR_B".
# Every directory is written here, deterministically; no server is needed
# except for the check that psql's compare() gives the same figures.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;

# Relative noise of the runs of every cell: symmetric around 0, so that the
# Hodges-Lehmann ratio of B = f * A is exactly f.
my @noise = (-0.02, -0.01, 0, 0.01, 0.02, -0.015, 0.005, 0.015);

# --- two variants: B 5% faster at 1 client, identical at 2 ----------------
my $dir = "$base/ab";
ReportFixture::write_dir(
	$dir,
	clients => [ 1, 2 ],
	rounds => scalar @noise,
	variants => [
		{ name => 'old', set => ['work_mem=4MB'] },
		{ name => 'new', set => ['work_mem=8MB'], env => { fsync => 'off', port => '5999' } },
	],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my $f = ($variant eq 'new' && $clients == 1) ? 1.05 : 1.0;
		return 1000 * $clients * $f * (1 + $noise[ $round - 1 ]);
	},
	run_extra => sub {
		my ($run) = @_;
		$run->{checkpoints_during} = 1 if $run->{run_id} == 3;
	});
# a failed run in a ninth round: listed, not counted
ReportFixture::append_runs($dir,
	[ { variant => 'old', clients => 1, round => 9, status => 'failed', reason => 'server terminated' } ]);

my ($rc, $out, $err) = run_client('report', '--verbose', $dir);
is($rc, 0, 'report exits 0') or diag $err;
my @rows = grep { /^ default / } split /\n/, $out;
is(scalar @rows, 2, 'one row per cell');
like($rows[0], qr/^ default \| 1 .*\| \+5\.00% .*\| 8 rounds \| faster/, 'B 5% faster: +5.00%, faster, round by round');
like($rows[1], qr/^ default \| 2 .*\| \+0\.00% \| \[\+0\.00%, \+0\.00%\] .*\| 8 rounds \| no change/,
	'identical in every round: no round differs, so no rank test can reject, but the CI of them all is [0, 0]: what it says, not insufficient');
like($out, qr/^ geomean .*\| \+2\.47% /m, 'geomean of 1.05 and 1 is +2.47%');
like($out, qr/^warning: 1 run\(s\) did not complete and are not counted: 33 \(failed\)/m, 'failed run warned');
like($out, qr/^warning: 1 run\(s\) had a checkpoint or autovacuum inside them: 3 \(checkpoint\)/m,
	'checkpoint inside a run warned');
like($out, qr/^warning: environment differs .*(setting|changed) fsync is "on" in old but "off" in new/m,
	'undeclared fsync difference warned');
is(scalar(() = $out =~ /fsync/g), 1, 'once, though fsync is both a "setting" and a "changed" row');
unlike($out, qr/\bport\b|work_mem/, 'port (per cluster) and work_mem (declared) are not warned');
unlike($out, qr/fewer than 6/, 'no too-few-runs warning with 8 runs a side');
like($out, qr/^noise: old CV [\d.]+%, 0 outliers, drift [-+][\d.]+% over 16 runs, tau [-+][\d.]+ \(p [\d.e-]+\); new /m, 'noise line');
# the 8 per-round ratios are all 1.05, one tie: W+ = 36, the largest of the
# 2^8 sign patterns, so the exact conditional p is 2/256 = 0.00781
like($rows[0], qr/\| 0\.00781 +\| 8 rounds /, 'exact signed-rank p over 8 tied rounds of +5% each');

# summary.json holds every figure; psql's compare() gives the same, exactly
my $summary = ReportFixture::read_json_exact("$dir/summary.json");
my ($c1) = grep { $_->{clients} == 1 } @{ $summary->{cells} };
is($c1->{comparison}{verdict}, 'faster', 'summary.json: verdict');
my ($c2) = grep { $_->{clients} == 2 } @{ $summary->{cells} };
is("$c1->{decision} $c2->{decision}", 'differs same',
	'summary.json: the decision for programs (faster: differs; every round the same, CI [0, 0] inside the threshold: same)');
ok(exists $c1->{reference} && !defined $c1->{reference}, 'summary.json: no reference ratio');
is(scalar @{ $c1->{a}{tps} }, 8, 'summary.json: the counted runs of A');
my $node = PostgreSQL::Test::Cluster->new('parity');
init_node($node);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgbench_ext');
my $sql = sprintf(
	"SELECT estimate = %s::float8, ci_low = %s::float8, ci_high = %s::float8, p_value = %s::float8, "
	  . "mde_pct = %s::float8, verdict, n_pairs FROM pgbench_ext.compare('{%s}', '{%s}', "
	  . "round_a => '{%s}', round_b => '{%s}')",
	map({ $c1->{comparison}{$_} } qw(estimate ci_low ci_high p_value mde_pct)),
	(map { join(',', @{ $c1->{$_}{tps} }) } qw(a b)),
	(map { join(',', @{ $c1->{$_}{rounds} }) } qw(a b)));
is($node->safe_psql('postgres', $sql), 't|t|t|t|t|faster|8',
	'compare() in SQL, given the rounds, equals summary.json to the last bit (estimate, CI, p, MDE, verdict)');

my $bench = slurp_file("$dir/benchstat.txt");
my @blines = grep { /^Benchmark/ } split /\n/, $bench;
is(scalar @blines, 32, 'benchstat.txt: one line per counted run');
like($bench, qr/^variant: old\nBenchmarkPgbench\/script=default\/clients=\d+ \d+ [\d.]+ tps [\d.]+ ms\/tx$/m,
	'benchstat.txt: Go benchmark format with a variant configuration line');

# the documents
my $md = slurp_file("$dir/report.md");
like($md, qr/^# pgbench_ext report: .*\n\n!\[[^]]*\]\(plots\/forest\.svg\)\n/, 'report.md: the forest plot first');
like($md, qr/^\| wait samples\/tx LWLock:WALWrite .*\n(?:\|.*\n)*\n<details><summary>5 counters that did not move<\/summary>/m,
	'report.md: the counters that moved first, the others folded');
like($md, qr/^## Runs side by side/m, 'report.md: per-run table');
like($md, qr/^\| 1 \| 980\.0 \| 1029\.0 \| \+49\.0 \| \+5\.00% \|$/m, 'report.md: round 1 of A and B, diff and %');
like($md, qr/^\| new \| \+5\.00% \| \+0\.00% ~ \|$/m, 'report.md: % change vs baseline across clients');
# a counter that moved moved alike in every round: its signed-rank p is
# 2/256; 4 of the 9 counters of 1 client did (the others not at all), so
# Benjamini-Hochberg's q is 9/4 * 2/256 = 0.0176
like($md, qr/^\| CPU user µs\/tx \| 50\.0 \| 40\.0 \| -20\.00% \| \[-20\.00%, -20\.00%\] \| 0\.0176 \| 8 rounds \| less \|$/m,
	'report.md: counters per transaction from runs.csv, judged like tps');
like($md, qr/^\| xact cycles\/tx \| 10000 \| 9000 \| -10\.00% \| .* \| less \|$/m, 'report.md: counters per transaction from runs/NNNN.json');
like($md, qr/^\| wait samples\/tx LWLock:WALWrite \| 0\.002 \| 0\.001 \| -50\.00% \| .* \| less \|$/m, 'report.md: waits per transaction');
my $html = slurp_file("$dir/report.html");
my $svgs = () = $html =~ /<svg/g;
cmp_ok($svgs, '>=', 5, "report.html inlines the SVG plots ($svgs)");
unlike($html, qr/<script|<link|src=|href="http/, 'report.html loads nothing from outside');
like($html, qr/<td>default<\/td><td>1<\/td><td>new<\/td>/, 'report.html: the verdict table');

# re-rendering from the directory alone gives the same figures
my $first = slurp_file("$dir/summary.json");
unlink "$dir/summary.json", "$dir/report.md", "$dir/report.html";
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report again');
is(slurp_file("$dir/summary.json"), $first, 're-rendered summary.json is identical');
ok(-s "$dir/report.md" && -s "$dir/report.html", 'reports re-rendered');

# without gnuplot
{
	local $ENV{PGBENCH_EXT_GNUPLOT} = '';
	($rc, $out, $err) = run_client('report', $dir);
	is($rc, 0, 'report without plots exits 0');
	like($out, qr/^no plots: plots are turned off/m, 'says why there are no plots');
	like(slurp_file("$dir/report.html"), qr/No plots: plots are turned off/, 'report.html says why');
	my $svgs = () = slurp_file("$dir/report.html") =~ /<svg/g;
	is($svgs, 1, 'and has no SVG but the forest plot, which needs no gnuplot');
}
{
	local $ENV{PATH} = '/nonexistent';
	my ($o, $e) = ('', '');
	IPC::Run::run([ client(), 'report', $dir ], '<', \undef, '>', \$o, '2>', \$e);
	like($o, qr/^no plots: gnuplot was not found on PATH/m, 'no gnuplot on PATH: said so');
	like(slurp_file("$dir/report.md"), qr/No plots: gnuplot was not found/, 'report.md says why');
}

# --- three variants, too few runs, drift, an outlier, --baseline --------
my $dir3 = "$base/three";
my @rising = map { 1000 * (1 + 0.01 * $_) } 0 .. 4;
ReportFixture::write_dir(
	$dir3,
	clients => [4],
	rounds => 5,
	variants => [
		{ name => 'a' }, { name => 'b' },
		{ name => 'c', extension => 0, env => { debug_assertions => 'on', shared_preload_libraries => '' } },
	],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		return $rising[ $round - 1 ] if $variant eq 'a';
		return 1200 + $round if $variant eq 'b';
		return $round == 3 ? 500 : 900 + $round;
	},
	# b keeps 2 runs: 5 and 2 runs can never give p < 0.05
	run_extra => sub {
		my ($run) = @_;
		$run->{status} = 'failed' if $run->{variant} eq 'b' && $run->{round} <= 3;
	});
($rc, $out, $err) = run_client('report', '--verbose', $dir3);
is($rc, 0, 'three variants: report exits 0') or diag $err;
like($out, qr/^ script .*\| variant \| a tps .*\| tps /m, 'more than two variants: a variant column');
like($out, qr/^ default \| 4 +\| b .*\| 5\+2 .*\| insufficient/m, 'b vs a with 5 runs: insufficient');
like($out, qr/^ default \| 4 +\| c /m, 'c compared with the first variant');
like($out, qr/^insufficient: .*smallest possible p/m, 'the reason for insufficient');
like($out, qr/^warning: fewer than 6 counted runs/m, 'too few runs warned');
like($out, qr/c CV [\d.]+%, 1 outlier/, 'the 500 tps run of c is an outlier');
unlike($out, qr/across the session/, 'five rising runs of a: no drift warning (the smallest p of 5 runs, 2/120, is above 1% over 3 variants)');
like($out, qr/build debug_assertions is "off" in a but "on" in c/, 'assertions in one build only warned');
unlike($out, qr/shared_preload_libraries/, 'no warning for the library that extension = off leaves out');

# --- drift: warned at 1% an experiment, and only when as large as the noise threshold
my $dir_drift = "$base/drift";
# 0: up rises 1% a round; 1: the same on 4 server starts; 2: both rise
for my $case (0, 1, 2)
{
	my $d = "$dir_drift-$case";
	my $restarts = $case == 1;
	ReportFixture::write_dir(
		$d,
		clients => [1],
		rounds => 12,
		variants => [ { name => 'flat' }, { name => 'up' } ],
		tps => sub {
			my ($variant, $clients, $round) = @_;
			return 1000 * (1 + 0.01 * ($round - 1)) if $variant eq 'up';
			return 1100 * (1 + 0.01 * ($round - 1)) + $round % 2 if $case == 2;
			return 1000 * (1 + $noise[ ($round - 1) % scalar @noise ]);
		},
		run_extra => sub {
			my ($run) = @_;
			$run->{instance} = $restarts ? 1 + int(($run->{round} - 1) / 3) : 1;
		});
	($rc, $out, $err) = run_client('report', $d);
	is($rc, 0, "drift fixture ($case): report exits 0") or diag $err;
	if ($case == 2)
	{
		like($out, qr/^warning: variant flat moved .*every variant moved alike, .*does not bias the verdict but widens its CI/m,
			'both variants rising: the words say the rounds cancel what they share');
	}
	elsif ($restarts)
	{
		unlike($out, qr/across the session/, 'the same runs on 4 server starts: 4 values, no drift warning');
	}
	else
	{
		like($out, qr/^warning: variant up moved \+11\.0% across the session \(Mann-Kendall over its 12 runs, p [\d.e-]+\): .*the other variants did not move alike, so the comparison includes this move/m,
			'12 runs rising 1% each, the other variant steady: the move, and that the comparison includes it');
		unlike($out, qr/variant flat moved/, 'the steady variant: no drift warning');
	}
}

($rc, $out, $err) = run_client('report', '--baseline', 'c', $dir3);
is($rc, 0, '--baseline c');
like($out, qr/^ script .*\| variant \| c tps /m, 'with --baseline c, c is the baseline column');
like($out, qr/^ default \| 4 +\| a /m, 'and a is compared with it');
($rc, $out, $err) = run_client('report', '--baseline', 'zz', $dir3);
is($rc, 2, 'unknown --baseline: exit 2');
like($err, qr/no variant "zz" in .*; its variants are "a", "b", "c"/, 'unknown --baseline: names the variants');
($rc, $out, $err) = run_client('report');
is($rc, 2, 'report without a directory: usage error');
($rc, $out, $err) = run_client('report', "$base/nothing");
is($rc, 2, 'report of a missing directory: exit 2, as for any directory it cannot read');
like($err, qr/experiment\.json/, 'names the missing file');

# --- the words of the CI: a direction short of the threshold is no "no change" ---
# Per round B = A * f * (1 + k e) for a spread e of +-2%: "small" -0.5% with
# k 0.05 (its CI inside the 1% threshold), "cross" -1.17% with k 0.2 (its CI
# below 0 and across -1%, as two builds once measured), "none" 0 (its CI
# across 0).
my $dirw = "$base/words";
my %shape = (small => [ 0.995, 0.05 ], cross => [ 0.9883, 0.2 ], none => [ 1.0, 0.2 ]);
ReportFixture::write_dir(
	$dirw,
	clients => [1],
	rounds => scalar @noise,
	variants => [ { name => 'old' }, map { { name => $_ } } qw(small cross none) ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my $tps = 1000 * (1 + $noise[ $round - 1 ]);
		return $tps if $variant eq 'old';
		my ($f, $k) = @{ $shape{$variant} };
		return $tps * $f * (1 + $k * $noise[ (3 * $round) % 8 ]);
	});
($rc, $out, $err) = run_client('report', $dirw);
is($rc, 0, 'words: report exits 0') or diag $err;
my %want = (
	small => [ 'slower, by less than 1%', 'slower, by less than the threshold', 'same' ],
	cross => [ 'slower; beyond 1% not settled', 'slower; beyond the threshold not settled', 'undecided' ],
	none => [ '~ no change (MDE ', 'no change', 'same' ]);
my $summaryw = ReportFixture::read_json_exact("$dirw/summary.json");
my $mdw = slurp_file("$dirw/report.md");
my $htmlw = slurp_file("$dirw/report.html");
my $svgw = slurp_file("$dirw/plots/forest.svg");
foreach my $v (qw(small cross none))
{
	my ($words, $name, $decision) = @{ $want{$v} };
	like($out, qr/^ default \| 1 +\| \Q$v\E .*\| 8 rounds \| \Q$words\E/m, "words: $v in the table: $words");
	like($out, qr/^ \Q$v\E vs old +\S.*  \Q$words\E/m, "words: $v in the text forest plot");
	like($mdw, qr/^\| default \| 1 \| \Q$v\E \|.*\| \Q$words\E/m, "words: $v in report.md");
	like($htmlw, qr/<td>\Q$v\E<\/td>.*<td[^>]*>\Q$words\E/, "words: $v in report.html");
	like($svgw, qr/>\Q$words\E/, "words: $v in the forest plot's SVG");
	my ($cell) = grep { $_->{variant} eq $v } @{ $summaryw->{cells} };
	is("$cell->{comparison}{verdict} | $cell->{decision}", "$name | $decision",
		"words: $v in summary.json: its verdict's name, and the decision as before");
}
like($mdw, qr/^\| small \| -0\.50% \* \|$/m, 'words: the % change grid marks a direction short of the threshold');
unlike($out, qr/no change.*-1\.17%|-1\.17%.*no change/, 'words: -1.17% [-1.47%, -0.87%] nowhere reads as no change');

# The same shapes under rounds = auto, two blocks of 6 rounds looked at by
# the share of blocks: a decision of the same within the threshold, or none,
# says the direction its look's CI settles.
my @noise12 = (@noise, 0.003, -0.007, 0.012, -0.004);
my $dirs = "$base/words-auto";
ReportFixture::write_dir(
	$dirs,
	clients => [1],
	rounds => 12,
	variants => [ { name => 'old' }, map { { name => $_ } } qw(small cross none) ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my $tps = 1000 * (1 + $noise12[ $round - 1 ]);
		return $tps if $variant eq 'old';
		my ($f, $k) = @{ $shape{$variant} };
		return $tps * $f * (1 + $k * $noise12[ (5 * $round) % 12 ]);
	});
my $experiment = read_json("$dirs/experiment.json");
$experiment->{spec}{experiment}{rounds} = 'auto';
$experiment->{spec}{experiment}{budget} = '10m';
$experiment->{sequential} = {
	budget_s => 600, block_rounds => 6, first_look_block => 1, max_blocks => 2, max_looks => 2,
	run_s_estimate => 1.0, block_s_estimate => 300.0, spending => 'obrien-fleming',
	information => 'blocks', why => 'a fixture' };
write_file("$dirs/experiment.json", JSON::PP->new->canonical->encode($experiment));
write_file("$dirs/budget.csv", "block,rounds,spent_s\n1,6,300\n2,12,600\n");
($rc, $out, $err) = run_client('report', $dirs);
is($rc, 0, 'words under rounds = auto: report exits 0') or diag $err;
like($out, qr/^ default \| 1 +\| small .*\| same within ±1% \(B slower by 0\.\d\d–0\.\d\d%\) +\| decided at look 2/m,
	'words under rounds = auto: the same within 1%, B slower by a range');
like($out, qr/^ default \| 1 +\| cross .*\| undecided \(B slower; beyond 1% not settled\) +\| budget spent/m,
	'words under rounds = auto: undecided, B slower, beyond 1% not settled');
like($out, qr/^ default \| 1 +\| none .*\| same within ±1% +\| decided/m,
	'words under rounds = auto: a CI across 0 adds nothing to the same within 1%');
$summaryw = ReportFixture::read_json_exact("$dirs/summary.json");
is(join(' ', map { $_->{decision} } @{ $summaryw->{cells} }), 'same undecided same',
	'words under rounds = auto: the decisions are what they were');

# --- compare DIR_A DIR_B: a rerun where "new" got 10% faster -----------------
my $rerun = "$base/rerun";
ReportFixture::write_dir(
	$rerun,
	clients => [ 1, 2 ],
	rounds => scalar @noise,
	variants => [ { name => 'old', set => ['work_mem=4MB'] }, { name => 'new', set => ['work_mem=8MB'] } ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my $f = $variant eq 'new' ? ($clients == 1 ? 1.05 * 1.10 : 1.10) : 1.0;
		return 1000 * $clients * $f * (1 + $noise[ $round - 1 ]);
	});
($rc, $out, $err) = run_client('compare', $dir, $rerun);
is($rc, 0, 'compare exits 0') or diag $err;
like($out, qr/^ default \| 1 +\| old .*\| faster|^ default \| 1 +\| old .*no change/m, 'old in both');
like($out, qr/^ default \| 2 +\| new .*\| \+10\.00% .*\| faster/m, 'new is 10% faster in the rerun');
like($out, qr/^ default \| 2 +\| new vs old \| \+0\.00% \[.*\] \(8 rounds\) \| no change.*\| \+10\.00% \[.*\] \(8 rounds\) +\| faster +\| disjoint/m,
	'effects side by side, each with its unit: not reproduced, CIs disjoint');
($rc, $out, $err) = run_client('compare', $dir);
is($rc, 2, 'compare with one directory: usage error');
like($err, qr/two results directories are needed, DIR_A and DIR_B; 1 given/, 'and says so');

foreach my $cmd (qw(report compare import))
{
	($rc, $out, $err) = run_client($cmd, '--help');
	is($rc, 0, "$cmd --help");
	like($out, qr/^Usage:\n  pgbench_ext $cmd /m, "$cmd --help shows the usage");
}
($rc, $out, $err) = run_client('report', '--frobnicate', $dir);
is($rc, 2, 'unknown report option: usage error');
like($err, qr/Try "pgbench_ext report --help"/, 'with the hint');

done_testing();

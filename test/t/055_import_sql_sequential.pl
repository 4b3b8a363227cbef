# rounds = auto in SQL: a real budgeted experiment (a large injected
# slowdown that decides at an early look, an A/A beside it that runs on to
# the budget) is imported, and experiment_report() gives each comparison
# its deciding look's estimate, CI, p and verdict, which look decided, and
# all rounds as if fixed under their own name, each figure bit-identical
# with summary.json; recomputed in the server from the plan, budget.csv and
# the runs, not copied.  Without budget.csv's blocks, SQL, like the report,
# shows all rounds as a fixed design; importing again restores them.
#
# The experiment is one this client ran and kept
# (test/fixtures/results-budgeted: experiment.json, runs.csv, budget.csv
# and instances.csv as written, on a loaded 2-CPU host, the results
# directory's path in them made /tmp/results-budgeted):
#
#   pgbench_ext ab -s 1 -c 1 -T 1 -b select-only --reset never \
#     --rounds auto --budget 150s --seed 31 \
#     --variant A --bindir /usr/lib/postgresql/15/bin \
#     --variant B --cluster A --session-set pgbench_ext.inject_slowdown_pct=40 \
#     --variant C --cluster A --session-set work_mem=8MB
#
# B was decided slower at block 2 of 3, C ran to the budget undecided.
# Its summary.json is computed here by "report" from those files, so what
# is compared is this tree's client against this tree's SQL, on fixed data:
# nothing here judges a host's noise.  Running such an experiment live
# (two minutes of pgbench, most of this test's CPU when it did) is test
# 046's (a 40% slowdown decided on one server) and 047's (the forecast
# after the second block).
use strict;
use warnings;

use File::Copy;
use JSON::PP;
use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;
use ReportFixture;

my $base = shared_tempdir();
my $dir = "$base/seq";
mkdir $dir or die "mkdir $dir: $!";
copy(source_tree() . "/test/fixtures/results-budgeted/$_", "$dir/$_") or die "copy $_: $!"
  for qw(experiment.json runs.csv budget.csv instances.csv);
my ($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report of a budgeted experiment with a slowdown and an A/A') or diag "$out\n$err";
my $summary = ReportFixture::read_json_exact("$dir/summary.json");
my %cell = map { $_->{variant} => $_ } @{ $summary->{cells} };
is($cell{B}{sequential}{decision}, 'slower', 'the client: B is decided slower');
is($cell{B}{sequential}{block}, 2, 'at its second block, as the run decided it');
is($cell{C}{sequential}{decision}, 'undecided', 'the client: C undecided');
is($summary->{sequential}{blocks_done}, 3, 'after three blocks');
diag("B decided at look $cell{B}{sequential}{look} (block $cell{B}{sequential}{block}); "
	  . "C: $cell{C}{sequential}{decision} at look $cell{C}{sequential}{look}; "
	  . "$summary->{sequential}{blocks_done} blocks done, $summary->{sequential}{stopped}");

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->start;
my $db = create_database($node, 'report_sequential');
($rc, $out, $err) = run_client_on($node, 'import', $dir, "dbname=$db");
is($rc, 0, 'import exits 0') or diag $err;
my ($id) = $out =~ /^imported experiment (\d+): 3 variants, /m;
ok($id, 'import says what it imported') or diag $out;

# every cell, its geomean, to the last bit
sub parity
{
	my ($s, $what) = @_;
	is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.experiment_report($id)"),
		scalar @{ $s->{cells} }, "$what: a row per row of the terminal table");
	foreach my $c (@{ $s->{cells} })
	{
		is($node->safe_psql($db, ReportFixture::parity_sql($id, undef, $c)), '1/1',
			"$what: experiment_report() = summary.json to the last bit: $c->{variant} vs $c->{baseline}");
	}
	foreach my $g (@{ $s->{geomean} })
	{
		my $lit = sub { defined $_[0] ? "$_[0]::float8" : 'NULL::float8' };
		is($node->safe_psql($db, "SELECT median_tps IS NOT DISTINCT FROM " . $lit->($g->{median_tps})
				  . " AND ratio IS NOT DISTINCT FROM " . $lit->($g->{ratio})
				  . " FROM pgbench_ext.experiment_geomean($id) WHERE variant = '$g->{variant}'"),
			't', "$what: experiment_geomean() = summary.json: $g->{variant}");
	}
}
parity($summary, 'rounds = auto');
is($node->safe_psql($db, "SELECT string_agg(variant || ' ' || verdict || ' ' || design || ' look ' || look || ' of ' || max_looks, '; ') "
		  . "FROM pgbench_ext.experiment_report($id) WHERE variant = 'B'"),
	"B $cell{B}{verdict} rounds = auto look $cell{B}{sequential}{look} of $cell{B}{sequential}{max_looks}",
	"B: $cell{B}{verdict}, as the client says, and at which look of how many");
# the deciding look saw only its rounds: fewer than all when it decided
# before the last block
is($node->safe_psql($db, "SELECT look_rounds FROM pgbench_ext.experiment_report($id) WHERE variant = 'B'"),
	$cell{B}{sequential}{block} * $summary->{sequential}{plan}{block_rounds}, 'B: the rounds its look saw');
my @budget = grep { /^\d/ } split /\n/, slurp_file("$dir/budget.csv");
is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.budget_blocks WHERE experiment_id = $id"),
	scalar @budget, 'budget.csv imported, a row per block');

# again: nothing twice
($rc, $out, $err) = run_client_on($node, 'import', $dir, "dbname=$db");
like($out, qr/^experiment $id was imported before from .*: 0 new runs/m, 'importing again adds no run') or diag $err;
is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.budget_blocks WHERE experiment_id = $id"),
	scalar @budget, 'nor a block');

# without budget.csv the looks cannot be replayed (they spend alpha by the
# budget's clock): the report shows all rounds as a fixed design, and so
# does SQL without the blocks
my $copy = "$base/seq-copy";
mkdir $copy;
copy("$dir/$_", "$copy/$_") or die "copy $_: $!" for qw(experiment.json runs.csv);
($rc, $out, $err) = run_client('report', $copy);
is($rc, 0, 'report without budget.csv') or diag $err;
my $fixed = ReportFixture::read_json_exact("$copy/summary.json");
ok(!defined $fixed->{sequential}, 'the report: no looks without budget.csv');
$node->safe_psql($db, "DELETE FROM pgbench_ext.budget_blocks WHERE experiment_id = $id");
parity($fixed, 'no budget.csv');
is($node->safe_psql($db, "SELECT string_agg(DISTINCT design, ',') FROM pgbench_ext.experiment_report($id)"),
	'fixed', 'SQL says which design it shows');
($rc, $out, $err) = run_client_on($node, 'import', $dir, "dbname=$db");
is($rc, 0, 'importing the directory again') or diag $err;
parity($summary, 'blocks imported again');

# Against a reference ratio (the reference key, which bisect gives a middle
# step): the same runs with reference = 0.8 in experiment.json, rendered by
# the client and imported; SQL replays the looks against it, to the last
# bit, and says which side of it as the client says.  B, 40% slower, lies
# below it; C, the A/A, above it (each decided, or undecided at the budget).
my $ref_dir = "$base/seq-reference";
mkdir $ref_dir;
copy("$dir/$_", "$ref_dir/$_") or die "copy $_: $!" for qw(runs.csv budget.csv);
{
	my $json = JSON::PP->new->canonical;
	my $exp = $json->decode(slurp_file("$dir/experiment.json"));
	$exp->{spec}{experiment}{reference} = 0.8;
	open my $fh, '>', "$ref_dir/experiment.json" or die "could not write $ref_dir/experiment.json: $!";
	print $fh $json->encode($exp);
	close $fh;
}
($rc, $out, $err) = run_client('report', $ref_dir);
is($rc, 0, 'report of the runs against a reference') or diag $err;
my $against = ReportFixture::read_json_exact("$ref_dir/summary.json");
my %against_cell = map { $_->{variant} => $_ } @{ $against->{cells} };
cmp_ok(abs(($against_cell{B}{reference} // 0) - 0.8), '<', 1e-12, 'summary.json: the cell has its reference');
like($against_cell{B}{verdict}, qr/^(below the reference -20\.00%|undecided)$/, "the client: B $against_cell{B}{verdict}");
($rc, $out, $err) = run_client_on($node, 'import', $ref_dir, "dbname=$db");
is($rc, 0, 'import of the runs against a reference') or diag $err;
($id) = $out =~ /^imported experiment (\d+): 3 variants, /m;
parity($against, 'against a reference');
is($node->safe_psql($db, "SELECT verdict FROM pgbench_ext.experiment_report($id) WHERE variant = 'B'"),
	$against_cell{B}{verdict}, 'SQL: B\'s verdict in the client\'s words');

done_testing();

# "pgbench_ext import" loads a results directory into the extension's tables,
# and pgbench_ext.experiment_report() over it gives the terminal table's figures (paired
# p included) to the last bit: every figure of summary.json is compared with experiment_report()'s in SQL
# (a float8 literal with all its digits is read back exactly).
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
my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->start;
my $db = create_database($node, 'report_import');
my @noise = (-0.02, -0.01, 0, 0.01, 0.02, -0.015, 0.005, 0.015, 0.003, -0.007);

# three variants over two client counts; one run failed, one in warmup
my $dir = "$base/three";
ReportFixture::write_dir(
	$dir,
	clients => [ 1, 8 ],
	rounds => scalar @noise,
	variants => [ { name => 'head' }, { name => 'patch', set => ['enable_x=on'] }, { name => 'lto' } ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my %f = (head => 1, patch => $clients == 8 ? 1.03 : 0.999, lto => 1.05);
		return 500 * $clients * $f{$variant} * (1 + $noise[ ($round * 3 + length $variant) % @noise ]);
	},
	run_extra => sub {
		my ($run) = @_;
		$run->{status} = 'failed', $run->{tps} = '' if $run->{run_id} == 7;
		$run->{warmup} = 'true' if $run->{run_id} == 2;
	});

my $id;
foreach my $baseline (undef, 'lto')
{
	my @args = ('report', $dir);
	splice @args, 1, 0, '--baseline', $baseline if defined $baseline;
	my ($rc, $out, $err) = run_client(@args);
	is($rc, 0, 'report ' . ($baseline // 'default baseline')) or diag $err;
	my $summary = ReportFixture::read_json_exact("$dir/summary.json");

	if (!defined $id)
	{
		($rc, $out, $err) = run_client_on($node, 'import', $dir, "dbname=$db");
		is($rc, 0, 'import exits 0') or diag $err;
		($id) = $out =~ /^imported experiment (\d+): 3 variants, 60 runs from /m;
		ok($id, 'import says what it imported') or diag $out;
		like($out, qr/SELECT \* FROM pgbench_ext\.experiment_report\($id\)/, 'and how to look at it');
	}
	my @cells = @{ $summary->{cells} };
	is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.experiment_report($id, " . (defined $baseline ? "'$baseline'" : 'NULL') . ")"),
		scalar @cells, 'experiment_report() has one row per row of the terminal table');
	foreach my $cell (@cells)
	{
		is($node->safe_psql($db, ReportFixture::parity_sql($id, $baseline, $cell)), '1/1',
			"experiment_report() = summary.json to the last bit: $cell->{variant} vs $cell->{baseline}, $cell->{clients} clients");
	}
	# the geomean rows, through the same stats_geomean()
	my $b = defined $baseline ? "'$baseline'" : 'NULL';
	my @geo = @{ $summary->{geomean} };
	is($node->safe_psql($db, "SELECT string_agg(variant, ',') FROM pgbench_ext.experiment_geomean($id, $b)"),
		join(',', map { $_->{variant} } @geo), 'experiment_geomean(): a row per variant, in specification order');
	foreach my $g (@geo)
	{
		is($node->safe_psql($db, "SELECT median_tps = $g->{median_tps}::float8 AND ratio = $g->{ratio}::float8 "
			  . "FROM pgbench_ext.experiment_geomean($id, $b) WHERE variant = '$g->{variant}'"),
			't', "experiment_geomean() = summary.json to the last bit: $g->{variant}");
	}
}

# the rows are in the terminal table's order, the verdicts as printed
is($node->safe_psql($db, "SELECT string_agg(clients || ' ' || variant || ' ' || verdict, '; ') FROM pgbench_ext.experiment_report($id)"),
	'1 patch no change; 1 lto faster; 8 patch faster; 8 lto faster', 'rows and verdicts in table order');

# what was imported
is($node->safe_psql($db, "SELECT count(*), count(*) FILTER (WHERE status = 'failed'), count(*) FILTER (WHERE warmup), "
	  . "count(detail) FROM pgbench_ext.runs WHERE experiment_id = $id"),
	'60|1|1|59', 'runs: all of runs.csv, failed and warmup included, with runs/NNNN.json as detail');
is($node->safe_psql($db, "SELECT string_agg(variant || ':' || position, ',' ORDER BY position) FROM pgbench_ext.variants WHERE experiment_id = $id"),
	'head:1,patch:2,lto:3', 'variants in specification order');
is($node->safe_psql($db, "SELECT (detail -> 'counters' -> 'xact' ->> 'cycles')::float8 / transactions FROM pgbench_ext.runs "
	  . "WHERE experiment_id = $id AND run_id = 1"),
	'10000', 'counters of a run queryable as jsonb');
like($node->safe_psql($db, "SELECT spec -> 'experiment' ->> 'rounds' FROM pgbench_ext.experiments WHERE experiment_id = $id"),
	qr/^10$/, 'the specification is kept');

# build seeds: each B@seedK is compared with A@seedK, the first variant's
# build of its own seed (not with A@seed1, whose layout's luck is not B@seedK's),
# by the client and by experiment_report() alike
my $seeded = "$base/seeded";
my %seed_factor = ('A@seed1' => 1, 'A@seed2' => 1.04, 'B@seed1' => 1.02, 'B@seed2' => 1.06);
ReportFixture::write_dir(
	$seeded,
	clients => [1],
	rounds => scalar @noise,
	variants => [ map { { name => $_ } } sort keys %seed_factor ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		return 500 * $seed_factor{$variant} * (1 + $noise[ ($round * 3 + ord(substr($variant, -1))) % @noise ]);
	});
my ($rc, $out, $err) = run_client('report', $seeded);
is($rc, 0, 'report of a seeded experiment') or diag $err;
like($out, qr/^build seeds: default, 1 client: B\@seed2 vs A\@seed2: \+1\.\d\d%/m,
	'B@seed2 against A@seed2: the change within one seed (+1.9%, not +6% against A@seed1)');
my $seeded_summary = ReportFixture::read_json_exact("$seeded/summary.json");
is(join(',', map { "$_->{variant}:$_->{baseline}" } @{ $seeded_summary->{cells} }),
	'A@seed2:A@seed1,B@seed1:A@seed1,B@seed2:A@seed2,B@seed*:A@seed*',
	q{every row's baseline: A@seed1 for A's other seed, A@seedK for B@seedK, every seed pooled});
($rc, $out, $err) = run_client_on($node, 'import', $seeded, "dbname=$db");
is($rc, 0, 'import of the seeded experiment') or diag $err;
my ($seeded_id) = $out =~ /^imported experiment (\d+):/m;
is($node->safe_psql($db, "SELECT string_agg(variant || ':' || baseline_variant, ',') FROM pgbench_ext.experiment_report($seeded_id)"),
	'A@seed2:A@seed1,B@seed1:A@seed1,B@seed2:A@seed2,B@seed*:A@seed*', 'experiment_report() pairs the seeds the same way');
foreach my $cell (@{ $seeded_summary->{cells} })
{
	is($node->safe_psql($db, ReportFixture::parity_sql($seeded_id, undef, $cell)), '1/1',
		"seeded: experiment_report() = summary.json to the last bit: $cell->{variant} vs $cell->{baseline}");
}

# errors
($rc, $out, $err) = run_client_on($node, 'import', "$base/nothing", "dbname=$db");
is($rc, 2, 'import of a missing directory: exit 2, as for any directory it cannot read');
like($err, qr/experiment\.json.*\n.*hint: .* must be a results directory/, 'says what is missing');
($rc, $out, $err) = run_client('import');
is($rc, 2, 'import without a directory: usage error');
my $stderr;
$node->psql($db, "SELECT * FROM pgbench_ext.experiment_report($id, 'nope')", stderr => \$stderr);
like($stderr, qr/experiment $id has no variant "nope"\nDETAIL:  Its variants are head, patch, lto\./,
	'experiment_report() with an unknown baseline names the variants');

done_testing();

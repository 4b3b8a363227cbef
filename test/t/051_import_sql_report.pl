# "pgbench_ext import" loads a results directory into the extension's tables,
# and pgbench_ext.experiment_report() over it gives the terminal table's figures (paired
# p included) to the last bit: every figure of summary.json is compared with experiment_report()'s in SQL
# (a float8 literal with all its digits is read back exactly).
use strict;
use warnings;

use File::Temp qw(tempdir);
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = tempdir(DIR => $ENV{TESTDIR}, CLEANUP => 1);
my $db = fresh_database('report_import', 1);
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

# SQL that is true when experiment_report()'s row equals a cell of summary.json exactly
sub parity_sql
{
	my ($id, $baseline, $cell) = @_;
	my %cmp = %{ $cell->{comparison} };
	my $lit = sub { my $v = shift; defined $v ? "$v" . '::float8' : 'NULL::float8' };
	my @checks = (
		"a_n = $cell->{a}{n}", "b_n = $cell->{b}{n}",
		(map { "a_$_->[0] IS NOT DISTINCT FROM " . $lit->($cell->{a}{ $_->[1] }) }
			  [ 'median', 'median' ], [ 'ci_low', 'median_ci_low' ], [ 'ci_high', 'median_ci_high' ]),
		(map { "b_$_->[0] IS NOT DISTINCT FROM " . $lit->($cell->{b}{ $_->[1] }) }
			  [ 'median', 'median' ], [ 'ci_low', 'median_ci_low' ], [ 'ci_high', 'median_ci_high' ]),
		(map { "$_ IS NOT DISTINCT FROM " . $lit->($cmp{$_}) }
			  qw(estimate ci_low ci_high change_pct p_value mde_pct)),
		"n_pairs = $cmp{n_pairs}",
		"verdict = '$cmp{verdict}'");
	my $b = defined $baseline ? "'$baseline'" : 'NULL';
	return "SELECT count(*) FILTER (WHERE " . join(' AND ', @checks) . ") || '/' || count(*) "
	  . "FROM pgbench_ext.experiment_report($id, $b) WHERE script = '$cell->{script}' "
	  . "AND clients = $cell->{clients} AND variant = '$cell->{variant}'";
}

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
		($rc, $out, $err) = run_client('import', $dir, "dbname=$db");
		is($rc, 0, 'import exits 0') or diag $err;
		($id) = $out =~ /^imported experiment (\d+): 3 variants, 60 runs from /m;
		ok($id, 'import says what it imported') or diag $out;
		like($out, qr/SELECT \* FROM pgbench_ext\.experiment_report\($id\)/, 'and how to look at it');
	}
	my @cells = @{ $summary->{cells} };
	is(psql($db, "SELECT count(*) FROM pgbench_ext.experiment_report($id, " . (defined $baseline ? "'$baseline'" : 'NULL') . ")"),
		scalar @cells, 'experiment_report() has one row per row of the terminal table');
	foreach my $cell (@cells)
	{
		is(psql($db, parity_sql($id, $baseline, $cell)), '1/1',
			"experiment_report() = summary.json to the last bit: $cell->{variant} vs $cell->{baseline}, $cell->{clients} clients");
	}
	# the geomean rows, through the same stats_geomean()
	my $b = defined $baseline ? "'$baseline'" : 'NULL';
	my @geo = @{ $summary->{geomean} };
	is(psql($db, "SELECT string_agg(variant, ',') FROM pgbench_ext.experiment_geomean($id, $b)"),
		join(',', map { $_->{variant} } @geo), 'experiment_geomean(): a row per variant, in specification order');
	foreach my $g (@geo)
	{
		is(psql($db, "SELECT median_tps = $g->{median_tps}::float8 AND ratio = $g->{ratio}::float8 "
			  . "FROM pgbench_ext.experiment_geomean($id, $b) WHERE variant = '$g->{variant}'"),
			't', "experiment_geomean() = summary.json to the last bit: $g->{variant}");
	}
}

# the rows are in the terminal table's order, the verdicts as printed
is(psql($db, "SELECT string_agg(clients || ' ' || variant || ' ' || verdict, '; ') FROM pgbench_ext.experiment_report($id)"),
	'1 patch no change; 1 lto faster; 8 patch faster; 8 lto faster', 'rows and verdicts in table order');

# what was imported
is(psql($db, "SELECT count(*), count(*) FILTER (WHERE status = 'failed'), count(*) FILTER (WHERE warmup), "
	  . "count(detail) FROM pgbench_ext.runs WHERE experiment_id = $id"),
	'60|1|1|59', 'runs: all of runs.csv, failed and warmup included, with runs/NNNN.json as detail');
is(psql($db, "SELECT string_agg(variant || ':' || position, ',' ORDER BY position) FROM pgbench_ext.variants WHERE experiment_id = $id"),
	'head:1,patch:2,lto:3', 'variants in specification order');
is(psql($db, "SELECT (detail -> 'counters' -> 'xact' ->> 'cycles')::float8 / transactions FROM pgbench_ext.runs "
	  . "WHERE experiment_id = $id AND run_id = 1"),
	'10000', 'counters of a run queryable as jsonb');
like(psql($db, "SELECT spec -> 'experiment' ->> 'rounds' FROM pgbench_ext.experiments WHERE experiment_id = $id"),
	qr/^10$/, 'the specification is kept');

# errors
my ($rc, $out, $err) = run_client('import', "$base/nothing", "dbname=$db");
is($rc, 2, 'import of a missing directory: exit 2, as for any directory it cannot read');
like($err, qr/experiment\.json.*\n.*hint: .* must be a results directory/, 'says what is missing');
($rc, $out, $err) = run_client('import');
is($rc, 2, 'import without a directory: usage error');
my ($ok, $stdout, $stderr);
IPC::Run::run([ 'psql', '-X', '-q', '-d', $db, '-c', "SELECT * FROM pgbench_ext.experiment_report($id, 'nope')" ],
	'>', \$stdout, '2>', \$stderr);
like($stderr, qr/experiment $id has no variant "nope"\nDETAIL:  Its variants are head, patch, lto\./,
	'experiment_report() with an unknown baseline names the variants');

done_testing();

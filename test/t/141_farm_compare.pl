# Machines as a level in SQL: the results of one experiment run on two
# machines (two results directories whose fingerprints differ, and a second
# directory of the first machine) imported into one database, and
# farm_compare() over them gives the verdict across machine pairs that
# "pgbench_ext report DIR1 DIR2 DIR3" prints, digit for digit; compare()
# takes unit_kind 'machine pair'.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;
my $node = PostgreSQL::Test::Cluster->new('farm_compare');
$node->init;
$node->start;
my $db = create_database($node, 'farm_compare');

# uniform noise in [-1, 1) with a fixed seed: the same on every machine
my $wobble = ReportFixture::noise(7);

my @dirs = map { ReportFixture::host_experiment("$base/$_->[0]", $_->[1], $_->[2], $_->[3], $wobble) }
  [ 'alpha1', 'alpha', 1, 1.05 ], [ 'beta1', 'beta', 2, 1.045 ], [ 'alpha2', 'alpha', 3, 1.052 ];

my ($rc, $out, $err) = run_client_on($node, 'import', @dirs, "dbname=$db");
is($rc, 0, 'import of three directories of two machines') or diag $err;
my ($signature) = $out =~ /signature ([0-9a-f]{16})/;
($rc, $out, $err) = run_client('report', @dirs);
is($rc, 0, 'report of the same three directories') or diag $err;

foreach my $clients (1, 2)
{
	my ($block) = grep { /^default, $clients clients?: patch vs base:/ } split /\n\n/, $out;
	my ($line) = $block =~ /^  across machines\s+(.*)$/m;
	ok($line, "the client's verdict across machines at $clients clients: $line");
	my $row = $node->safe_psql($db,
		"SELECT estimate, ci_low, ci_high, verdict, n_units, unit, array_length(machines, 1) "
		  . "FROM pgbench_ext.farm_compare('$signature', 'base', 'patch', 'default', $clients)");
	my ($est, $lo, $hi, $verdict, $units, $unit, $nmachines) = split /\|/, $row;
	my $pct = sub { sprintf('%+.2f%%', 100 * ($_[0] - 1)) };
	my $sql = sprintf('%s [%s, %s]  %s  (%d %ss)', $pct->($est), $pct->($lo), $pct->($hi), $verdict, $units, $unit);
	is($sql, $line, "farm_compare() at $clients clients gives the same figures");
	is($nmachines, 2, '  over two machines');
}

# compare() with machine pairs by hand: two machines, paired rounds in each
is($node->safe_psql($db,
		q{SELECT n_units, unit, round(estimate::numeric, 6) FROM pgbench_ext.compare(
		    ARRAY[100,100,200,200]::float8[], ARRAY[110,110,230,230]::float8[],
		    round_a => ARRAY[1,2,1,2], round_b => ARRAY[1,2,1,2],
		    unit_a => ARRAY[1,1,2,2], unit_b => ARRAY[1,1,2,2], unit_kind => 'machine pair')}),
	sprintf('2|machine pair|%.6f', sqrt(1.1 * 1.15)), 'compare() with unit_kind machine pair: one summary per machine');

$node->stop;
done_testing();

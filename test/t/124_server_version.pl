# The suite ran against the release it was built for: a test server's
# server_version_num is of the major version of PG_CONFIG, which built and
# installed the extension (PG_MODULE_MAGIC refuses a library of another
# major).  With PGBENCH_EXT_EXPECT_MAJOR set (tools/test-release does), the
# server must also be that release: a run meant for PostgreSQL 18 that
# found another server fails here instead of passing on the wrong one.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $pg_config = pg_config();
my ($major) = `$pg_config --version` =~ /^PostgreSQL (\d+)/;
ok($major, "$pg_config is of PostgreSQL $major");

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->start;
my $db = create_database($node, 'server_version');
my $num = $node->safe_psql($db, 'SHOW server_version_num');
is(int($num / 10000), $major, "the server ($num) is of the release of $pg_config");
is($node->safe_psql($db, "SELECT value FROM pgbench_ext.environment() WHERE name = 'server_version_num'"),
	$num, 'and the extension reports it');

SKIP:
{
	my $want = $ENV{PGBENCH_EXT_EXPECT_MAJOR};
	skip 'PGBENCH_EXT_EXPECT_MAJOR not set', 1 unless $want;
	ok($num >= $want * 10000 && $num < ($want + 1) * 10000,
		"server_version_num $num is of PostgreSQL $want, as expected");
}

done_testing();

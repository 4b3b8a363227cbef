# pgbench_ext.compare() needs no shared memory, so it must work on a server
# that does not preload pgbench_ext: a server of our own with
# shared_preload_libraries empty, and the function called there.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('nopreload');
init_node($node);
$node->append_conf('postgresql.conf', "shared_preload_libraries = ''");
$node->start;

my ($rc, $out, $err) = $node->psql('postgres', q{
SHOW shared_preload_libraries;
CREATE EXTENSION pgbench_ext;
SELECT verdict, p_value = 2.0 / 252 FROM pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}');
});
is($rc, 0, 'server without preloading ran the queries') or diag $err;
my @lines = split /\n/, $out, -1;
is($lines[0], '', 'shared_preload_libraries is empty');
is($lines[1], 'faster|t', 'compare() works without shared_preload_libraries');

done_testing();

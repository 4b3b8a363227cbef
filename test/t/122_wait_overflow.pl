# Wait-table overflow is reported, not hidden: a server whose wait table
# holds 4 (backend type, wait event) pairs, sampled every millisecond,
# soon sees more pairs than that (the checkpointer, background writer, WAL
# writer, autovacuum launcher and client backends each wait on their own
# events); wait_profile() then ends with a row counting the lost samples,
# and report() says how many were lost and what to raise.
#
# What it assumes of the machine: nothing of its speed; the server's own
# processes wait on more than 4 events on any host, and the poll waits
# (up to PostgreSQL::Test's timeout) until a sample is lost.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('wait_overflow');
init_node($node);
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'pgbench_ext'
pgbench_ext.wait_table_size = 4
pgbench_ext.sample_interval_ms = 1
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgbench_ext');

is($node->safe_psql('postgres', 'SHOW pgbench_ext.wait_table_size'), '4', 'a table of 4 pairs');
ok( $node->poll_query_until(
		'postgres',
		"SELECT count(*) > 0 FROM pgbench_ext.wait_profile() WHERE wait_event_type = 'Overflow'"),
	'samples of a fifth pair are lost, and wait_profile() says so');

my @rows = map { [ split /\|/ ] } split /\n/, $node->safe_psql('postgres',
	'SELECT backend_type, wait_event_type, wait_event, samples, pct FROM pgbench_ext.wait_profile()');
my @kept = grep { $_->[1] ne 'Overflow' } @rows;
my ($lost) = grep { $_->[1] eq 'Overflow' } @rows;
is(scalar(@kept), 4, 'the table holds its 4 pairs');
is_deeply([ @$lost[ 0 .. 2 ] ], [ '(all)', 'Overflow', 'wait table full (pgbench_ext.wait_table_size)' ],
	'the lost samples come last, as one row for all backend types');
ok($lost->[3] > 0 && $lost->[4] > 0 && $lost->[4] < 100,
	"lost: $lost->[3] samples, $lost->[4]% of all");

like($node->safe_psql('postgres', "SELECT string_agg(line, E'\\n') FROM pgbench_ext.report() WHERE section = 'waits'"),
	qr/\d+ of \d+ samples \([\d.]+%\) lost: the wait table is full; raise pgbench_ext\.wait_table_size/,
	'report() says how many samples were lost and what to raise');

# reset() starts the count of lost samples afresh, as everything else
my $after = $node->safe_psql('postgres', q{
SELECT pgbench_ext.reset();
SELECT coalesce(sum(samples), 0) FROM pgbench_ext.wait_profile() WHERE wait_event_type = 'Overflow'});
$after = (split /\n/, $after)[-1];
ok($after < $lost->[3], "after reset() fewer samples lost ($after) than before ($lost->[3])");

$node->stop;
done_testing();

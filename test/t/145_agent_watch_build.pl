# An agent's watch built for real (PGBENCH_EXT_TEST_LONG=1): a git
# repository of PostgreSQL 15's source, one watch submitted; an agent
# takes it, exports the head, builds it as the watched variant, runs the
# experiment beside the installed server and imports the point tied to
# its commit (watch_point()): the watch queued again with that head as its
# last point.  A second look at the unmoved branch builds nothing.  Each
# point is a full build (an exported tree is new to the build cache).
use strict;
use warnings;

use AsServerAccount;
use FarmQueue;
use IPC::Run;
use PgSourceRepo;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my ($base, $src) = source_build_test('builds PostgreSQL from source (minutes)');
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('watchbuild');
$node->init;
$node->start;
my $db = create_database($node, 'farm');
my $sql = sub { $node->safe_psql($db, $_[0]) };

my $repo = "$base/pg";
my ($git, $head) = pg_source_repo($repo, $src, 'perf');

watch_experiment_file("$base/watch.ini", '1m', $bindir);
my ($rc, $out, $err) = run_client_on($node, 'submit', '--watch', "$repo:perf", "$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch') or diag $err;
my $job = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'watch'});

my $agent = sub {
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	my ($o, $e) = ('', '');
	IPC::Run::run([ client(), 'agent', '--once', '--poll', '1', '--state-dir', "$base/state", "dbname=$db" ],
		'<', \undef, '>', \$o, '2>', \$e);
	return ($? >> 8, $o, $e);
};

my $t0 = time;
($rc, $out, $err) = $agent->();
is($rc, 0, 'the agent built and ran the head') or diag "$out\n$err";
note sprintf('the first point took %d s', time - $t0);
like($out, qr/branch perf is at \Q@{[substr($head, 0, 12)]}\E, 1 commit\(s\) after the last point: building it as variant head/,
	'the first look builds the head');
like($out, qr/job $job: its point imported as experiment (\d+)/, 'and imports its point');
is($sql->(qq{SELECT w.commit || ':' || j.state || ':' || j.last_commit || ':' || (j.experiment_id = w.experiment_id)::int
	FROM pgbench_ext.watch_points w JOIN pgbench_ext.jobs j USING (job_id) WHERE job_id = $job}),
	"$head:queued:$head:1", 'the point is tied to the head\'s commit; the watch queued again with it as its last');
cmp_ok($sql->(qq{SELECT count(*) FROM pgbench_ext.runs r JOIN pgbench_ext.watch_points w USING (experiment_id)
	WHERE r.variant = 'head' AND r.tps > 0}), '>', 0, 'the head\'s runs are imported');

($rc, $out, $err) = $agent->();
like($out, qr/0 commit\(s\) after the last point: waiting/, 'the unmoved branch: the watch waits') or diag "$out\n$err";

$node->stop;
done_testing();

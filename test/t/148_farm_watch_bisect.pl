# A watched branch end to end (PGBENCH_EXT_TEST_LONG=1): a git repository
# of PostgreSQL 15's source, a branch that a developer advances one commit
# at a time, the fourth of which adds a busy loop to GetSnapshotData
# (test/fixtures/snapshot-busy-loop-large.patch, about -20% of tps).  The
# test submits one watch (--every 1-commits) and starts one agent; after
# that it only commits.  The agent builds each head and records its point;
# at the sixth point (changepoints() wants three on either side) the
# history shows the step, watch_point() queues a bisect between the third
# and the fourth commit, and the same agent runs it: the culprit stored
# with the change point is the commit that added the loop.  Six builds
# from source (an exported tree is new to the build cache; the bisect's
# two are the watch's, reused) and six points of at most two minutes of runs,
# then the bisect's step.
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

my ($base, $src) = source_build_test('builds PostgreSQL from source six times (tens of minutes)');
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('watchbisect');
$node->init;
$node->start;
my $db = create_database($node, 'farm');
my $sql = sub { $node->safe_psql($db, $_[0]) };
farm_roles($node, $db);

my $repo = "$base/pg";
my ($git, $first) = pg_source_repo($repo, $src, 'perf');
my $slow_at = 4;
# commit k of the branch (k > 1): a line of the README, or at $slow_at the busy loop
my $advance = sub {
	my ($k) = @_;
	system('chmod', '-R', 'u+w', $repo) == 0 or die "chmod: $?";
	if ($k == $slow_at)
	{
		my $patch = source_tree() . '/test/fixtures/snapshot-busy-loop-large.patch';
		system('patch', '-s', '-p1', '-d', $repo, '-i', $patch) == 0 or die "patch: $?";
	}
	else
	{
		write_file("$repo/README", slurp_file("$repo/README") . "commit $k of the watched branch\n");
	}
	$git->('add', '-A', '-f', '.');
	$git->('commit', '-q', '-m', $k == $slow_at ? 'a busy loop in GetSnapshotData' : "commit $k");
	system('chmod', '-R', 'go-w,a+rX', $repo) == 0 or die "chmod: $?";
	return $git->('rev-parse', 'HEAD');
};

write_file("$base/watch.ini", <<"INI");
[experiment]
scale = 1
clients = 1
duration = 1
rounds = auto
budget = 2m
restart = auto
script = select-only
pilot = off

[variant base]
bindir = $bindir

[variant head]
source = $base/nowhere
INI
my ($rc, $out, $err) = run_client_on($node, 'submit', '--watch', "$repo:perf", '--every', '1-commits',
	"$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch --every 1-commits') or diag $err;
my $watch = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'watch'});

# --- from here on: one agent, and commits ------------------------------------
my ($o, $e) = ('', '');
my $t0 = time;
my $h = do
{
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	IPC::Run::start([ client(), 'agent', '--poll', '1', '--state-dir', "$base/state", "dbname=$db user=farm_run" ],
		'<', \undef, '>', \$o, '2>', \$e);
};
my @commits = ($first);
for my $k (1 .. 6)
{
	push @commits, $advance->($k) if $k > 1;
	my $got = wait_until(1800, sub {
		my $s = $sql->(qq{SELECT state || ':' || coalesce(last_commit, '') FROM pgbench_ext.jobs WHERE job_id = $watch});
		return $s =~ /^failed:/ || $s =~ /:$commits[-1]$/ ? $s : undef;
	}, $h);
	ok(defined $got && $got !~ /^failed:/, "point $k: the head built, run and recorded")
	  or BAIL_OUT("the watch stopped at point $k: " . ($got // 'timed out') . "\n$o\n$e");
	note sprintf('point %d after %d s', $k, time - $t0);
}

my $bisect = $sql->(q{SELECT string_agg(commit_before || '>' || commit_after || ':' || bisect_job, ',') FROM pgbench_ext.change_points});
is($bisect =~ s/:\d+$//r, "$commits[$slow_at - 1]>$commits[$slow_at]",
	'one change point, between the commit before the busy loop and the one that added it');
my $answer = wait_until(1800, sub {
	my $s = $sql->(q{SELECT j.state || ':' || coalesce(c.culprit, '') || ':' || coalesce(j.error, '')
		FROM pgbench_ext.change_points c JOIN pgbench_ext.jobs j ON j.job_id = c.bisect_job});
	return $s =~ /^(done|failed):/ ? $s : undef;
}, $h);
note sprintf('the bisect answered after %d s in all', time - $t0);
$h->signal('TERM') if $h->pumpable;
$h->finish;
is($answer, "done:$commits[$slow_at]:", 'its bisect, run by the same agent, names the commit that added the loop')
  or diag "$o\n$e";
my $shift = $sql->(q{SELECT culprit_shift_pct FROM pgbench_ext.change_points});
ok($shift ne '' && $shift < 0, "the culprit's shift against the commit before it is a slowdown ($shift%)");

$node->stop;
done_testing();

# A watched branch end to end (PGBENCH_EXT_TEST_LONG=1): a git repository
# that a developer advances one commit at a time, the seventh of which
# makes it slower.  The test submits one watch (--every 1-commits) and
# starts one agent; after that it only commits, until the history shows
# the step.  The agent builds each head and records its point; from the
# ninth point on (changepoints() wants three points after a step, and its
# permutation test more than three before it: docs/farm.md) the history
# shows the step, watch_point() queues a bisect between the sixth and the
# seventh commit, and the same agent runs it: the culprit stored with the
# change point is the commit that slowed it down.  A bisect job that
# cannot begin, queued before, fails saying why while the agent goes on.
#
# The repository is the linked source (test/fixtures/linked-source: a
# build in seconds) whose pgbench is held to 400 transactions a second,
# the seventh commit to 100; with PGBENCH_EXT_TEST_WATCH_SOURCE=1 too, it
# is PostgreSQL 15's source and the seventh commit adds a busy loop to
# GetSnapshotData (test/fixtures/snapshot-busy-loop-large.patch, about
# -20% of tps): nine builds or more from source (an exported tree is new
# to the build cache) and as many points of at most two minutes of runs,
# hours on a 2-CPU machine, longer than CI has room for.
use strict;
use warnings;

use AsServerAccount;
use FarmQueue;
use IPC::Run;
use LinkedSource;
use PgSourceRepo;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $from_source = ($ENV{PGBENCH_EXT_TEST_WATCH_SOURCE} // '') eq '1';
plan skip_all => 'builds the commits of a watched branch and bisects them (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};
my ($base, $src) = $from_source ? source_build_test('PostgreSQL from source') : (private_cache(), undef);
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('watchbisect');
$node->init;
$node->start;
my $db = create_database($node, 'farm');
my $sql = sub { $node->safe_psql($db, $_[0]) };
farm_roles($node, $db);

my $repo = "$base/repo";
my $slow_at = 7;
my ($git, $first, $advance);
if ($from_source)
{
	($git, $first) = pg_source_repo($repo, $src, 'perf');
	# commit k of the branch (k > 1): a line of the README, or at $slow_at the busy loop
	$advance = sub {
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
}
else
{
	my ($commit, $rate);
	($git, $commit, $rate) = linked_rate_repo($repo, 'perf', 400);
	$first = $commit->('pgbench at 400 tps');
	# commit k (k > 1): a comment, or at $slow_at a quarter of the rate
	$advance = sub {
		my ($k) = @_;
		if ($k == $slow_at)
		{
			$rate->(100);
			return $commit->('pgbench held to 100 tps');
		}
		write_file("$repo/hello.c", slurp_file("$repo/hello.c") . "/* commit $k of the watched branch */\n");
		return $commit->("commit $k");
	};
}

watch_experiment_file("$base/watch.ini", '2m', $bindir);
my ($rc, $out, $err) = run_client_on($node, 'submit', '--watch', "$repo:perf", '--every', '1-commits',
	"$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch --every 1-commits') or diag $err;
my $watch = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'watch'});
# a bisect job that cannot begin (its good commit is not in the
# repository), as if a change point had queued it: it fails, saying why,
# and the agent goes on with the watch
my $missing = 'f' x 40;
my $broken = $sql->(qq{INSERT INTO pgbench_ext.jobs (name, experiment, builds, seed, machines, submitted_by,
		kind, repo, variant, good, bad)
	SELECT name, experiment, builds, seed, 'any', submitted_by, 'bisect', repo, variant, '$missing', '$first'
	FROM pgbench_ext.jobs WHERE job_id = $watch RETURNING job_id});

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
my $changes = 0;
for my $k (1 .. 12)
{
	push @commits, $advance->($k) if $k > 1;
	my $got = wait_until(1800, sub {
		my $s = $sql->(qq{SELECT state || ':' || coalesce(last_commit, '') FROM pgbench_ext.jobs WHERE job_id = $watch});
		return $s =~ /^failed:/ || $s =~ /:$commits[-1]$/ ? $s : undef;
	}, $h);
	ok(defined $got && $got !~ /^failed:/, "point $k: the head built, run and recorded")
	  or BAIL_OUT("the watch stopped at point $k: " . ($got // 'timed out') . "\n$o\n$e");
	note sprintf('point %d after %d s', $k, time - $t0);
	$changes = $sql->(q{SELECT count(*) FROM pgbench_ext.change_points});
	last if $changes > 0;
}
ok($changes > 0 && @commits > $slow_at, sprintf('a change point after %d points', scalar @commits));

my $bisect = $sql->(q{SELECT string_agg(commit_before || '>' || commit_after || ':' || bisect_job, ',') FROM pgbench_ext.change_points});
is($bisect =~ s/:\d+$//r, "$commits[$slow_at - 2]>$commits[$slow_at - 1]",
	'one change point, between the commit before the slowdown and the one that made it');
my $answer = wait_until(1800, sub {
	my $s = $sql->(q{SELECT j.state || ':' || coalesce(c.culprit, '') || ':' || coalesce(j.error, '')
		FROM pgbench_ext.change_points c JOIN pgbench_ext.jobs j ON j.job_id = c.bisect_job});
	return $s =~ /^(done|failed):/ ? $s : undef;
}, $h);
note sprintf('the bisect answered after %d s in all', time - $t0);
$h->signal('TERM') if $h->pumpable;
$h->finish;
my $culprit = $commits[$slow_at - 1];
is($answer, "done:$culprit:", 'its bisect, run by the same agent, names the commit that slowed it down')
  or diag "$o\n$e";
my $shift = $sql->(q{SELECT culprit_shift_pct FROM pgbench_ext.change_points});
ok($shift ne '' && $shift < 0, "the culprit's shift against the commit before it is a slowdown ($shift%)");
like($o, qr/^job \d+ done: culprit \Q@{[substr($culprit, 0, 12)]}\E, -\d+\.\d\d% \(CI .*\), stored with 1 change point\(s\)$/m,
	'the agent says so');
my $bisect_job = $sql->(q{SELECT bisect_job FROM pgbench_ext.change_points});
my ($dir) = glob("$base/state/job-$bisect_job-*/bisect");
ok(defined $dir && -f "$dir/bisect.md", 'the bisect\'s directory and its report are the job\'s');
like($sql->(qq{SELECT state || ': ' || error FROM pgbench_ext.jobs WHERE job_id = $broken}),
	qr/^failed: the bisect failed on .*"$missing" is not a commit there/,
	'a bisect that cannot begin: its job failed, saying why, and the agent went on');
($rc, $out, $err) = run_client_on($node, 'jobs', "dbname=$db");
like($out, qr/bisect \Q@{[substr($commits[$slow_at - 2], 0, 12)]}..@{[substr($culprit, 0, 12)]}\E: culprit \Q@{[substr($culprit, 0, 12)]}\E -\d/,
	'"jobs" lists the bisect with its culprit');

$node->stop;
done_testing();

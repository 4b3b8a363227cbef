# An agent takes a watch (no build: the watched tree is no PostgreSQL
# source): it counts the commits of the branch after the watch's last
# point, and while they are fewer than its schedule it queues the watch
# for a later look (watch_wait()) and builds nothing; once the branch has
# moved far enough it exports the head's tree (git archive, as the build
# account, none of the repository's filters run; the last point's tree
# removed) and builds it as the watched variant's source.  An agent not given watches by its command
# never takes one.  The point's import with its commit (watch_point()) is
# 146's; the whole watch, built and bisected, the long test's.
use strict;
use warnings;

use AsServerAccount;
use FarmQueue;
use IPC::Run;
use PgSourceRepo;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use NodeTemplate;
use PgbenchExtTest;

my $base = shared_tempdir();
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('agentwatch');
init_node($node);
$node->start;
my $db = create_database($node, 'farm');
# one session for the test's queries: a psql and a backend for each cost
# more CPU than the queries
my $session = $node->background_psql($db);
$session->set_query_timer_restart;
my $sql = sub { $session->query_safe($_[0]) };

# a repository of the user running the test, its objects readable by the build account
my $repo = "$base/repo";
mkdir $repo;
my $git = git_in($repo);
my $commit = sub {
	my ($text) = @_;
	write_file("$repo/file.txt", "$text\n");
	$git->('add', 'file.txt');
	$git->('commit', '-q', '-m', $text);
	return $git->('rev-parse', 'HEAD');
};
$git->('init', '-q', '-b', 'dev');
# a filter the repository names: the export must not run it
write_file("$repo/.gitattributes", "*.txt filter=planted\n");
$git->('config', 'filter.planted.smudge', "touch $base/filter-ran; cat");
$git->('add', '.gitattributes');
my $first = $commit->('one');
system('chmod', '-R', 'go-w,a+rX', $repo) == 0 or die "chmod: $?";

watch_experiment_file("$base/watch.ini", '10m', $bindir);
my ($rc, $out, $err) = run_client_on($node, 'submit', '--watch', "$repo:dev", '--every', '2-commits',
	"$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch --every 2-commits') or diag $err;
my $job = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'watch'});
# as if its first point were in: the head is the last point's commit
$sql->(qq{UPDATE pgbench_ext.jobs SET last_commit = '$first' WHERE job_id = $job});

my $state = "$base/state";
my $agent = sub {
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	my ($o, $e) = ('', '');
	my $h = IPC::Run::start([ client(), 'agent', '--once', '--poll', '1', '--state-dir', $state, "dbname=$db" ],
		'<', \undef, '>', \$o, '2>', \$e);
	# --once waits for a job: a watch waiting for its next look is none
	my $ended = wait_until(60, sub { $h->pumpable ? undef : 1 }, $h);
	$h->kill_kill unless $ended;
	$h->finish;
	return ($h->result(0), $o, $e);
};

# --- not moved: the watch waits -----------------------------------------
# the look's time is before the agent's: not_before, its now() plus the
# poll of 1 s, is at least a second after it however long the agent took
my $before_look = $sql->(q{SELECT now()});
($rc, $out, $err) = $agent->();
is($rc, 0, 'the agent looked at the unmoved branch: exit status 0') or diag "$out\n$err";
like($out, qr/job $job: branch dev is at \Q@{[substr($first, 0, 12)]}\E, 0 commit\(s\) after the last point: waiting/,
	'it says the branch has not moved');
is($sql->(qq{SELECT state || ':' || attempt || ':' || (not_before >= '$before_look'::timestamptz + interval '1 second')::int || ':' || last_commit FROM pgbench_ext.jobs WHERE job_id = $job}),
	"queued:1:1:$first", 'the watch is queued again for a later look, its last point unchanged');

# --- one commit: fewer than its schedule ---------------------------------
my $second = $commit->('two');
$sql->(qq{UPDATE pgbench_ext.jobs SET not_before = NULL WHERE job_id = $job});
($rc, $out, $err) = $agent->();
like($out, qr/branch dev is at \Q@{[substr($second, 0, 12)]}\E, 1 commit\(s\) after the last point: waiting/,
	'one commit of two: still waiting') or diag "$out\n$err";
is($sql->(qq{SELECT state || ':' || attempt FROM pgbench_ext.jobs WHERE job_id = $job}), 'queued:2', 'queued again');
ok(!-d glob("$state/job-$job-*/sources"), 'nothing was exported');

# --- two commits: the head exported and built ----------------------------
my $third = $commit->('three');
$sql->(qq{UPDATE pgbench_ext.jobs SET not_before = NULL WHERE job_id = $job});
($rc, $out, $err) = $agent->();
like($out, qr/branch dev is at \Q@{[substr($third, 0, 12)]}\E, 2 commit\(s\) after the last point: building it as variant head/,
	'two commits: the head is built') or diag "$out\n$err";
my ($tree) = glob("$state/job-$job-*/sources/$third");
ok(defined $tree && -f "$tree/file.txt", 'the head\'s tree is exported under the job\'s directory');
is(defined $tree ? slurp_file("$tree/file.txt") : '', "three\n", 'the head\'s own content');
ok(!-e "$base/filter-ran", 'the repository\'s filter did not run');
like($sql->(qq{SELECT state || ':' || error FROM pgbench_ext.jobs WHERE job_id = $job}), qr/^failed:.*experiment failed/,
	'the tree is no PostgreSQL source: its build fails and so does the watch');
isnt($rc, 0, 'as the agent\'s exit status says');

# --- the next point's tree replaces the last's ----------------------------
$sql->(qq{UPDATE pgbench_ext.jobs SET state = 'queued', last_commit = '$third' WHERE job_id = $job});
$commit->('four');
my $fifth = $commit->('five');
($rc, $out, $err) = $agent->();
like($out, qr/2 commit\(s\) after the last point: building it/, 'two commits more: the next head is built') or diag "$out\n$err";
my @trees = map { s{.*/}{}r } glob("$state/job-$job-*/sources/*");
is("@trees", $fifth, 'its tree alone is kept, the last point\'s removed');

# --- an agent its command gave no git takes no watch ----------------------
is($sql->(q{SELECT count(*) FROM pgbench_ext.take_job((SELECT fingerprint FROM pgbench_ext.agents), kinds => '{run}')}),
	0, 'asking for runs only, the watch is not taken');

$session->quit;
done_testing();

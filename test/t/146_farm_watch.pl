# A watched branch, its scheduling in the database without builds: a watch
# job is taken only by an agent that asks for watches, each point
# (watch_point()) ties an imported experiment to its commit and queues the
# watch again (after its interval, for a schedule by time); watch_wait()
# queues it for a later look; a step in the watched variant's history
# gives one change point per cell with one bisect job between the commits
# around it, queued once however many points follow; the bisect's answer
# (bisect_answer()) is stored with its change points.  An attempt taken
# over by another agent records nothing.  The points are made-up imported
# experiments: one machine, one signature, a step of -20% at a position
# chosen here.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use NodeTemplate;
use PgbenchExtTest;

my $node = PostgreSQL::Test::Cluster->new('watch');
init_node($node);
$node->start;
my $db = create_database($node, 'farm');
# one session for the test's queries (about sixty): a psql and a backend
# started for each cost more CPU than the queries
my $session = $node->background_psql($db);
$session->set_query_timer_restart;
my $sql = sub { $session->query_safe($_[0]) };
my $fails = sub {
	my ($stdout, $stderr) = ('', '');
	$node->psql($db, $_[0], stdout => \$stdout, stderr => \$stderr);
	return $stderr;
};

$sql->(q{INSERT INTO pgbench_ext.agents (fingerprint, hostname, facts, result_fingerprints)
	VALUES ('a1', 'host1', '{}', '{m1}');
	INSERT INTO pgbench_ext.machines VALUES ('m1', 'host1', '{}')});

# --- the job's kinds and their columns ----------------------------------
like($fails->(q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, kind, repo, variant)
	VALUES ('w', 'x', 1, 'watch', '/repo', 'head')}), qr/violates check constraint/,
	'a watch without a branch is refused');
like($fails->(q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, kind, repo, branch, variant, every_commits, every)
	VALUES ('w', 'x', 1, 'watch', '/repo', 'main', 'head', 1, '1 hour')}), qr/violates check constraint/,
	'nor with two schedules');
like($fails->(q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, kind, repo, branch, variant, every_commits)
	VALUES ('w', 'x', 1, 'watch', '/repo', 'main', 'head', 0)}), qr/violates check constraint/,
	'nor every 0 commits');
my $watch = $sql->(q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, machines, submitted_by, kind, repo, branch, variant, every_commits)
	VALUES ('watch.ini', '[experiment]', 7, 'host1', 'watcher', 'watch', '/repo', 'main', 'head', 1) RETURNING job_id});
is($sql->(q{SELECT count(*) FROM pgbench_ext.take_job('a1')}), 0, 'an agent asking for runs does not take the watch');

# --- the points ---------------------------------------------------------
my $step = 7;    # the first point of the slower commits
my $n = 12;
my @commits = map { sprintf('%08x', 0xc0ffee00 + $_) x 5 } 1 .. $n;
my $attempt = 0;
my @new;
sub take_watch
{
	my $got = $sql->(q{SELECT job_id || ':' || attempt FROM pgbench_ext.take_job('a1', kinds => '{watch,bisect}')});
	(my $id, $attempt) = split /:/, $got;
	return $id;
}
sub point
{
	my ($k) = @_;
	my @tps = map { ($k >= $step ? 800 : 1000) * (1 + 0.004 * (($k * 7 + $_ * 3) % 5 - 2)) } 1 .. 4;
	my $runs = join ', ', map { "(e, $_, 'head', 'select-only', 1, 'ok', $tps[$_ - 1]), (e, $_ + 4, 'base', 'select-only', 1, 'ok', 1000)" } 1 .. 4;
	return $sql->(qq{WITH x AS (INSERT INTO pgbench_ext.experiments (source_dir, written_at, spec)
		VALUES ('/p$k', '2026-12-06T10:' || lpad('$k', 2, '0') || ':00Z', '{}') RETURNING experiment_id AS e),
	  s AS (INSERT INTO pgbench_ext.experiment_sources SELECT e, 'id$k', 'm1', 'sig' FROM x),
	  r AS (INSERT INTO pgbench_ext.runs (experiment_id, run_id, variant, script, clients, status, tps)
		SELECT v.* FROM x, LATERAL (VALUES $runs) v)
	SELECT e FROM x});
}
for my $k (1 .. $n)
{
	is(take_watch(), $watch, "point $k: the agent takes the watch") if $k <= 2 || $k == $n;
	take_watch() if $k > 2 && $k < $n;
	my $e = point($k);
	my $found = $sql->(qq{SELECT string_agg(commit_before || '>' || commit_after || ':' || bisect_job, ',')
		FROM pgbench_ext.watch_point($watch, $attempt, $e, '$commits[$k - 1]')});
	push @new, "$k=$found" if $found ne '';
}
is(scalar(@new), 1, 'one change point found, once') or diag join "\n", @new;
my $bisect = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'bisect'});
# changepoints() wants 3 points on either side: the third after the step
is($new[0] // '', ($step + 2) . "=$commits[$step - 2]>$commits[$step - 1]:$bisect",
	'found at the third point after the step, between the last commit before it and the first after, with its bisect job');
is($sql->(q{SELECT count(*) || ':' || min(variant) || ':' || min(script) || ':' || round(min(shift_pct))
	FROM pgbench_ext.change_points}), '1:head:select-only:-20', 'of the watched variant, -20%');
is($sql->(qq{SELECT state || ':' || last_commit || ':' || (heartbeat_at IS NULL) || ':' || experiment_id
	FROM pgbench_ext.jobs WHERE job_id = $watch}),
	"queued:$commits[-1]:true:" . $sql->('SELECT max(experiment_id) FROM pgbench_ext.experiments'),
	'the watch is queued again with its last point');
is($sql->(qq{SELECT count(*) || ':' || count(DISTINCT commit) FROM pgbench_ext.watch_points WHERE job_id = $watch}),
	"$n:$n", 'each point with its commit');
is($sql->(qq{SELECT string_agg(kind || ':' || machines || ':' || repo || ':' || variant || ':' || seed || ':' || submitted_by || ':' || state, ',')
	FROM pgbench_ext.jobs WHERE job_id = $bisect}), 'bisect:m1:/repo:head:7:watcher:queued',
	'the bisect job: for the machine of the history, the watch\'s repository, variant, seed and submitter');

# watch_point() queues jobs as its owner: only those granted it may call it
$sql->(q{CREATE ROLE farm_any LOGIN; GRANT USAGE ON SCHEMA pgbench_ext TO farm_any;
	GRANT SELECT ON ALL TABLES IN SCHEMA pgbench_ext TO farm_any});
{
	my ($stdout, $stderr) = ('', '');
	$node->psql($db, "SELECT pgbench_ext.watch_point($watch, $attempt, 1, '$commits[0]')",
		stdout => \$stdout, stderr => \$stderr, extra_params => [ '-U', 'farm_any' ]);
	like($stderr, qr/permission denied for function watch_point/, 'a role not granted watch_point() cannot call it');
}

# --- a watch that waits ---------------------------------------------------
$sql->(q{UPDATE pgbench_ext.jobs SET state = 'failed' WHERE kind = 'bisect'});
is(take_watch(), $watch, 'the watch taken again');
$sql->(qq{SELECT pgbench_ext.watch_wait($watch, $attempt, '1 hour')});
is($sql->(q{SELECT count(*) FROM pgbench_ext.take_job('a1', kinds => '{watch}')}), 0,
	'a watch waiting for its next look is not taken');
$sql->(qq{UPDATE pgbench_ext.jobs SET not_before = now() - '1 s'::interval, state = 'queued' WHERE job_id = $watch});
$sql->(q{UPDATE pgbench_ext.jobs SET state = 'queued' WHERE kind = 'bisect'});
is(take_watch(), $watch, 'once its time has come, it is');
like($fails->(qq{SELECT pgbench_ext.watch_point($watch, $attempt - 1, 1, '$commits[0]')}),
	qr/job $watch is no running watch job at attempt/, 'an older attempt records no point');
$sql->(qq{UPDATE pgbench_ext.jobs SET every_commits = NULL, every = '10 minutes' WHERE job_id = $watch});
my $e = point($n + 1);
$sql->(qq{SELECT pgbench_ext.watch_point($watch, $attempt, $e, '${\ ('ab' x 20)}')});
is($sql->(qq{SELECT not_before > now() + '9 minutes'::interval FROM pgbench_ext.jobs WHERE job_id = $watch}), 't',
	'a watch by time is next taken after its interval');

# --- the bisect's answer ----------------------------------------------------
is(take_watch(), $bisect, 'the bisect job is taken');
like($fails->(qq{SELECT pgbench_ext.bisect_answer($bisect, $attempt + 1, 'x', 1, 0, 2)}),
	qr/no running bisect job at attempt/, 'an answer of another attempt is refused');
is($sql->(qq{SELECT count(*) FROM pgbench_ext.bisect_answer($bisect, $attempt, '$commits[$step - 1]', -20.1, -21.5, -18.7)}),
	1, 'the answer stored with its change point');
is($sql->(q{SELECT culprit || ':' || culprit_shift_pct || ':' || culprit_ci_low || ':' || culprit_ci_high || ':' || (answered_at IS NOT NULL)
	FROM pgbench_ext.change_points}), "$commits[$step - 1]:-20.1:-21.5:-18.7:true", 'culprit, shift and CI');
is($sql->(qq{SELECT state FROM pgbench_ext.jobs WHERE job_id = $bisect}), 'done', 'the bisect job is done');

# --- submit --watch and jobs ---------------------------------------------
my $base = PostgreSQL::Test::Utils::tempdir;
my $bindir = pg_bindir();
mkdir "$base/src";
write_file("$base/watch.ini", <<"INI");
[experiment]
clients = 1
duration = 1
rounds = auto
budget = 10m
restart = auto
script = select-only

[variant base]
bindir = $bindir

[variant head]
source = $base/src
INI
my ($rc, $out, $err);
for my $bad ([ [ '--watch', 'relative:main' ], qr/no absolute path/ ], [ [ '--watch', '/repo:a..b' ], qr/no branch name/ ],
	[ [ '--watch', '/repo' ], qr/is not REPO:BRANCH/ ], [ [ '--watch', '/repo:main', '--every', '0-commits' ], qr/--every "0-commits"/ ],
	[ [ '--watch', '/repo:main', '--every', '5 weeks' ], qr/--every "5 weeks"/ ],
	[ [ '--watch', '/repo:main', '--variant', 'base' ], qr/variant "base" is not built from a source tree/ ],
	[ [ '--watch', '/repo:main', '--repeat', '2' ], qr/--repeat does not go with --watch/ ],
	[ [ '--every', '2-commits' ], qr/give --watch REPO:BRANCH/ ], [ [ '--watch', '/repo:main', '--variant', 'nope' ], qr/no variant "nope"/ ])
{
	($rc, $out, $err) = run_client_on($node, 'submit', @{ $bad->[0] }, "$base/watch.ini", "dbname=$db");
	is($rc, 2, "submit @{ $bad->[0] }: exit status 2");
	like($err, $bad->[1], '  naming the problem');
}
# a change point is bisected with the watch's file: it must be one bisect takes
for my $unbisectable ([ "rounds = auto\nbudget = 10m\nrestart = auto\n", "rounds = 2\nrestart = auto\n", qr/profile = counted or by tps with rounds = auto/ ],
	[ "rounds = auto\nbudget = 10m\nrestart = auto\n", "rounds = auto\nbudget = 10m\nrestart = never\n", qr/set restart = auto/ ],
	[ "clients = 1\n", "clients = 1,4\n", qr/one script and one client count \(found 1 and 2\)/ ])
{
	my ($from, $to, $why) = @$unbisectable;
	(my $text = slurp_file("$base/watch.ini")) =~ s/\Q$from\E/$to/ or die "no \"$from\" in watch.ini";
	write_file("$base/unbisectable.ini", $text);
	($rc, $out, $err) = run_client_on($node, 'submit', '--watch', '/repo:main', "$base/unbisectable.ini", "dbname=$db");
	is($rc, 2, "submit --watch of a file bisect could not take: exit status 2");
	like($err, $why, '  naming what bisect needs');
}
my $before = $sql->('SELECT count(*) FROM pgbench_ext.jobs');
($rc, $out, $err) = run_client_on($node, 'submit', '--watch', '/repo/pg.git:dev/perf', '--every', '6h', "$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch --every 6h') or diag $err;
like($out, qr{^job (\d+) watches branch dev/perf of /repo/pg\.git: variant head built from each head, at most once in 21600 seconds$}m,
	'says what it watches');
is($sql->(q{SELECT kind || ':' || repo || ':' || branch || ':' || variant || ':' || coalesce(every_commits::text, '-') || ':' || extract(epoch FROM every)::int
	FROM pgbench_ext.jobs ORDER BY job_id DESC LIMIT 1}), 'watch:/repo/pg.git:dev/perf:head:-:21600', 'queued as a watch');
($rc, $out, $err) = run_client_on($node, 'submit', '--watch', '/repo/pg.git:main', "$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch, every commit by default') or diag $err;
is($sql->('SELECT count(*) FROM pgbench_ext.jobs') - $before, 2, 'two watches queued');
($rc, $out, $err) = run_client_on($node, 'jobs', "dbname=$db");
is($rc, 0, 'jobs') or diag $err;
like($out, qr/\| watch main at abababababab, every 00:10:00\s*$/m, 'lists a watch with its last commit and interval') or diag $out;
like($out, qr/\| watch main, every 1 commit\(s\)\s*$/m, 'and one not yet looked at');
like($out, qr/\| bisect c0ffee06c0ff\.\.c0ffee07c0ff: culprit c0ffee07c0ff -20\.1% \(CI -21\.5 to -18\.7\)\s*$/m,
	'a bisect with its answer');

$session->quit;
$node->stop;
done_testing();

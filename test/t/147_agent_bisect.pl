# An agent runs the bisect jobs of a watch's change points, built for real
# but cheaply: the watched repository is a git repository of the linked
# source tree (test/fixtures/linked-source: a build in seconds whose
# programs are the installation under test) with a pgbench held to 400
# transactions a second, then two commits, the first of which holds it to
# 100: a slowdown of 75% that the machine's load neither hides nor mimics.  A bisect job between the first and the third commit,
# queued as watch_point() queues it, is taken by an agent of the running
# role: the commits are bisected with the watch's file, its watched variant
# alone, and the culprit, the second commit, is stored with the change
# point (bisect_answer()) with the job done.  A bisect job that cannot
# begin (its good commit is not in the repository) fails with why, and the
# same agent goes on with the next job.  The whole watch, from submit to
# the answer on PostgreSQL's source, is the long test's.
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

my $base = private_cache();
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('agentbisect');
$node->init;
$node->start;
my $db = create_database($node, 'farm');
my $sql = sub { $node->safe_psql($db, $_[0]) };
farm_roles($node, $db);

# --- the repository: the linked source, a slow commit between two others ---
my $repo = "$base/linked";
system('cp', '-a', linked_source(), $repo) == 0 or die "cp: $?";
my $git = git_in($repo);
my $commit = sub {
	$git->('add', '-A', '.');
	$git->('commit', '-q', '-m', $_[0]);
	return $git->('rev-parse', 'HEAD');
};
$git->('init', '-q', '-b', 'dev');
# pgbench's runs (pgbench -n ...) held to a rate, its -i as it was: every
# state's tps is its rate's, whatever else the machine does
my $rate = sub {
	write_file("$repo/pgbench.in", <<"SH");
#!/bin/sh
case "\$1" in
-n) exec \@LINK_BINDIR\@/pgbench -R $_[0] "\$@" ;;
esac
exec \@LINK_BINDIR\@/pgbench "\$@"
SH
};
$rate->(400);
my $mk = slurp_file("$repo/Makefile");
$mk =~ s/^PROGRAMS = postgres initdb pg_ctl pgbench$/PROGRAMS = postgres initdb pg_ctl/m or die 'Makefile: PROGRAMS';
$mk =~ s{(\tcp pg_config \$\(DESTDIR\)/usr/local/pgsql/bin/pg_config\n)}
	{$1\tsed "s|\@LINK_BINDIR\@|\$(LINK_BINDIR)|" pgbench.in >\$(DESTDIR)/usr/local/pgsql/bin/pgbench\n\tchmod +x \$(DESTDIR)/usr/local/pgsql/bin/pgbench\n}
  or die 'Makefile: install';
write_file("$repo/Makefile", $mk);
my $good = $commit->('pgbench at 400 tps');
# the slow commit: a quarter of that
$rate->(100);
my $slow = $commit->('pgbench held to 100 tps');
write_file("$repo/hello.c", slurp_file("$repo/hello.c") . "/* a commit after the slow one */\n");
my $bad = $commit->('a comment');
system('chmod', '-R', 'go-w,a+rX', $repo) == 0 or die "chmod: $?";

# --- the watch, and its change point's bisect as watch_point() queues it ---
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
my ($rc, $out, $err) = run_client_on($node, 'submit', '--watch', "$repo:dev", "$base/watch.ini", "dbname=$db");
is($rc, 0, 'submit --watch') or diag $err;
my $watch = $sql->(q{SELECT job_id FROM pgbench_ext.jobs WHERE kind = 'watch'});
# its points are 146's and the long test's: here it waits
$sql->(qq{UPDATE pgbench_ext.jobs SET not_before = now() + interval '1 day' WHERE job_id = $watch});
my $queue_bisect = sub {
	my ($from, $to) = @_;
	return $sql->(qq{
		WITH b AS (INSERT INTO pgbench_ext.jobs (name, experiment, builds, seed, machines, submitted_by, kind, repo, variant, good, bad)
			SELECT name, experiment, builds, seed, 'any', submitted_by, 'bisect', repo, variant, '$from', '$to'
			FROM pgbench_ext.jobs WHERE job_id = $watch RETURNING job_id)
		INSERT INTO pgbench_ext.change_points (watch_job, fingerprint, signature, variant, script, clients,
			commit_before, commit_after, p_value, shift_pct, bisect_job)
		SELECT $watch, 'm', 's', 'head', 'select-only', 1, '$from', '$to', 0.001, -95, job_id FROM b
		RETURNING bisect_job});
};
my $missing = 'f' x 40;
my $broken = $queue_bisect->($missing, $bad);
my $bisect = $queue_bisect->($good, $bad);

# --- one agent of the running role takes both -------------------------------
my ($o, $e) = ('', '');
my $t0 = time;
my $h = do
{
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	IPC::Run::start([ client(), 'agent', '--poll', '1', '--state-dir', "$base/state", "dbname=$db user=farm_run" ],
		'<', \undef, '>', \$o, '2>', \$e);
};
my $ended = wait_until(900,
	sub { $sql->(qq{SELECT state FROM pgbench_ext.jobs WHERE job_id = $bisect}) =~ /^(done|failed)$/ ? 1 : undef }, $h);
note sprintf('the agent answered in %d s', time - $t0);
$h->signal('TERM') if $h->pumpable;
$h->finish;
ok($ended, 'the agent finished the bisect job') or diag "$o\n$e";

like($sql->(qq{SELECT state || ': ' || error FROM pgbench_ext.jobs WHERE job_id = $broken}),
	qr/^failed: the bisect failed on .*"$missing" is not a commit there/,
	'a bisect that cannot begin: its job failed, saying why');
is($sql->(qq{SELECT state || ':' || coalesce(error, '') FROM pgbench_ext.jobs WHERE job_id = $bisect}), 'done:',
	'the agent went on with the next: that bisect is done');
my ($culprit, $shift, $low, $high, $answered) =
  split /\|/, $sql->(qq{SELECT culprit, culprit_shift_pct, culprit_ci_low, culprit_ci_high, answered_at IS NOT NULL
	FROM pgbench_ext.change_points WHERE bisect_job = $bisect});
is($culprit, $slow, 'the culprit stored with the change point is the slow commit') or diag "$o\n$e";
ok($shift < -50 && $low <= $shift && $shift <= $high && $high < 0,
	"its shift against the good end, -50% or less (-75% by the rates), inside its CI ($shift, $low to $high)");
is($answered, 't', 'and when it was answered');
like($o, qr/^job $bisect done: culprit \Q@{[substr($slow, 0, 12)]}\E, -\d+\.\d\d% \(CI .*\), stored with 1 change point\(s\)$/m,
	'the agent says so');
my ($dir) = glob("$base/state/job-$bisect-*/bisect");
ok(defined $dir && -f "$dir/bisect.md", 'the bisect\'s directory and its report are the job\'s');
like(defined $dir ? slurp_file("$dir/bisect.md") : '', qr/state 1, [0-9a-f]+ pgbench held to 100 tps/,
	'its report names the commit');
is($sql->(qq{SELECT state FROM pgbench_ext.jobs WHERE job_id = $watch}), 'queued', 'the watch is still queued');

($rc, $out, $err) = run_client_on($node, 'jobs', "dbname=$db");
like($out, qr/bisect \Q@{[substr($good, 0, 12)]}..@{[substr($bad, 0, 12)]}\E: culprit \Q@{[substr($slow, 0, 12)]}\E -\d/,
	'"jobs" lists the bisect with its culprit');

done_testing();

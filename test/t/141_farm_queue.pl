# The queue: "submit" checks an experiment file and queues it for the
# machines it names; two agents at once each take the job meant for them
# (one by host name, one by fingerprint) and neither takes a job for
# another host; each imports its results in the transaction that marks
# its job done.  An agent killed outright mid-run (SIGKILL) leaves its job
# running with a heartbeat that grows old; an agent of the same host with
# a short --timeout takes it again, resumes it from its results directory
# and imports exactly the runs of one complete experiment.  The three
# roles of docs/farm.md: a reader can neither submit nor take, a submitter
# can neither take nor import.  "jobs" lists the states.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Sys::Hostname ();
use Test::More;

use FarmQueue;
use NodeTemplate;
use PgbenchExtTest;

my $base = PostgreSQL::Test::Utils::tempdir;
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('queue');
init_node($node);
$node->start;
my $db = create_database($node, 'farm');

farm_roles($node, $db);
my %as = map { $_ => "dbname=$db user=farm_$_" } qw(submit run read);
is($node->safe_psql($db, q{SELECT count(*) FROM pg_class c, aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) a
    WHERE c.oid IN ('pgbench_ext.jobs'::regclass, 'pgbench_ext.agents'::regclass) AND a.grantee = 0}),
	0, 'nothing on jobs and agents is granted to PUBLIC');

my $small = farm_experiment_file("$base/small.ini", 2, 1, $bindir);
# one session for the test's queries: a psql and a backend for each cost
# more CPU than the queries
my $session = $node->background_psql($db);
$session->set_query_timer_restart;
my $sql_of = sub { $session->query_safe($_[0]) };

# --- submit: a bad file is refused and nothing queued ------------------
write_file("$base/bad.ini", "[experiment]\nscael = 1\n[variant a]\nbindir = $bindir\n[variant b]\ncluster = a\n");
my ($rc, $out, $err) = run_client_on($node, 'submit', "$base/bad.ini", $as{submit});
is($rc, 2, 'submit of a file with an unknown key: exit status 2');
like($err, qr/scael/, 'naming the key');
# refused only once resolved as the agent's run resolves it: build seeds
# expanded into servers of their own
write_file("$base/seeds.ini",
	"[experiment]\nscale = 1\n[variant a]\nsource = $base\nbuild_seeds = 2\n[variant b]\ncluster = a\n");
($rc, $out, $err) = run_client_on($node, 'submit', "$base/seeds.ini", $as{submit});
is($rc, 2, 'submit of build seeds beside a variant on their server: exit status 2');
like($err, qr/variant "b" has cluster = a, but "a" has build_seeds = 2.*Nothing was queued/s, 'with the run\'s own words');
($rc, $out, $err) = run_client_on($node, 'submit', '--repeat', '0', $small, $as{submit});
is($rc, 2, 'submit --repeat 0: exit status 2');
($rc, $out, $err) = run_client_on($node, 'submit', '--machines', '', $small, $as{submit});
is($rc, 2, 'submit --machines "": exit status 2');
is($sql_of->('SELECT count(*) FROM pgbench_ext.jobs'), 0, 'nothing was queued');

# --- two agents at once, each its own job --------------------------------
my $host = Sys::Hostname::hostname();
($rc, $out, $err) = run_client_on($node, 'submit', '--machines', $host, $small, $as{submit});
is($rc, 0, 'submit for this host name') or diag $err;
like($out, qr/^queued job 1: \Q$small\E \(1 of 1\) for \Q$host\E, seed \d+$/m, 'says what it queued');
($rc, $out, $err) = run_client_on($node, 'submit', '--machines', 'elsewhere.invalid', '--repeat', '2', $small, $as{submit});
is($rc, 0, 'submit twice for another host') or diag $err;
is($sql_of->("SELECT string_agg(job_id || ':' || repeat_index || '/' || repeat_count || ':' || submitted_by || ':' || state, ',' ORDER BY job_id) FROM pgbench_ext.jobs"),
	'1:1/1:farm_submit:queued,2:1/2:farm_submit:queued,3:2/2:farm_submit:queued', 'three jobs queued by farm_submit');
isnt($sql_of->('SELECT seed FROM pgbench_ext.jobs WHERE job_id = 2'), $sql_of->('SELECT seed FROM pgbench_ext.jobs WHERE job_id = 3'),
	'each repetition with its own seed');

sub start_agent
{
	my ($state, @opts) = @_;
	my %h = (out => '', err => '');
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	$h{run} = IPC::Run::start([ client(), 'agent', '--once', '--poll', '1', '--state-dir', $state, @opts, $as{run} ],
		'<', \undef, '>', \$h{out}, '2>', \$h{err});
	return \%h;
}

my $first = start_agent("$base/state1");
my $fp = wait_until(60, sub { $sql_of->('SELECT fingerprint FROM pgbench_ext.agents') || undef });
like($fp // '', qr/^[0-9a-f]{16}$/, 'the agent registered its machine');
($rc, $out, $err) = run_client_on($node, 'submit', '--machines', $fp, $small, $as{submit});
is($rc, 0, 'submit for this machine\'s fingerprint') or diag $err;
my $second = start_agent("$base/state2");
for my $a ($first, $second)
{
	$a->{run}->finish;
	is($? >> 8, 0, 'an agent ran one job and exited') or diag "$a->{out}\n$a->{err}";
}
like($first->{out}, qr/^job 1: .*small\.ini \(attempt 1\)$/m, 'the first agent took the job for its host name');
like($second->{out}, qr/^job 4: .*small\.ini \(attempt 1\)$/m, 'the second the job for its fingerprint');
like($first->{out} . $second->{out}, qr/^imported experiment \d+: 2 variants, 4 runs from /m, 'and imported its results');
is($sql_of->("SELECT string_agg(job_id || ':' || state || ':' || (experiment_id IS NOT NULL), ',' ORDER BY job_id) FROM pgbench_ext.jobs"),
	'1:done:true,2:queued:false,3:queued:false,4:done:true', 'two done with their experiments, the other host\'s jobs still queued');
is($sql_of->(q{SELECT count(*) || ':' || count(DISTINCT experiment_id) FROM pgbench_ext.runs}), '8:2', '4 runs of each experiment');
is($sql_of->('SELECT count(*) FROM pgbench_ext.agents WHERE cardinality(result_fingerprints) = 1'), 1,
	'the agent knows the fingerprint of its results');

# --- the roles ---------------------------------------------------------
my $psql_as = sub {
	my ($role, $sql) = @_;
	my ($stdout, $stderr) = ('', '');
	$node->psql($db, $sql, stdout => \$stdout, stderr => \$stderr, extra_params => [ '-U', "farm_$role" ]);
	return $stderr;
};
like($psql_as->('read', q{INSERT INTO pgbench_ext.jobs (name, experiment, seed) VALUES ('x', 'y', 1)}),
	qr/permission denied for table jobs/, 'a reader cannot submit');
like($psql_as->('read', "SELECT * FROM pgbench_ext.take_job('$fp')"), qr/permission denied for table jobs/,
	'nor take a job');
like($psql_as->('submit', "SELECT * FROM pgbench_ext.take_job('$fp')"), qr/permission denied for table jobs/,
	'a submitter cannot take a job');
like($psql_as->('submit', q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, state) VALUES ('x', 'y', 1, 'done')}),
	qr/permission denied for table jobs/, 'nor queue one as done');
like($psql_as->('submit', q{INSERT INTO pgbench_ext.jobs (name, experiment, seed, submitted_by) VALUES ('x', 'y', 1, 'farm_run')}),
	qr/permission denied for table jobs/, 'nor in another role\'s name');
($rc, $out, $err) = run_client_on($node, 'import', (glob("$base/state1/job-1-*/run-1"))[0], $as{submit});
is($rc, 1, 'a submitter cannot import');
like($err, qr/permission denied for table/, '  (permission denied)');
is($psql_as->('read', 'SELECT count(*) FROM pgbench_ext.jobs'), '', 'a reader reads the jobs');

# --- an agent killed mid-run; another of this host resumes its job -------
my $long = farm_experiment_file("$base/long.ini", 3, 2, $bindir);
($rc, $out, $err) = run_client_on($node, 'submit', $long, $as{submit});
is($rc, 0, 'submit for any machine') or diag $err;
$sql_of->("UPDATE pgbench_ext.jobs SET state = 'failed' WHERE job_id IN (2, 3)");    # out of the way
my $killed = start_agent("$base/state3");
my $runs_csv = sub { (glob("$base/state3/job-5-*/run-1/runs.csv"))[0] };
ok(wait_until(120, sub { my $f = $runs_csv->(); $f && lines_in($f) >= 3 || undef }), 'the agent has recorded 2 runs');
$killed->{run}->signal('KILL');
$killed->{run}->finish;
is($? & 127, 9, 'the agent is killed by SIGKILL');
my @before = read_runs((glob("$base/state3/job-5-*/run-1"))[0]);
is($sql_of->("SELECT state || ':' || attempt FROM pgbench_ext.jobs WHERE job_id = 5"), 'running:1',
	'its job is still running');
is($sql_of->('SELECT count(*) FROM pgbench_ext.experiments'), 2, 'and nothing of it is imported');
($rc, $out, $err) = run_client_on($node, 'jobs', $as{read});
is($rc, 0, 'jobs') or diag $err;
like($out, qr/^ 5\s+\| long\.ini\s+\| 1\/1 \| any\s+\| running \| farm_submit\s+\| \Q$host\E\s+\| 1\s+\| \d+ s ago /m,
	'lists the running job, its host and heartbeat') or diag $out;
like($out, qr/^ 1\s+\| small\.ini\s+\| 1\/1 \| \Q$host\E\s+\| done\s+\| farm_submit\s+\| \Q$host\E\s+\| 1\s+\|\s+\| \d+ /m,
	'the done ones with their experiment');
like($out, qr/^ 2\s+\| small\.ini\s+\| 1\/2 \| elsewhere\.invalid \| failed /m, 'the failed ones');
like($out, qr/^\(5 rows\)$/m, 'all five');

my $again = start_agent("$base/state3", '--timeout', '2');
$again->{run}->finish;
is($? >> 8, 0, 'an agent of this host with a short timeout takes the job and finishes it')
  or diag "$again->{out}\n$again->{err}";
like($again->{out}, qr/^job 5: .*long\.ini \(attempt 2\)$/m, 'as its second attempt');
like($again->{out}, qr/^job 5: resuming attempt 1 of this host in /m, 'resumed from the first attempt\'s directory');
like($again->{out}, qr/stopping its server \(pid \d+\), left running by a pgbench_ext that ended without stopping it/,
	'the killed agent\'s server stopped first');
my $eid = $sql_of->("SELECT experiment_id FROM pgbench_ext.jobs WHERE job_id = 5 AND state = 'done'");
ok($eid, 'job 5 is done');
is($sql_of->("SELECT string_agg(run_id::text, ',' ORDER BY run_id) FROM pgbench_ext.runs WHERE experiment_id = " . ($eid || 0)),
	'1,2,3,4,5,6', 'its experiment has every planned run once');
is($sql_of->('SELECT count(*) FROM pgbench_ext.experiments'), 3, 'one experiment for the job');
my @after = read_runs((glob("$base/state3/job-5-*/run-1"))[0]);
is_deeply([ map { $_->{started_at} } @after[0 .. $#before] ], [ map { $_->{started_at} } @before ],
	'the runs made before the kill were kept, not run again');

# --- Ctrl-C: the experiment and its servers stopped, the job queued again --
($rc, $out, $err) = run_client_on($node, 'submit', $long, $as{submit});
is($rc, 0, 'one more job') or diag $err;
my $stopped = start_agent("$base/state4");
ok(wait_until(120, sub { my $f = (glob("$base/state4/job-6-*/run-1/runs.csv"))[0]; $f && lines_in($f) >= 2 || undef }),
	'its agent has recorded a run');
$stopped->{run}->signal('INT');
$stopped->{run}->finish;
is($? >> 8, 130, 'Ctrl-C: the agent exits with status 130') or diag $stopped->{err};
like($stopped->{out}, qr/^job 6 is back in the queue; an agent of this host resumes it from /m, 'and says where the job went');
is($sql_of->("SELECT state || ':' || attempt || ':' || (heartbeat_at IS NULL) FROM pgbench_ext.jobs WHERE job_id = 6"),
	'queued:1:true', 'the job is queued again');
ok(!-e (glob("$base/state4/job-6-*/run-1"))[0] . '/clusters/a/data/postmaster.pid', 'its server is stopped');

# Ctrl-C while waiting for a job
$sql_of->("UPDATE pgbench_ext.jobs SET state = 'failed' WHERE job_id = 6");
my $idle = start_agent("$base/state4");
ok(wait_until(60, sub { $idle->{out} =~ /^agent of machine / || undef }, $idle->{run}), 'an agent waits for a job');
$idle->{run}->signal('INT');
$idle->{run}->finish;
is($? >> 8, 130, 'Ctrl-C while it waits: exit status 130');
like($idle->{out}, qr/^agent stopped: no job was running$/m, 'having taken nothing');

# --- SKIP LOCKED: a job being taken is skipped, not waited for ----------
($rc, $out, $err) = run_client_on($node, 'submit', '--repeat', '2', $small, $as{submit});
is($rc, 0, 'two more jobs') or diag $err;
my $holder = $node->background_psql($db);
like($holder->query_safe("BEGIN; SELECT job_id FROM pgbench_ext.take_job('$fp');"), qr/^7$/m,
	'a transaction takes job 7 and holds it');
is($sql_of->("SET lock_timeout = '5s'; SELECT job_id FROM pgbench_ext.take_job('$fp'); RESET lock_timeout"), 8,
	'a second taker meanwhile gets job 8, without waiting');
$holder->query_safe('ROLLBACK');
$holder->quit;
is($sql_of->('SELECT state FROM pgbench_ext.jobs WHERE job_id = 7'), 'queued', 'job 7 is queued again after the rollback');
$sql_of->("UPDATE pgbench_ext.jobs SET state = 'failed' WHERE job_id IN (7, 8)");

# --- an attempt taken over by another agent imports nothing ------------
($rc, $out, $err) = run_client_on($node, 'submit', $long, $as{submit});
is($rc, 0, 'job 9') or diag $err;
my $late = start_agent("$base/state5");
ok(wait_until(120, sub { my $f = (glob("$base/state5/job-9-*/run-1/runs.csv"))[0]; $f && lines_in($f) >= 2 || undef }),
	'its agent has recorded a run');
# as another agent's take_job() after a timeout would
$sql_of->('UPDATE pgbench_ext.jobs SET attempt = attempt + 1 WHERE job_id = 9');
$late->{run}->finish;
is($? >> 8, 1, 'the first agent ends with exit status 1');
like($late->{err}, qr/job 9 was taken by another agent while this one ran it: its results are not imported/,
	'saying its results are not imported');
is($sql_of->("SELECT count(*) || ':' || (SELECT state FROM pgbench_ext.jobs WHERE job_id = 9) FROM pgbench_ext.experiments"),
	'3:running', 'nothing imported, the job left to its new attempt');
$sql_of->("UPDATE pgbench_ext.jobs SET state = 'failed' WHERE job_id = 9");

$session->quit;
$node->stop;
done_testing();

# Two hosts for real: two agents, each in namespaces of its own (user, UTS
# and network) with its own host name, so two machines with two
# fingerprints, and one results database.  Jobs for host A, for host B and
# for any machine: each agent takes its own and the any-jobs, neither the
# other's, and a job for a third host stays queued.  Agent A killed by
# SIGKILL mid-run: nothing of its job imported, and B (whose --timeout is
# as short) does not take it over; an agent started again on host A with
# the same state directory finishes it, every planned run imported once.
# Then the farm's index from the database, as the reading role makes it:
# each agent's queue (queued for it, running, done, failed), a host name
# that is markup escaped, checked in headless Chromium as 057 checks the
# pages of directories.
#
# Assumptions: the test runs as the server account (AsServerAccount reruns
# it so when started as root, since initdb refuses root), which is not
# root; it makes its namespaces through a user namespace that maps only
# its own user (unshare --user --map-user --keep-caps), and sets the host
# name there; a sleeping process holds each host's namespaces, and its
# agents enter them (nsenter), so that an agent started again is on the
# same host and may stop the server its killed predecessor left there.
# It skips, saying why, when unshare, setpriv or ip is missing
# or the kernel refuses such namespaces (a container's seccomp, a
# user.max_user_namespaces of 0).  Each agent's network namespace holds
# its own loopback only: it cannot reach the database over TCP, nor the
# other agent, nor anything else.  The database is reached through the
# directory of its Unix socket, which namespaces of the network do not
# separate: a veth pair into the test's namespace would need root there,
# which the server account has not.  What makes the agents two hosts to
# the product is what it reads of a host: its host name (gethostname(),
# hence its fingerprint) and its own network.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PageProbe;
use FarmQueue;
use NodeTemplate;
use PgbenchExtTest;

# A host: argv that runs a command in new namespaces with the host name
# NAME and its loopback up, without the capabilities the user namespace
# gave the setting up
my ($gid) = split ' ', $(;
my $in_host = q{my $h = shift; system('hostname', $h) == 0 or die "could not set the host name $h\n";
	system('ip', 'link', 'set', 'lo', 'up') == 0 or die "could not bring up lo\n";
	exec { $ARGV[0] } @ARGV or die "could not run $ARGV[0]: $!\n";};
sub host_argv
{
	my ($name, @cmd) = @_;
	return ('unshare', '--user', "--map-user=$<", "--map-group=$gid", '--keep-caps', '--uts', '--net',
		'--', $^X, '-e', $in_host, $name, 'setpriv', '--inh-caps=-all', '--ambient-caps=-all', '--', @cmd);
}
{
	my ($out, $err) = ('', '');
	my $ok = eval {
		IPC::Run::run([ host_argv('probe-host', 'hostname') ], '<', \undef, '>', \$out, '2>', \$err);
	};
	plan skip_all => "no user, UTS and network namespaces here: " . ($@ || $err || "exit status $?")
	  unless $ok && $out eq "probe-host\n";
}

my $base = PostgreSQL::Test::Utils::tempdir;
my $bindir = pg_bindir();
my $node = PostgreSQL::Test::Cluster->new('hosts');
init_node($node);
$node->start;
my $db = create_database($node, 'farm');
farm_roles($node, $db);
# through the socket's directory: the only way into the database from a host
my %as = map { $_ => "host=" . $node->host . " port=" . $node->port . " dbname=$db user=farm_$_" }
  qw(submit run read);
# one session for the test's queries, which the waits below repeat every
# tenth of a second: a psql and a backend for each cost more CPU than the
# agents' work
my $session = $node->background_psql($db);
$session->set_query_timer_restart;
my $sql_of = sub { $session->query_safe($_[0]) };

my $small = farm_experiment_file("$base/small.ini", 2, 1, $bindir);
my $long = farm_experiment_file("$base/long.ini", 3, 2, $bindir);

sub submit
{
	my ($machines, @more) = @_;
	my ($rc, $out, $err) = run_client('submit', '--machines', $machines, @more, $as{submit});
	is($rc, 0, "submit for $machines") or diag $err;
}

# A host: a process that holds its namespaces (sleeping) as long as the
# test runs, so that an agent killed and started again is on the same host,
# and sees the processes the first one left there as its own.
my %host;
sub host_pid
{
	my ($name) = @_;
	$host{$name} //= IPC::Run::start([ host_argv($name, 'sleep', 'infinity') ], '<', \undef, '>', \my $o, '2>', \my $e);
	ok(wait_until(10, sub {
		my $n = '';
		IPC::Run::run([ 'nsenter', '-t', $host{$name}{KIDS}[0]{PID}, '-U', '-u', '--preserve-credentials', 'hostname' ],
			'<', \undef, '>', \$n, '2>', \my $e);
		$n eq "$name\n" || undef; }), "host $name is up") if !$host{"$name up"}++;
	return $host{$name}{KIDS}[0]{PID};
}
END { local $?; $_->kill_kill for grep { ref } values %host; }

# an agent on host NAME: looping (or --once), polling every second, taking
# over a job whose heartbeat is 2 s old
sub start_agent
{
	my ($name, @opts) = @_;
	my %h = (out => '', err => '');
	my $pid = host_pid($name);
	# a host of its own: its own noise history, and not the test's initdb
	# cache, whose directories above are root's, which a user namespace
	# shows as "nobody"'s (the client refuses such a cache)
	local $ENV{PGBENCH_EXT_STATE_DIR} = "$base/home-$name";
	delete local $ENV{PGBENCH_EXT_INITDB_CACHE};
	$h{run} = IPC::Run::start(
		[ 'nsenter', '-t', $pid, '-U', '-u', '-n', '--preserve-credentials', '--',
			'setpriv', '--inh-caps=-all', '--ambient-caps=-all', '--',
			client(), 'agent', '--poll', '1', '--timeout', '2',
			'--state-dir', "$base/state-$name", @opts, $as{run} ],
		'<', \undef, '>', \$h{out}, '2>', \$h{err});
	return \%h;
}
sub jobs_of { return [ sort { $a <=> $b } keys %{ { map { $_ => 1 } $_[0] =~ /^job (\d+): .* \(attempt \d+\)$/mg } } ]; }

# --- jobs for A, for B, for any; each agent its own ----------------------
submit('host-a', $small);                       # 1
submit('host-b', $small);                       # 2
submit('any', $small);                          # 3
submit('host-c', $small);                       # 4: no such host
my $a1 = start_agent('host-a');
my $b1 = start_agent('host-b');
wait_until(300, sub {
	$_->{run}->pump_nb for $a1, $b1;
	$sql_of->("SELECT count(*) FROM pgbench_ext.jobs WHERE job_id <= 3 AND state IN ('queued', 'running')") == 0 || undef;
});
is($sql_of->("SELECT count(*) FROM pgbench_ext.jobs WHERE state = 'done'"), 3, 'the three jobs for A, B and any are done')
  or diag "A: $a1->{out}\n$a1->{err}\nB: $b1->{out}\n$b1->{err}";
is($sql_of->(q{SELECT string_agg(hostname, ',' ORDER BY hostname) || ':' || count(DISTINCT fingerprint) FROM pgbench_ext.agents}),
	'host-a,host-b:2', 'two hosts registered, two fingerprints');
my $host_of = sub {
	$sql_of->("SELECT a.hostname FROM pgbench_ext.jobs j JOIN pgbench_ext.agents a ON a.fingerprint = j.agent WHERE j.job_id = $_[0]");
};
is($host_of->(1), 'host-a', 'host A took the job for host A');
is($host_of->(2), 'host-b', 'host B took the job for host B');
like($host_of->(3), qr/^host-[ab]$/, 'the job for any machine taken by either');
is($sql_of->(q{SELECT state || ':' || attempt FROM pgbench_ext.jobs WHERE job_id = 4}), 'queued:0',
	'the job for another host taken by neither');
$b1->{run}->pump_nb;
$a1->{run}->pump_nb;
my @a_jobs = @{ jobs_of($a1->{out}) };
my @b_jobs = @{ jobs_of($b1->{out}) };
ok(!grep({ $_ == 2 || $_ == 4 } @a_jobs) && !grep({ $_ == 1 || $_ == 4 } @b_jobs),
	"neither agent ran another host's job (A: @a_jobs; B: @b_jobs)");
is_deeply([ sort { $a <=> $b } @a_jobs, @b_jobs ], [ 1, 2, 3 ], 'each job run by one agent');
is($sql_of->(q{SELECT count(*) || ':' || count(DISTINCT experiment_id) FROM pgbench_ext.runs}), '12:3',
	'3 experiments of 4 runs imported');

# --- A killed mid-run: nothing imported; B does not take it over -------
submit('host-a', $long);                        # 5
my $state5 = sub { (glob("$base/state-host-a/job-5-*/run-1"))[0] };
ok(wait_until(300, sub { my $d = $state5->(); $d && lines_in("$d/runs.csv") >= 3 || undef }),
	'agent A has recorded 2 runs of job 5');
$a1->{run}->signal('KILL');
$a1->{run}->finish;
is($? & 127, 9, 'agent A is killed by SIGKILL');
my @before = read_runs($state5->());
is($sql_of->(q{SELECT state || ':' || attempt FROM pgbench_ext.jobs WHERE job_id = 5}), 'running:1', 'job 5 is left running');
is($sql_of->('SELECT count(*) FROM pgbench_ext.experiments'), 3, 'nothing of it is imported');
# B asks every second and takes over jobs 2 s without a heartbeat: its own
ok(!wait_until(6, sub { $sql_of->('SELECT attempt FROM pgbench_ext.jobs WHERE job_id = 5') > 1 || undef }),
	'B does not take over the job of host A, its heartbeat old');

# --- A again, with the same state directory, finishes it ----------------
my $a2 = start_agent('host-a', '--once');
$a2->{run}->finish;
is($? >> 8, 0, 'agent A started again finishes job 5') or diag "$a2->{out}\n$a2->{err}";
like($a2->{out}, qr/^job 5: .*long\.ini \(attempt 2\)$/m, 'as its second attempt');
like($a2->{out}, qr/^job 5: resuming attempt 1 of this host in /m, 'resumed from the first attempt\'s directory');
like($a2->{out}, qr/stopping its server \(pid \d+\), left running by a pgbench_ext that ended without stopping it/,
	'the server the killed agent left on its host stopped first');
my $eid = $sql_of->("SELECT experiment_id FROM pgbench_ext.jobs WHERE job_id = 5 AND state = 'done'");
ok($eid, 'job 5 is done');
is($sql_of->('SELECT string_agg(run_id::text, \',\' ORDER BY run_id) FROM pgbench_ext.runs WHERE experiment_id = ' . ($eid || 0)),
	'1,2,3,4,5,6', 'every planned run imported once');
is($sql_of->('SELECT count(*) FROM pgbench_ext.experiments'), 4, 'one experiment for it');
my @after = read_runs($state5->());
is_deeply([ map { $_->{started_at} } @after[0 .. $#before] ], [ map { $_->{started_at} } @before ],
	'the runs made before the kill kept, not run again');

$b1->{run}->signal('INT');
$b1->{run}->finish;
is($? >> 8, 130, 'agent B stopped by Ctrl-C while it waits');
unlike($b1->{out}, qr/^job (?:1|4|5):/m, 'having run none of the jobs of other hosts');

# --- the farm's index: the queues ---------------------------------------
submit('host-a', $small);                       # 6
submit('any', $small);                          # 7
my $mark = q{<b id="x">&'"};
my ($stdout, $stderr) = ('', '');
$node->psql($db, "INSERT INTO pgbench_ext.agents (fingerprint, hostname, facts) VALUES ('0123456789abcdef', \$m\$m$mark\$m\$, '{}')",
	stdout => \$stdout, stderr => \$stderr, extra_params => [ '-U', 'farm_run' ]);
is($stderr, '', 'a runner\'s role registers a host name that is markup');
my ($rc, $out, $err) = run_client('history', '-o', "$base/pages", $as{read});
is($rc, 0, 'history CONNINFO -o as the reading role') or diag $err;
my $index = slurp_file("$base/pages/index.html");
my ($queues) = $index =~ m{Queues</h2>(.*?)</table>}s;
ok($queues, 'index.html has the queues') or diag $index;
$queues //= '';
my %done = ('host-a' => scalar(@a_jobs) + 1, 'host-b' => scalar(@b_jobs));
for my $h (qw(host-a host-b))
{
	my $queued = $h eq 'host-a' ? 2 : 1;
	like($queues, qr{<tr><td>$h</td><td>[0-9a-f]{16}</td><td>$queued</td><td>0</td><td>$done{$h}</td><td>0</td><td>none</td></tr>},
		"$h: $queued queued for it, none running, $done{$h} done, none failed, no change point");
}
like($queues, qr{<tr><td>m&lt;b id=&quot;x&quot;&gt;&amp;&#(?:39|x27);&quot;</td><td>0123456789abcdef</td><td>1</td><td>0</td><td>0</td><td>0</td>},
	'the host name of markup escaped, one job queued for it (for any)');
like($index, qr{<p>1 queued job is for machines no agent has registered as\.</p>}, 'the job for host C: no agent takes it');
unlike($index, qr/<b id="x">/, 'no markup of a host name on the page');

my $chromium = PageProbe::chromium();
PageProbe::check_page("$base/pages/index.html", 'index.html with queues', $chromium, $base);

$session->quit;
$node->stop;
done_testing();

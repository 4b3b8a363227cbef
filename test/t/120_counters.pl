# The counters against real pgbench loads on a server that preloads
# pgbench_ext, and the prerequisite-state errors on a second server without
# preloading, then without a worker slot for the sampler.
#
# What it assumes of the machine: nothing of its speed.  The counts are
# pgbench's exact workload; the timings are checked only for their order
# (p50 <= p99 <= max; a transaction, which holds its three updates, takes
# longer than one of them) and for being there (CPU time, context
# switches after 2,000 transactions); the concurrent reader needs only
# that its 2 s loop, beside pgbench's 3 s of load, reads more than 10
# times.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('preloaded');
init_node($node);
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgbench_ext'");
# the loads' statements would only fill the server log
$node->append_conf('postgresql.conf', 'log_statement = none');
$node->start;
my $bindir = $node->config_data('--bindir');
my $db = create_database($node, 'counters_load');

sub counters
{
	my %c;
	foreach my $line (split /\n/,
		$node->safe_psql($db, "SELECT scope || '.' || metric, value FROM pgbench_ext.counters()"))
	{
		my ($k, $v) = split /\|/, $line;
		$c{$k} = $v;
	}
	return \%c;
}

# Several commands in one session, each its own transaction.
sub psql_session
{
	my (@sql) = @_;
	return $node->safe_psql($db, join(";\n", @sql));
}

# pgbench with its arguments, against the preloaded server
sub pgbench_command
{
	return [ "$bindir/pgbench", '-h', $node->host, '-p', $node->port, @_, $db ];
}

sub pgbench
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run(pgbench_command(@args), '>', \$out, '2>', \$err)
	  or die "pgbench @args failed: $err";
	return $out;
}

# Backends of earlier loads publish their last CPU figures when they exit;
# wait for them so that a reset is not followed by their late figures.
sub wait_for_idle
{
	for (1 .. 100)
	{
		return if $node->safe_psql($db,
			"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
		) == 0;
		select(undef, undef, undef, 0.1);
	}
}

pgbench('-i', '-q', '-s', '1');
wait_for_idle();

# The checking sessions themselves must not add to the figures they check.
sub quiet_reset
{
	local $ENV{PGOPTIONS} = '-c pgbench_ext.track=off';
	$node->safe_psql($db, 'SELECT pgbench_ext.reset()');
}

# --- exact counts of the built-in TPC-B-like script
quiet_reset();
pgbench('-n', '-c', '4', '-j', '2', '-t', '500');
wait_for_idle();
my $c = counters();
is($c->{'update.calls'}, 6000, 'pgbench -n -c 4 -j 2 -t 500: exactly 6000 update calls');
is($c->{'insert.calls'}, 2000, 'exactly 2000 insert calls');
is($c->{'update.rows'}, 6000, 'exactly 6000 rows updated');
cmp_ok($c->{'xact.commits'}, '>=', 2000, 'at least 2000 commits');
is($c->{'xact.aborts'}, 0, 'no aborts');
cmp_ok($c->{'update.p50_ms'}, '>', 0, 'update p50 measured');
cmp_ok($c->{'update.p50_ms'}, '<=', $c->{'update.p99_ms'}, 'p50 <= p99');
cmp_ok($c->{'update.p99_ms'}, '<=', $c->{'update.max_ms'}, 'p99 <= max');
cmp_ok($c->{'xact.mean_ms'}, '>', $c->{'update.mean_ms'},
	'a transaction takes longer than one of its updates');
cmp_ok($c->{'xact.cpu_user_us'} + $c->{'xact.cpu_sys_us'}, '>', 0,
	'CPU time charged to the transactions');
cmp_ok($c->{'xact.voluntary_switches'} + $c->{'xact.involuntary_switches'},
	'>', 0, 'context switches counted');

# --- after a reset every cumulative figure is zero
quiet_reset();
{
	local $ENV{PGOPTIONS} = '-c pgbench_ext.track=off';
	is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.counters() WHERE scope <> 'meta' AND value <> 0"),
		0, 'after reset all cumulative figures are zero');
}

# --- a concurrent reader never errors and never sees totals go backwards
# The load is throttled to 1,000 transactions a second (-R): two clients
# writing the counters a thousand times a second while the reader reads,
# where unthrottled they took both CPUs from the tests beside this one.
my $h = IPC::Run::start(pgbench_command('-n', '-c', '2', '-j', '2', '-R', '1000', '-T', '3'),
	'>', \my $load_out, '2>', \my $load_err);
my $reads = $node->safe_psql(
	$db, q{
DO $$
DECLARE
	prev float8[] := NULL;
	cur float8[];
	n int := 0;
	changes int := 0;
	stop timestamptz := clock_timestamp() + interval '2 seconds';
BEGIN
	WHILE clock_timestamp() < stop LOOP
		SELECT array_agg(value ORDER BY scope, metric) INTO cur
		FROM pgbench_ext.counters()
		WHERE metric IN ('calls', 'rows', 'total_ms', 'commits', 'cpu_user_us');
		IF prev IS NOT NULL THEN
			FOR i IN 1 .. array_length(cur, 1) LOOP
				IF cur[i] < prev[i] THEN
					RAISE EXCEPTION 'counter % went backwards: % -> %', i, prev[i], cur[i];
				END IF;
			END LOOP;
			IF cur <> prev THEN changes := changes + 1; END IF;
		END IF;
		PERFORM count(*) FROM pgbench_ext.report();
		prev := cur;
		n := n + 1;
	END LOOP;
	RAISE NOTICE 'reads=% changes=%', n, changes;
	CREATE TEMP TABLE reader_result AS SELECT n AS reads, changes;
END $$;
SELECT reads || ' ' || changes FROM reader_result;
});
$h->finish;
my ($nreads, $nchanges) = split / /, $reads;
cmp_ok($nreads, '>', 10, "concurrent reader: $nreads reads of counters() and report(), no error");
cmp_ok($nchanges, '>', 0, "concurrent reader saw the totals grow ($nchanges times), never shrink");

# --- wait profile: the sampler saw the client backends
my $waits = $node->safe_psql($db,
	"SELECT sum(samples) FROM pgbench_ext.wait_profile() WHERE backend_type = 'client backend'");
cmp_ok($waits, '>', 0, 'wait sampler counted client backends');

# --- hardware counters: available, or absent with the reason in words
my @hw = split /\n/,
  $node->safe_psql($db, 'SET pgbench_ext.track_hw = on; SELECT 1; SELECT counter, kind, available, coalesce(reason, \'\') FROM pgbench_ext.hw_status()');
shift @hw;    # the SELECT 1
is(scalar(@hw), 8, 'hw_status() lists eight counters');
foreach my $row (@hw)
{
	my ($counter, $kind, $available, $reason) = split /\|/, $row;
	if ($kind eq 'software')
	{
		is($available, 't', "software counter $counter available");
	}
	elsif ($available eq 't')
	{
		is($reason, '', "hardware counter $counter available, no reason");
	}
	else
	{
		like($reason, qr/^(not supported by this CPU or hypervisor|forbidden by) .*\((ENOENT|EOPNOTSUPP|ENODEV|EACCES|EPERM)\)$/,
			"hardware counter $counter unavailable: $reason");
	}
}
note "hw_status: @hw";
{
	local $ENV{PGOPTIONS} = '-c pgbench_ext.track_hw=on';
	# without rdpmc the counters are read at most every 10 ms: sleep past that
	my $hwc = psql_session('SELECT 1', 'SELECT pg_sleep(0.02)', 'SELECT 2',
		'SELECT pg_sleep(0.02)', 'SELECT 3',
		"SELECT 'hw_xacts=' || value FROM pgbench_ext.counters() WHERE scope = 'hw_xacts' AND metric = 'task_clock_ns'",
		"SELECT string_agg(line, E'\\n') FROM pgbench_ext.report() WHERE section = 'hw'");
	my ($hwx) = $hwc =~ /hw_xacts=(\d+)/;
	cmp_ok($hwx // 0, '>=', 2, 'track_hw: task clock read at transaction ends');
	like($hwc, qr/task_clock_ns\s+\d/, 'report() shows software counters per transaction');
	like($hwc, qr/cycles\s+(\d|unavailable: \S)/,
		'report() shows cycles per transaction or why they are unavailable');
}

# --- a second server: without preloading, then without a worker slot
my $second = PostgreSQL::Test::Cluster->new('not_preloaded');
init_node($second);
$second->append_conf('postgresql.conf', "shared_preload_libraries = ''");
$second->start;

# (exit status, stdout, stderr) of SQL on the second server, errors in full
sub psql_second
{
	my ($sql) = @_;
	return $second->psql('postgres', $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
}

my ($rc, $out, $err) = psql_second('CREATE EXTENSION pgbench_ext');
is($rc, 0, 'not preloaded: CREATE EXTENSION works') or diag $err;
foreach my $f ('counters()', 'wait_profile()', 'report()', 'reset()')
{
	($rc, $out, $err) = psql_second("SELECT * FROM pgbench_ext.$f");
	like($err, qr/ERROR:  55000: pgbench_ext must be loaded via "shared_preload_libraries" to use pgbench_ext\.\Q$f\E/,
		"not preloaded: $f fails with object_not_in_prerequisite_state");
	like($err, qr/HINT:  Add pgbench_ext to shared_preload_libraries/, "not preloaded: $f hints at the setting");
}
($rc, $out, $err) = psql_second('SELECT count(*) FROM pgbench_ext.hw_status()');
is($out, 8, 'not preloaded: hw_status() still works');
($rc, $out, $err) = psql_second('SELECT pgbench_ext.version() IS NOT NULL');
is($out, 't', 'not preloaded: version() still works');

# preloaded, but no background worker slot for the sampler
$second->append_conf('postgresql.conf', "shared_preload_libraries = 'pgbench_ext'");
$second->append_conf('postgresql.conf', 'max_worker_processes = 0');
$second->restart;
($rc, $out, $err) = psql_second('SELECT count(*) FROM pgbench_ext.wait_profile()');
is($rc, 0, 'no worker slot: wait_profile() still answers');
like($err, qr/WARNING:  (01000: )?the pgbench_ext wait-event sampler is not running/, 'no worker slot: wait_profile() says the sampler is not running');
like($err, qr/HINT:  .*max_worker_processes/, 'no worker slot: hint names max_worker_processes');
($rc, $out, $err) = psql_second('SELECT count(*) > 0 FROM pgbench_ext.counters()');
is($out, 't', 'no worker slot: counters() works');

done_testing();

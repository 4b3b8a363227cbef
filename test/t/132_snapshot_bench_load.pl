# snapshot_bench() while pgbench writes in the background on a server of
# its own: both modes give positive finite figures, and forcing the full
# proc-array scan is not cheaper than the reuse path by median.  The
# comparison is of medians over five interleaved pairs of runs, so that one
# preempted run on a busy machine does not decide it.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgbench_ext'");
# the writer's statements would only fill the server log
$node->append_conf('postgresql.conf', 'log_statement = none');
$node->start;
my $db = create_database($node, 'snapbench_load');
my @pgbench = ($node->config_data('--bindir') . '/pgbench', '-h', $node->host, '-p', $node->port);

my ($out, $err) = ('', '');
IPC::Run::run([ @pgbench, '-i', '-q', '-s', '1', $db ], '>', \$out, '2>', \$err)
  or BAIL_OUT("pgbench -i failed: $err");

# The writer: TPC-B-like transactions from two clients, committing all the
# time, so that the reuse path keeps being invalidated and rebuilt.
my ($wout, $werr) = ('', '');
my $writer = IPC::Run::start([ @pgbench, '-n', '-c', '2', '-T', '60', $db ],
	'>', \$wout, '2>', \$werr);

# Wait until the writer has committed something.
my $committed = 0;
foreach (1 .. 100)
{
	$committed = $node->safe_psql($db, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
	last if $committed > 50;
	select(undef, undef, undef, 0.1);
	$node->safe_psql($db, 'SELECT pg_stat_clear_snapshot()');
}
ok($committed > 50, 'the background writer is committing');

my $cols = 'ns_min, ns_median, ns_p90, ns_max, timer_overhead_ns, xcnt, procs';
my (@full, @reuse);
foreach my $round (1 .. 5)
{
	foreach my $mode ('full', 'reuse')
	{
		my @v = split /\|/,
		  $node->safe_psql($db, "SELECT $cols FROM pgbench_ext.snapshot_bench(50000, '$mode', 10)");
		my $finite = !grep { $_ !~ /^[0-9.e+-]+$/ } @v[0 .. 4];
		ok($finite && $v[0] > 0 && $v[0] <= $v[1] && $v[1] <= $v[2] && $v[2] <= $v[3],
			"round $round, $mode: positive finite ordered figures (@v[0..3])");
		ok($v[6] >= 3, "round $round, $mode: the scan saw the writer's backends (procs $v[6])");
		push @{ $mode eq 'full' ? \@full : \@reuse }, $v[1];
	}
}

my $writer_running = $writer->pumpable;
$writer->kill_kill;
ok($writer_running, 'the writer was still running during all the measurements');

sub median { my @s = sort { $a <=> $b } @_; return $s[ int(@s / 2) ]; }
my ($mf, $mr) = (median(@full), median(@reuse));
note("median ns per call: full $mf, reuse $mr (medians of five runs each)");
cmp_ok($mf, '>=', $mr, 'full is not cheaper than reuse by median');

done_testing();

# snapshot_bench() while pgbench writes in the background on a server of
# its own: both modes give positive finite figures, and forcing the full
# proc-array scan is not cheaper than the reuse path.
#
# What it assumes of the machine: nothing of its speed, only that a call
# costs its path's time when nothing preempts it.  A busy host inflates
# batches of calls, never deflates them: of 20 runs on a 2-CPU host loaded
# to 5 (2026-12-06) one run's median of its 10 batches came out 2.8 times
# its least, while the least batches of the two modes never met (full
# 24.3-30.5 ns a call, reuse 17.9-21.7: the scan's own cost).  So each run's
# figure is its least batch, and the modes are compared by the median of
# five runs each: full could come out cheaper only if three of reuse's
# five runs had all 10 of their batches inflated past full's cost, or
# full's own likewise; with even 30% of batches inflated that is 10 x
# (0.3^10)^3, about 2 in 10^15.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
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
		push @{ $mode eq 'full' ? \@full : \@reuse }, $v[0];
	}
}

my $writer_running = $writer->pumpable;
$writer->kill_kill;
ok($writer_running, 'the writer was still running during all the measurements');

sub median { my @s = sort { $a <=> $b } @_; return $s[ int(@s / 2) ]; }
my ($mf, $mr) = (median(@full), median(@reuse));
note("least ns per call: full $mf, reuse $mr (medians of five runs' least batches each)");
cmp_ok($mf, '>=', $mr, 'full is not cheaper than reuse, run by run\'s least batch');

done_testing();

# Every SQL function whose time grows with its input stops when the
# statement is cancelled: each is called at (or near) its documented bound
# (docs/extension.md#limits) with statement_timeout = 1s, and must end
# within 3 s of wall time, cancelled (SQLSTATE 57014) or, for those whose
# whole run at the bound is short, done; and one call is cancelled from
# a second session with pg_cancel_backend(), another ended with
# pg_terminate_backend().  Afterwards no backend is still running any of
# them.
#
# Why the 3 s bound cannot fail by chance: the cancelled inputs take
# minutes to hours to finish (changepoints: 10^6 shuffles of 1,000 points,
# each searching ~500,000 arcs; sequential_decide: 100,000 looks, each a
# 2,001 x 2,001 numerical integration; snapshot_bench: 10^8 proc-array
# scans in one batch, about 10 s), and with the interrupt checks a cancel
# is honoured within milliseconds: the longest stretch without a check is
# a qsort of at most 10^6 values, ~0.1 s.  So a call ends about 1 s after
# it starts, and only a stall of the whole process for more than ~1.5 s
# (psql's start included) could push it past 3 s.  The inputs done at their
# bound (summarize, geomean, compare, fdr) take a second or two at most.
#
# Before the checks (and summarize()'s one-pass CI rank) the same calls
# ran on: statement_timeout, pg_cancel_backend() and pg_terminate_backend()
# had no effect (each is acted on only at a check), and summarize() of 10^6
# values was quadratic (hours).  Run against that extension, each such
# call here hits psql's 60 s (or the signal's 30 s) timeout and fails.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

use PgbenchExtTest;
use NodeTemplate;

my $bound_s = 3;

my $node = PostgreSQL::Test::Cluster->new('cancel');
init_node($node);
$node->start;
my $db = create_database($node, 'cancel');

# Inputs at the bounds, built once so that a statement's time is the
# function's own: a million values (the array bound), a million p-values,
# a history of 1,000 points with one clear shift (no shuffle reaches it, so
# none of the 10^6 shuffles stops early).
$node->safe_psql($db, q{
CREATE TABLE big AS
SELECT array_agg((1000 + (g * 7919) % 1000 + 0.5)::float8 ORDER BY g) AS x,
       array_agg((((g * 7919) % 1000 + 0.5) / 1000)::float8 ORDER BY g) AS p,
       array_agg(0.5::float8 ORDER BY g) AS ci,
       (array_agg(g::int ORDER BY g))[1:4470] AS r
FROM generate_series(1, 1000000::bigint) g;
CREATE TABLE history AS
SELECT array_agg(CASE WHEN g <= 500 THEN 1.0 ELSE 2.0 END::float8 ORDER BY g) AS x
FROM generate_series(1, 1000) g;
CREATE TABLE rounds AS
SELECT array_agg((1000 + g % 7)::float8 ORDER BY g) AS a,
       array_agg((1000 + g % 5)::float8 ORDER BY g) AS b,
       array_agg(g ORDER BY g) AS r
FROM generate_series(1, 100) g;
});

my $changepoints =
  'SELECT count(*) FROM history, pgbench_ext.changepoints(x, 0.05, 1000000, 3, 1)';

# [name, SQL, 'cancelled' or 'either' (done or cancelled)]
my @calls = (
	[ 'summarize() of 10^6 values', 'SELECT n FROM big, pgbench_ext.summarize(x, 0.999999)', 'either' ],
	[ 'geomean() of 10^6 values', 'SELECT pgbench_ext.geomean(x) > 0 FROM big', 'either' ],
	[ 'compare() of 10^6 runs with 10 (10^7 pairs)',
		'SELECT verdict FROM big, pgbench_ext.compare(x, x[1:10])', 'either' ],
	[ 'compare() of 4,470 paired rounds (10^7 Walsh averages)',
		'SELECT verdict FROM big, pgbench_ext.compare(x[1:4470], x[4471:8940], round_a => r, round_b => r)',
		'either' ],
	[ 'fdr() of 10^6 p-values', 'SELECT count(*) FROM big, pgbench_ext.fdr(p, ci, ci, 0.05, 0.01)', 'either' ],
	[ 'changepoints() of 1,000 points, 10^6 shuffles', $changepoints, 'cancelled' ],
	[ 'sequential_decide() of 100,000 looks',
		q{SELECT decision FROM rounds, pgbench_ext.sequential_decide(a, b, true, 0.05, 0.01, r, r,
		  NULL, NULL, 'instance pair', budget_s => 3600, block_rounds => 1, first_look_block => 1,
		  max_blocks => 100000, max_looks => 100000, spending => 'obrien-fleming',
		  information => 'blocks', block_spent_s => NULL, blocks_done => 100000)}, 'cancelled' ],
	[ 'snapshot_bench() of 10^8 full scans in one batch',
		q{SELECT calls FROM pgbench_ext.snapshot_bench(100000000, 'full', 1)}, 'cancelled' ]);

foreach my $call (@calls)
{
	my ($name, $sql, $expect) = @$call;
	my ($out, $err, $timed_out) = ('', '', 0);
	my $start = time;
	$node->psql($db, "\\set VERBOSITY verbose\nSET statement_timeout = '1s';\n$sql",
		stdout => \$out, stderr => \$err, timeout => 60, timed_out => \$timed_out);
	my $elapsed = time - $start;
	my $cancelled = $err =~ /ERROR:  57014: canceling statement due to statement timeout/;
	diag sprintf('%s: %.2f s, %s', $name, $elapsed,
		$timed_out ? 'still running after 60 s' : $cancelled ? 'cancelled' : "done: $out $err");
	if ($expect eq 'cancelled')
	{
		ok($cancelled, "$name: cancelled by statement_timeout (57014)") or diag $err;
	}
	else
	{
		ok($cancelled || ($out ne '' && $err eq ''), "$name: done, or cancelled (57014)")
		  or diag $err;
	}
	ok(!$timed_out && $elapsed < $bound_s,
		sprintf('%s: over within %d s of its start (%.2f s)', $name, $bound_s, $elapsed));
}

# pg_cancel_backend() and pg_terminate_backend() from a second session:
# the review found neither had any effect on changepoints()
my $psql = $node->config_data('--bindir') . '/psql';
foreach my $case ([ 'pg_cancel_backend', qr/ERROR:  57014: canceling statement due to user request/ ],
	[ 'pg_terminate_backend', qr/FATAL:  57P01: terminating connection due to administrator command/ ])
{
	my ($signal, $message) = @$case;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[ $psql, '-X', '-v', 'VERBOSITY=verbose', '-d', $node->connstr($db) . ' application_name=cancel_me',
			'-c', $changepoints ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(30));
	my $pid = wait_until(
		60,
		sub {
			my $p = $node->safe_psql($db,
				"SELECT pid FROM pg_stat_activity WHERE application_name = 'cancel_me' AND state = 'active'");
			return $p ne '' ? $p : undef;
		},
		$h) or BAIL_OUT('the changepoints() call never started');
	my $start = time;
	$node->safe_psql($db, "SELECT $signal($pid)");
	# the old code ignored both: give up on it (its harness) after 30 s
	eval { $h->finish; 1 } or $h->kill_kill;
	my $elapsed = time - $start;
	like($err, $message, "changepoints(): $signal() from another session stops it");
	ok($elapsed < $bound_s - 1,
		sprintf('... within %d s of the signal (%.2f s)', $bound_s - 1, $elapsed));
}

# a cancelled call leaves no backend behind still computing
my $left = $node->safe_psql($db,
	"SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pgbench_ext.%' AND pid <> pg_backend_pid()");
is($left, '0', 'no backend is still running any of the calls');

# backends that ignore cancels ignore a fast shutdown too
$node->stop($left eq '0' ? 'fast' : 'immediate');
done_testing();

# The pgbench output parser on the output of the real pgbench of this
# installation, run against a server of its own: a 3-second -T run with -P 1,
# parsed by "test_pgbench_output --parse", must give figures that agree
# with each other (the fixtures test exact values; this tests that the
# parser keeps up with the pgbench actually installed).
#
# What it assumes of the machine: only that pgbench's thread gets a CPU
# at least once a second (pgbench prints one progress line per wake-up
# past each second, so a stall of a second or more merges two), and that
# no second of the 3 runs at under half or over twice the run's mean tps
# (the margins below, which held in a make test on a 2-CPU host loaded
# to 9, 2026-12-06).  The counts themselves are pgbench's, not the machine's.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $dir = PostgreSQL::Test::Utils::tempdir;
my $duration = 3;

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->start;
my $pgbench = $node->config_data('--bindir') . '/pgbench';
my @server = ('-h', $node->host, '-p', $node->port);

my $db = create_database($node, 'pgbench_output_live', extension => 0);
my ($out, $err) = ('', '');
IPC::Run::run([ $pgbench, @server, '-i', '-s', '1', '-q', $db ], '>', \$out, '2>', \$err)
  or BAIL_OUT("pgbench -i failed: $err");

IPC::Run::run(
	[ $pgbench, @server, '-c', '2', '-j', '2', '-T', $duration, '-P', '1', $db ],
	'>', "$dir/run.out", '2>', "$dir/run.err");
is($? >> 8, 0, 'pgbench -T -P 1 succeeds') or diag slurp_file("$dir/run.err");

my $parsed = '';
IPC::Run::run([ unit_program('test_pgbench_output'), '--parse', "$dir/run.out", "$dir/run.err" ],
	'>', \$parsed, '2>', \$err);
my (%v, @progress);
foreach my $line (split /\n/, $parsed)
{
	my ($key, $value) = split /=/, $line, 2;
	if ($key eq 'progress') { push @progress, [ split / /, $value ] }
	else { $v{$key} = $value }
}
is($v{rc}, 0, 'the output parses') or diag "$parsed\n" . slurp_file("$dir/run.out");

# The generation recognized matches the pgbench that printed it.
my ($major) = `$pgbench --version` =~ /\(PostgreSQL\) (\d+)/;
is($v{server_format}, $major >= 15 ? 15 : $major, "format of pgbench $major recognized");
like($v{pgbench_version}, qr/^$major\b/, 'version banner read') if $major >= 14;

is($v{transaction_type}, '<builtin: TPC-B (sort of)>', 'transaction type');
is($v{clients}, 2, 'clients');
is($v{duration_s}, $duration, 'duration');
is($v{complete}, 1, 'summary complete');
is($v{aborted}, 0, 'not aborted');
is($v{n_unrecognized}, 0, "every summary line recognized")
  or diag "first unrecognized: $v{first_unrecognized}";
cmp_ok($v{transactions}, '>', 0, 'transactions > 0');
cmp_ok($v{tps}, '>', 0, 'tps > 0');
cmp_ok($v{latency_avg_ms}, '>', 0, 'latency average > 0');
is($v{failed}, 0, 'no failed transactions') if $major >= 15;

# Progress lines: one per second, each with transactions done.
cmp_ok(scalar(@progress), '>=', $duration - 1, 'a progress line per second');
is($v{n_progress}, scalar(@progress), 'progress count matches');
my ($prev, $counted, $sum_tps) = (0, 0, 0);
foreach my $p (@progress)
{
	my ($elapsed, $tps) = @$p;
	cmp_ok($elapsed, '>', $prev, "progress at $elapsed s comes after $prev s");
	cmp_ok($tps, '>', 0, "progress at $elapsed s has tps > 0");
	$counted += $tps * ($elapsed - $prev);
	$sum_tps += $tps;
	$prev = $elapsed;
}

# The per-interval rates account for the transactions of the seconds they
# cover: never more than the total, and the bulk of it (a loaded machine
# stretches intervals, hence the margins).
cmp_ok($counted, '<=', $v{transactions} * 1.02 + 10,
	'progress intervals count no more transactions than the total');
cmp_ok($counted, '>=', 0.5 * $v{transactions} * $prev / $duration,
	'progress intervals count the transactions of the seconds they cover');
my $mean = $sum_tps / @progress;
cmp_ok($mean / $v{tps}, '>', 0.5, 'mean progress tps close to the total tps (low side)');
cmp_ok($mean / $v{tps}, '<', 2.0, 'mean progress tps close to the total tps (high side)');

done_testing();

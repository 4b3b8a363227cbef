# Variants on one server: "cluster = A" with session_set settings runs on
# A's cluster, differing only by its connections' settings.  Checked on the
# installed PostgreSQL with a setting whose effect cannot be missed (a
# 5 ms wait at every commit), and with reset = never, where the two
# variants share one run database.
#
# What it assumes of the machine: that A, pgbench -S with one client
# throttled to 400 transactions a second (-R 400: the other variants
# leave the CPUs to the tests beside this one), runs faster than 210 a
# second in every round (unthrottled it runs a few thousand on the 2-CPU
# hosts here, loaded or not), while the busy-wait caps slow at 200
# whatever the host.  A run is 50 transactions (-t 50): slow busy-waits
# for 0.25 s of it, where a timed second cost a CPU-second each run.  A's
# 50 transactions on a Poisson schedule at 400 a second take a
# Gamma(50, 1/400) time; below 210 a second means more than 50/210 s,
# P(Gamma(50, 1) > 95.2) = P(Poisson(95.2) < 50) = 1.3e-7 a run, under
# 1e-6 for the 6 rounds.  Then every one of the 6 rounds has slow
# below A, the signed-rank p is 2 / 2^6 = 0.031 and the CI lies far below
# -1%: the verdict "slower" is not left to chance.
#
# Its A/B runs under the default restart = auto, which on one server
# restarts nothing: no warm-ups, every run on instance 1.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

sub server_running
{
	my ($dir) = @_;
	my $pidfile = "$dir/clusters/A/data/postmaster.pid";
	return 0 unless -f $pidfile;
	my ($pid) = split /\n/, slurp_file($pidfile);
	return kill 0, $pid;
}

# The rows named NAME of every variant's recorded environment
sub environment_rows
{
	my ($exp, $name) = @_;
	return grep { $_->{name} eq $name } map { @{ $_->{environment} // [] } } values %{ $exp->{variants} };
}

# One client: the slowed variant busy-waits, so each client costs a CPU
# for the whole run, and one shows the setting as well as two.
my @ab = ('ab', '-s', '1', '-t', '50', '-c', '1', '-b', 'select-only', '--seed', '7', '--pgbench-args', '-R 400',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'slow', '--cluster', 'A', '--session-set', 'pgbench_ext.inject_delay_ns=5000000');

my $dir = "$base/shared";
my ($rc, $out, $err) = run_client(@ab, '-r', '6', '-o', $dir);
is($rc, 0, 'an A/B on one server completes') or diag "$out\n$err";
like($out, qr/setting up variant slow \(on variant A's cluster\)/, 'says where the variant runs');
ok(-d "$dir/clusters/A" && !-e "$dir/clusters/slow", 'one cluster only: A\'s');

my @runs = read_runs($dir);
is(scalar @runs, 12, 'twelve runs: no warm-ups');
is(scalar(grep { $_->{status} eq 'ok' && $_->{tps} > 0 } @runs), 12, 'all twelve runs ok');
ok(!grep({ $_->{instance} != 1 || $_->{warmup} ne 'false' } @runs), 'all counted, on instance 1');
foreach my $round (1 .. 6)
{
	my %tps = map { ($_->{variant} => $_->{tps}) } grep { $_->{round} == $round } @runs;
	# A busy-wait of 5 ms before every commit bounds its client to 200
	# transactions a second, whatever the load; A, throttled to 400 on a
	# machine that runs it unthrottled at thousands, runs twice as fast.
	ok($tps{slow} <= 1.05 / 0.005 && $tps{slow} < $tps{A},
		"round $round: the session setting slows its variant down ($tps{slow} vs $tps{A} tps)");
}
like($out, qr/ select-only \| 1 .*\| slower/, 'the verdict is slower');

my $exp = read_json("$dir/experiment.json");
my ($slow) = grep { $_->{name} eq 'slow' } @{ $exp->{spec}{variants} };
is($slow->{cluster}, 'A', 'the spec records the shared cluster');
is_deeply($slow->{session_set}, ['pgbench_ext.inject_delay_ns=5000000'], 'and the session setting');
is($exp->{variants}{slow}{on_cluster_of}, 'A', 'the variant\'s record says whose server it ran on');
is($exp->{spec}{experiment}{restart}, 'auto', 'restart = auto is the default');
is($exp->{restart}{rounds_per_instance}, 0, 'one server: no restarts');
like($exp->{restart}{why}, qr/one server, where the round is the unit/, 'and why');
is(scalar(environment_rows($exp, 'pgbench_ext.inject_delay_ns')), 1,
	'the setting shows in the environment of its own variant only');
unlike($out . $err, qr/environment differs beyond the declared settings/,
	'a declared session setting is no environment warning');
ok(!server_running($dir), 'the shared server is stopped at the end');

($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report re-renders the experiment') or diag $err;
my $md = slurp_file("$dir/report.md");
like($md, qr/\| slow \| variant A's cluster \| session: pgbench_ext.inject_delay_ns=5000000 \|/,
	'the report\'s experiment table names the server and the session setting');

# reset = never: one run database per server, made by its first run only.
# C shares B's server, whose work_mem B declares: C's environment differs
# from A's by that, and it is no warning.
$dir = "$base/never";
($rc, $out, $err) = run_client(@ab, '--variant', 'B', '--bindir', $bindir, '--set', 'work_mem=8MB',
	'--variant', 'C', '--cluster', 'B', '--session-set', 'pgbench_ext.inject_delay_ns=1000',
	'-r', '2', '--reset', 'never', '--restart', 'never', '-o', $dir);
is($rc, 0, 'reset = never, four variants on two servers, completes') or diag "$out\n$err";
@runs = read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' } @runs), 8, 'all eight runs ok');
is(scalar(grep { $_->{reset_s} > 0 } @runs), 2, 'only the first run on each server makes its run database');
ok((grep { ($_->{note} // '') eq 'source: configuration file' && $_->{value} eq '8MB' }
		environment_rows(read_json("$dir/experiment.json"), 'work_mem')),
	'the shared server\'s setting is in the environment');
unlike($out . $err, qr/environment differs beyond the declared settings/,
	'a setting declared by the server\'s own variant is no warning for the one sharing it');

done_testing();

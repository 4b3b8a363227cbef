# End to end on the installed PostgreSQL: an A/B of synchronous_commit on
# managed clusters, then the fault paths — a postmaster killed mid-run, and
# Ctrl-C followed by --resume.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

# The planned runs of experiment.json, indexed by run_id
sub plan_of
{
	my ($dir) = @_;
	my @plan;
	foreach my $run (@{ read_json("$dir/experiment.json")->{plan} })
	{
		$plan[ $run->{run_id} ] = { round => $run->{round}, variant => $run->{variant} };
	}
	return @plan;
}

sub no_server_left
{
	my ($dir) = @_;
	foreach my $pidfile (glob("$dir/clusters/*/data/postmaster.pid"))
	{
		my ($pid) = split /\n/, slurp_file($pidfile);
		return 0 if kill 0, $pid;
	}
	return 1;
}

# Throttled (pgbench -R): the path of an experiment from set-up to report is
# the point, not the server's speed, and a throttled load leaves the CPUs
# to the tests beside this one.  At 100 transactions a second (a quarter
# of the server CPU 400 took: tpcb-like costs about 0.6 ms of it a
# transaction here) each second still holds about 100 and a progress line.
my @ab = ('ab', '-s', '1', '-T', '2', '-c', '2', '-b', 'tpcb-like', '--seed', '42', '--restart', 'never',
	'--pgbench-args', '-R 100',
	'--variant', 'sync', '--bindir', $bindir, '--set', 'synchronous_commit=on',
	'--variant', 'async', '--bindir', $bindir, '--set', 'synchronous_commit=off');

# --- a complete A/B -------------------------------------------------------
my $dir = "$base/ab";
my ($rc, $out, $err) = run_client(@ab, '-r', '3', '-o', $dir);
is($rc, 0, 'A/B completes') or diag "$out\n$err";
my @runs = read_runs($dir);
is(scalar @runs, 6, 'every planned run is recorded');
is_deeply([ sort { $a <=> $b } map { $_->{run_id} } @runs ], [ 1 .. 6 ], 'each run once');
is(scalar(grep { $_->{status} eq 'ok' && $_->{tps} > 0 } @runs), 6, 'all runs ok with tps');
foreach my $round (1 .. 3)
{
	my @in = map { $_->{variant} } grep { $_->{round} == $round } @runs;
	is_deeply([ sort @in ], [ 'async', 'sync' ], "round $round runs both variants");
}
ok(-s "$dir/runs/0001.out" && -s "$dir/runs/0001.err", 'raw pgbench output and progress kept');
like(slurp_file("$dir/runs/0001.err"), qr/progress: 1\.0 s/, 'progress lines recorded');
my $exp = read_json("$dir/experiment.json");
is($exp->{format}, '1.0', 'the directory written in results format 1.0 (docs/formats.md)');
is($exp->{spec}{experiment}{seed}, '42', 'seed recorded');
my ($async) = grep { $_->{name} eq 'async' } @{ $exp->{spec}{variants} };
is_deeply($async->{set}, ['synchronous_commit=off'], 'resolved spec recorded');
is(scalar(grep { grep { $_->{name} eq 'server_version_num' } @{ $_->{environment} // [] } } values %{ $exp->{variants} }),
	2, 'environment() of each variant recorded');
like($out, qr/^ script .*\| sync tps .*\| async tps .*\n.*\n tpcb-like \| 2 .*\| 3\+3 \| \S/m, 'verdict table printed');
ok(no_server_left($dir), 'servers stopped at the end');

# (--rerun, which repeats the recorded spec and its plan, is
# 043_restart_levels.pl's: one experiment of its own there, not two here.)

# The fault paths need no fresh copy of the run database before each run
# (reset = never): the complete A/B above takes that path, with its copies
# of a database tpcb-like writes to.
my @no_reset = ('--reset', 'never');

# --- a postmaster dies mid-run, then Ctrl-C and --resume -----------------
# One experiment for both fault paths: the crash in run 2, the experiment
# going on past it, then Ctrl-C in a later run and --resume to the end.
$dir = "$base/crash";
my ($cout, $cerr) = ('', '');
# (runs of 3 s: the kill lands within the 2 s after run 2's first progress line)
my $h = IPC::Run::start([ client(), @ab, @no_reset, '-T', '3', '-r', '3', '-o', $dir ], '>', \$cout, '2>', \$cerr);
# wait for run 2 to be under way, then kill the postmaster serving it
# (pgbench -P 1 has reported its first second)
wait_until(120, sub { -f "$dir/runs/0002.err" && slurp_file("$dir/runs/0002.err") =~ /^progress: /m || undef });
my @plan = plan_of($dir);
my $victim = $plan[2]{variant};
my ($pmpid) = split /\n/, slurp_file("$dir/clusters/$victim/data/postmaster.pid");
ok(kill('KILL', $pmpid), "postmaster of $victim killed during run 2");
# the experiment goes on: run 3 is recorded, on the restarted server or
# the other (then Ctrl-C, in the run after it)
wait_until(120, sub { lines_in("$dir/runs.csv") >= 4 || undef }, $h);
@runs = read_runs($dir);
my ($crashed) = grep { $_->{run_id} == 2 } @runs;
is($crashed->{status}, 'failed', 'the run during the crash is marked failed');
like($crashed->{reason}, qr/server terminated during the run/, 'with the reason');
my ($after) = grep { $_->{run_id} == 3 } @runs;
is($after->{status}, 'ok', 'experiment goes on after the crash: run 3 is ok');
$h->signal('INT');
$h->finish;
is($? >> 8, 130, 'Ctrl-C: exit status 130');
like($cerr, qr/server of variant "$victim" died during a run; restarting it/, 'the restart is reported');
like($cerr, qr/interrupted: \d+ of 6 runs are recorded.*hint: Continue with: .* run --resume/s,
	'Ctrl-C: says how to continue');
ok(no_server_left($dir), 'Ctrl-C after a crash: servers stopped');
($rc, $out, $err) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume completes') or diag $err;
@runs = read_runs($dir);
is_deeply([ map { $_->{run_id} } @runs ], [ 1 .. 6 ], 'after --resume: every planned run once, in plan order');
is(scalar(grep { $_->{status} eq 'ok' } @runs), 5, 'after --resume: all ok but the run of the crash');
($crashed) = grep { $_->{run_id} == 2 } @runs;
is($crashed->{status}, 'failed', 'which stays failed: a planned run is run once');
ok(no_server_left($dir), 'servers stopped at the end');

done_testing();

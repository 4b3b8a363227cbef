# A client killed with SIGKILL stops nothing: its postmasters live on.
# --resume finds them by the postmaster.pid of its own clusters, makes sure
# each pid is that cluster's postmaster, stops them, and finishes the
# experiment with no server left.  A postmaster.pid naming a process that
# is not the cluster's postmaster gets no signal from it.
use strict;
use warnings;

use IPC::Run;
use POSIX ();
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/killed";

sub postmaster_pid
{
	my ($variant) = @_;
	my $file = "$dir/clusters/$variant/data/postmaster.pid";
	return -f $file ? (split /\n/, slurp_file($file))[0] : undef;
}

my ($out, $err) = ('', '');
# throttled (pgbench -R), runs of a second, no fresh copy of the run
# database before each run (select-only changes nothing): the resume is
# the point, not the servers' speed
my $h = IPC::Run::start([ client(), 'ab', '-s', '1', '-T', '1', '-r', '3', '-b', 'select-only', '--seed', '5', '--restart', 'never',
		'--reset', 'never', '--pgbench-args', '-R 100', '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir ],
	'>', \$out, '2>', \$err);
wait_until(180, sub { lines_in("$dir/runs.csv") >= 3 || undef });
$h->signal('KILL');
$h->finish;
is($? & 127, 9, 'the client is killed by SIGKILL') or diag $err;
my %pid = map { $_ => postmaster_pid($_) } qw(A B);
ok($pid{A} && kill(0, $pid{A}) && $pid{B} && kill(0, $pid{B}), 'its postmasters are still up');

my ($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume finishes the experiment') or diag "$rout\n$rerr";
like($rout, qr/variant A: stopping its server \(pid $pid{A}\), left running by a pgbench_ext that ended without stopping it/,
	'--resume stops the server A was left with');
like($rout, qr/variant B: stopping its server \(pid $pid{B}\)/, 'and B\'s');
my @runs = read_runs($dir);
is_deeply([ sort { $a <=> $b } map { $_->{run_id} } @runs ], [ 1 .. 6 ], 'every planned run once');
is(scalar(grep { $_->{status} eq 'ok' } @runs), 6, 'all ok');
ok(!kill(0, $pid{A}) && !kill(0, $pid{B}), 'the left-over postmasters are gone');
ok(!grep({ my $p = postmaster_pid($_); $p && kill 0, $p } qw(A B)), 'no postmaster of the directory is left');

# a postmaster.pid naming another live process of the server account:
# it is not signalled
my $decoy_pid = fork() // die "fork: $!";
if ($decoy_pid == 0)
{
	if ($> == 0)
	{
		my (undef, undef, $uid, $gid) = getpwnam($ENV{PGBENCH_EXT_OS_USER} || 'postgres');
		POSIX::setgid($gid);
		POSIX::setuid($uid);
	}
	exec 'sleep', '300';
}
open my $fh, '>', "$dir/clusters/A/data/postmaster.pid" or die;
print $fh "$decoy_pid\n$dir/clusters/A/data\n0\n5432\n/tmp\n\n0 0\nready   \n";
close $fh;
# the last run taken back, so that the resume has one to do and starts the
# servers (a finished experiment starts none); the server itself then judges
# its lock file, and refuses to start
my @lines = split /^/, slurp_file("$dir/runs.csv");
write_file("$dir/runs.csv", join('', @lines[ 0 .. $#lines - 1 ]));
($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 2, 'a foreign pid in postmaster.pid: --resume stops, exit status 2');
like($rerr, qr/the server of variant "A" did not start; .*lock file "postmaster.pid" already exists/s,
	'with the server\'s own words');
unlike($rout, qr/stopping its server/, 'a foreign pid is not taken for the cluster\'s postmaster');
ok(kill(0, $decoy_pid) && waitpid($decoy_pid, POSIX::WNOHANG()) == 0, 'the process it names got no signal');
kill 'KILL', $decoy_pid;
waitpid($decoy_pid, 0);
ok(!grep({ my $p = postmaster_pid($_); $p && $p != $decoy_pid && kill 0, $p } qw(A B)), 'no server left running');

done_testing();

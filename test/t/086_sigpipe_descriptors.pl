# SIGPIPE ends an experiment as SIGTERM does, and no descriptor of the
# client leaks into pgbench.  "pgbench_ext run ... | head -1": once the
# reader has gone, the client's next output raises SIGPIPE; it must stop
# its servers, leave experiment.json for --resume and exit 128 + 13 (it
# used to die at once, servers running, no experiment.json).  The resumed
# experiment finishes, and every pgbench it starts holds, besides its
# standard streams, only the sockets of its own connections: no results
# file, no pipe of the client's (runs/NNNN.out and .err and a pipe used to
# leak, without O_CLOEXEC).
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/piped";
# throttled (pgbench -R), no fresh copy of the run database before each
# run (select-only changes nothing): descriptors and signals are the
# point, not speed
my @ab = ('ab', '-s', '1', '-T', '1', '-r', '2', '-b', 'select-only', '--seed', '3', '--restart', 'never',
	'--reset', 'never', '--pgbench-args', '-R 100', '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir);

sub postmasters_left
{
	my @left;
	foreach my $pidfile (glob("$dir/clusters/*/data/postmaster.pid"))
	{
		my ($pid) = split /\n/, slurp_file($pidfile);
		push @left, $pid if $pid && kill 0, $pid;
	}
	return @left;
}

# --- | head -1 ---------------------------------------------------------------
pipe(my $rd, my $wr) or die "pipe: $!";
my $pid = fork() // die "fork: $!";
if ($pid == 0)
{
	close $rd;
	open STDOUT, '>&', $wr or die;
	open STDERR, '>', "$base/piped.err" or die;
	open STDIN, '<', '/dev/null' or die;
	exec client(), @ab or die "exec: $!";
}
close $wr;
my $first = <$rd>;
close $rd;    # head has printed its line and gone
ok(defined $first, 'the client printed a first line') or diag $first;
waitpid($pid, 0);
my $status = $?;
my $err = slurp_file("$base/piped.err");
is($status >> 8, 128 + 13, 'after its reader went, the client exits 141 (128 + SIGPIPE)') or diag "status $status\n$err";
like($err, qr/interrupted.*\(signal: Broken pipe\)/, '... saying it was interrupted by SIGPIPE');
like($err, qr/hint: Continue with: \S+ run --resume \Q$dir\E/, '... and naming --resume');
ok(-f "$dir/experiment.json", 'experiment.json was written first');
is(scalar(postmasters_left()), 0, 'no server of the experiment is left running');

# --- --resume, watching every pgbench it starts ------------------------------
my ($out, $rerr) = ('', '');
my $h = IPC::Run::start([ client(), 'run', '--resume', $dir ], '<', \undef, '>', \$out, '2>', \$rerr);
my $client_pid = $h->{KIDS}[0]{PID};
my (%seen, @extra);
while ($h->pumpable)
{
	foreach my $stat (glob('/proc/[0-9]*/stat'))
	{
		my $text = eval { slurp_file($stat) } // next;
		my ($p, $comm, $ppid) = $text =~ /^(\d+) \((.*)\) \S+ (\d+)/ or next;
		next unless $comm eq 'pgbench' && $ppid == $client_pid && !$seen{$p};
		my @fds = grep { /^\d+$/ } map { s{.*/}{}r } glob("/proc/$p/fd/*");
		next unless @fds;    # gone meanwhile
		$seen{$p} = 1;
		foreach my $fd (grep { $_ > 2 } @fds)
		{
			my $to = readlink("/proc/$p/fd/$fd") // next;
			# its own sockets, and the libraries the dynamic loader opens
			# while pgbench starts (seen: libgnutls.so as fd 3), are not
			# inherited from the client
			push @extra, "pgbench $p fd $fd: $to" unless $to =~ /^socket:|^\/(usr\/)?lib.*\.so(\.[\d.]+)?$/;
		}
	}
	$h->pump_nb;
	select(undef, undef, undef, 0.05);
}
$h->finish;
is($h->result(0), 0, '--resume finishes the experiment') or diag $rerr;
ok(keys %seen >= 1, 'pgbench was seen running (' . scalar(keys %seen) . ' of them)');
is(scalar(@extra), 0, 'no pgbench holds a descriptor of the client beside 0, 1 and 2 (only its own sockets)')
  or diag join("\n", @extra);
my @runs = grep { $_->{warmup} eq 'false' } read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' } @runs), 4, 'every planned run is recorded ok');
is(scalar(postmasters_left()), 0, 'no server is left running');

done_testing();

# Ctrl-C (SIGINT), SIGTERM or SIGHUP during a build or during pgbench -i
# ends those children at once — their whole process group — and the
# client exits with status 128 + the signal's number (130 for SIGINT) within seconds, leaving no make, no
# compiler, no pgbench and no server behind.  The build is of the linked
# source with LINKED_SOURCE_SLOW, whose make runs two long sleeps in
# parallel (real make children, as compilers are); pgbench -i loads a scale
# that would take minutes.
#
# What it assumes of the machine: that a signalled client, its make and
# its pgbench end within 8 s: the client signals its children's process
# groups at once, and the bound leaves room for a host whose scheduler
# delays a process by seconds (it held in a make test on a 2-CPU host
# loaded to 9, 2026-12-06).
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

use LinkedSource;
use PgbenchExtTest;

my $base = private_cache();

# Start the client; wait until ready->() says its children are at work;
# send the signal; return (exit status, seconds from signal to exit,
# stdout, stderr, what ready->() returned).
sub interrupt_when
{
	my ($signal, $ready, @args) = @_;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start([ client(), @args ], '<', \undef, '>', \$out, '2>', \$err);
	my $what = wait_until(120, sub { $ready->($out) }, $h);
	my $sent = time;
	$h->signal($signal);
	$h->finish;
	return ($h->result(0), time - $sent, $out, $err, $what);
}

# --- during a build ------------------------------------------------------------
$ENV{LINKED_SOURCE_SLOW} = 1;
foreach my $signal ('INT', 'TERM', 'HUP')
{
	my $entry;
	my ($rc, $secs, $out, $err, $sleeps) = interrupt_when($signal, sub {
		$entry //= entry_of($_[0]);
		my @sleeps = defined $entry ? grep { / sleep 300$/ } processes_in($entry) : ();
		return @sleeps == 2 ? \@sleeps : undef;
	}, linked_ab("$base/build-$signal", '--configure', "--signal=$signal"));
	ok(defined $sleeps, "SIG$signal: make was running its two jobs when the signal came")
	  or diag "$out\n$err";
	my %status = (INT => 130, HUP => 129, TERM => 143);
	is($rc, $status{$signal}, "SIG$signal: exit status $status{$signal}");
	cmp_ok($secs, '<', 8, "SIG$signal: the client exits within seconds");
	like($err, qr/variant "A": build interrupted at step "make"/, "SIG$signal: it says where the build stopped");
	my @left = defined $entry ? processes_in($entry) : ('(no entry)');
	is(scalar(@left), 0, "SIG$signal: no process of the build remains (make, its jobs)")
	  or diag join("\n", @left);
	ok(!-e "$base/build-$signal", "SIG$signal: no results directory");
}
delete $ENV{LINKED_SOURCE_SLOW};

# --- during pgbench -i ------------------------------------------------------------
my $dir = "$base/init";
my $pidfile = "$dir/clusters/A/data/postmaster.pid";
my ($rc, $secs, $out, $err, $init) = interrupt_when('INT', sub {
	return undef unless -s "$dir/pgbench-init-A.log" && -s $pidfile;
	my $sock = (split /\n/, slurp_file($pidfile))[4];
	return defined $sock && grep({ /\bpgbench -i\b/ } processes_in($sock)) ? $sock : undef;
}, 'ab', '-s', '2000', '-r', '1', '-T', '1', '-c', '1', '-b', 'select-only',
	'--variant', 'A', '--bindir', pg_bindir(), '--variant', 'B', '--bindir', pg_bindir(),
	'-o', $dir);
ok(defined $init, 'pgbench -i of scale 2000 was loading when Ctrl-C came') or diag "$out\n$err";
is($rc, 130, 'Ctrl-C during pgbench -i: exit status 130');
cmp_ok($secs, '<', 8, 'the client exits within seconds, not after the load');
like($err, qr/pgbench -i for variant "A" interrupted/, 'it says what was interrupted');
my @left = (processes_in($dir), defined $init ? processes_in($init) : ());
is(scalar(@left), 0, 'no pgbench and no server of the experiment remains') or diag join("\n", @left);
ok(!-e $pidfile, 'the server was stopped cleanly (no postmaster.pid)');

done_testing();

# Builds that take minutes (so under "make test-build" and CI only): Ctrl-C
# during the make of a real PostgreSQL source build, in an experiment or
# in --build-only, ends make and every compiler at once (exit status 130
# within seconds, as a shell reports an interrupted command; no process of the
# build left), and what the build had compiled belongs to the build
# account; and the PGO training cluster (of the linked source, whose
# training load is real pgbench) is private: its socket directory 0700,
# no TCP, a pg_hba.conf that lets in only the local socket, its server
# running as the build account, and gone when the build ends.
use strict;
use warnings;

use File::Find;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

use LinkedSource;
use PgbenchExtTest;

plan skip_all => 'builds PostgreSQL from source (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $top = source_tree();
my $base = private_cache();
my $builder = build_account_uid();

# --- Ctrl-C during the make of a real build ------------------------------------
# in an experiment, and in --build-only (the same build, started afresh:
# what the interrupted one left goes)
my $src = postgresql_source();
my ($out, $err, $h, $entry) = ('', '');

foreach my $case ([ 'ab', '-o', "$base/interrupted" ], [ 'ab --build-only', '--build-only' ])
{
	my ($name, @extra) = @$case;
	($out, $err) = ('', '');
	undef $entry;
	$h = IPC::Run::start([ client(), 'ab', '-s', '1', '-r', '1', '-T', '1', '-c', '1',
		'--variant', 'A', '--source', $src, '--cflags', '-O0',
		'--variant', 'B', '--bindir', pg_bindir(), @extra ],
		'<', \undef, '>', \$out, '2>', \$err);
	my $compilers = wait_until(600, sub {
		$entry //= entry_of($out);
		return undef unless defined $entry && -s "$entry/logs/make.log";
		my @cc = grep { m{\b(?:cc1|gcc|cc)\b} } processes_in($entry);
		return @cc ? \@cc : undef;
	}, $h);
	ok(defined $compilers, "$name: make was compiling when Ctrl-C came") or diag "$out\n$err";
	# some of make's work on disk, its compilers still at work
	wait_until(120, sub { my $n = () = `find '$entry' -name '*.o' 2>/dev/null`; $n >= 20 ? $n : undef }, $h);
	my $sent = time;
	$h->signal('INT');
	$h->finish;
	is($h->result(0), 130, "$name: Ctrl-C during make: exit status 130");
	cmp_ok(time - $sent, '<', 8, "$name: the client exits within seconds");
	my @left = defined $entry ? processes_in($entry) : ('(no entry)');
	is(scalar(@left), 0, "$name: no make, gcc or cc1 of the build remains") or diag join("\n", @left);

	my (@objects, @foreign);
	find({ no_chdir => 1, wanted => sub {
		my @st = lstat $File::Find::name;
		push @objects, $File::Find::name if /\.o$/;
		push @foreign, "$File::Find::name (uid $st[4])" if $st[4] != $builder;
	} }, $entry) if defined $entry;
	ok(@objects > 0, "$name: the build had compiled objects: " . scalar(@objects));
	is(scalar(grep { (lstat $_)[4] != $builder } @objects), 0, "$name: every object file belongs to the build account");
	is(scalar(@foreign), 0, "$name: nothing in the entry was written by another account (root)")
	  or diag join("\n", @foreign[ 0 .. ($#foreign > 9 ? 9 : $#foreign) ]);
}

# --- the PGO training cluster -----------------------------------------------------
($out, $err) = ('', '');
$h = IPC::Run::start([ client(), linked_ab("$base/pgo", '--pgo', 'on') ],
	'<', \undef, '>', \$out, '2>', \$err);
undef $entry;
my $pidfile;
my $ready = wait_until(300, sub {
	$entry //= entry_of($out);
	return undef unless defined $entry;
	$pidfile = "$entry/pgo/clusters/pgo-training/data/postmaster.pid";
	my @lines = -s $pidfile ? split(/\n/, slurp_file($pidfile)) : ();
	# a postmaster (not initdb's single-user backend) that is ready
	return @lines >= 8 && $lines[0] > 0 && $lines[7] =~ /ready/ ? \@lines : undef;
}, $h);
ok(defined $ready, 'the training cluster came up') or diag "$out\n$err";
my @pid = defined $ready ? @$ready : ('', '', '', '', '', 'missing');
my @sock = stat $pid[4];
is($sock[2] & 07777, 0700, 'its socket directory is 0700');
is($sock[4], $builder, '... and belongs to the build account');
is($pid[5], '', 'it listens on no TCP address');
is((stat "/proc/$pid[0]")[4], $builder, 'the postmaster runs as the build account');
my $datadir = $pid[1];
my @hba = grep { !/^\s*(#|$)/ } split /\n/, (-f "$datadir/pg_hba.conf" ? slurp_file("$datadir/pg_hba.conf") : '');
ok(@hba > 0, 'pg_hba.conf has lines');
is(scalar(grep { !/^local\s/ && !/\sreject\s*$/ } @hba), 0, 'pg_hba.conf lets in only the local socket')
  or diag join("\n", @hba);
$h->finish;
is($h->result(0), 0, 'the PGO build and its A/B complete') or diag "$out\n$err";
ok(!-e "$entry/pgo/clusters", 'the training cluster is removed');
is(scalar(processes_in("$entry/pgo")), 0, 'and no process of it remains');
like(slurp_file("$entry/logs/pgo-training.log"), qr/select-only/, 'the training load ran pgbench');

done_testing();

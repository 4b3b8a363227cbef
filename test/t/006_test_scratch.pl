# tools/test-scratch, which make prove_installcheck asks where the tests'
# data goes: in the tree (PGBENCH_EXT_TEST_SCRATCH=disk), or in a directory
# of this user's in /dev/shm with tmp_check a link to it; bad values are
# usage errors; and what it removes of a last run is only a directory it
# names as it makes them and that belongs to this user, never what a link
# planted in its place points to.  Run in a directory of its own, not in
# the tree whose tests are running.  No server is started.
#
# What it assumes of the machine: /dev/shm, where it is a tmpfs (Linux's
# default), for the memory case; elsewhere that case is skipped, saying
# why.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $scratch = source_tree() . '/tools/test-scratch';
my $work = tempdir(CLEANUP => 1);

# tools/test-scratch ARGS in $work with the environment given
sub scratch
{
	my ($env, @args) = @_;
	my ($out, $err) = ('', '');
	local %ENV = (%ENV, %$env);
	delete $ENV{PGBENCH_EXT_TEST_LONG};
	IPC::Run::run([ $scratch, @args ], '<', \undef, '>', \$out, '2>', \$err, init => sub { chdir $work or die });
	chomp $out;
	return ($? >> 8, $out, $err);
}

my ($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH => 'ram' });
is($rc, 2, 'PGBENCH_EXT_TEST_SCRATCH=ram: exit status 2');
like($err, qr/PGBENCH_EXT_TEST_SCRATCH must be auto or disk, got "ram"/, 'naming the variable and what it takes');
($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH_MB => 'lots' });
is($rc, 2, 'PGBENCH_EXT_TEST_SCRATCH_MB=lots: exit status 2');
like($err, qr/PGBENCH_EXT_TEST_SCRATCH_MB must be a number of megabytes, got "lots"/, 'naming it');
ok(!-e "$work/tmp_check" && !-l "$work/tmp_check", 'a usage error makes nothing');

($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH => 'disk' });
is($rc, 0, 'disk: exit status 0') or diag $err;
is($out, $work, 'disk: the tests\' directory is the tree\'s own');
ok(-d "$work/tmp_check" && !-l "$work/tmp_check", 'and tmp_check a directory in it');

# a link planted where tmp_check is, to a directory not named as the
# script names its own: the link goes, the directory and its file stay
my $victim = "$work/victim";
mkdir $victim or die;
mkdir "$victim/tmp_check" or die;
write_file("$victim/tmp_check/keep", "kept\n");
rmdir "$work/tmp_check" or die;
symlink("$victim/tmp_check", "$work/tmp_check") or die;
($rc, $out, $err) = scratch({}, '--remove');
is($rc, 0, '--remove with a planted link: exit status 0') or diag $err;
ok(!-l "$work/tmp_check", 'the link is removed');
is(slurp_file("$victim/tmp_check/keep"), "kept\n", 'what it pointed to is untouched');

SKIP:
{
	chomp(my $fs = `stat -f -c %T /dev/shm 2>/dev/null`);
	skip "/dev/shm is not a tmpfs here (\"$fs\"): the tests' data stays in the tree", 10 unless $fs eq 'tmpfs';
	($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH_MB => '1' });
	is($rc, 0, 'auto with room: exit status 0') or diag $err;
	like($out, qr{^/dev/shm/pgbench_ext-test\.\w{6}$}, "the tests' directory is in /dev/shm: $out");
	is(readlink("$work/tmp_check"), "$out/tmp_check", 'tmp_check links to its tmp_check');
	my @st = stat($out);
	is($st[4], $>, 'which belongs to this user');
	is(sprintf('%04o', $st[2] & 07777), '0755', 'and the servers\' account may enter (0755)');
	write_file("$out/tmp_check/data", "x\n");

	# run again: the last run's directory goes, a new one comes
	my $last = $out;
	($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH_MB => '1' });
	ok($rc == 0 && $out ne $last && !-e $last, 'the next run removes the last one\'s directory');

	# no room: in the tree, the last run's directory gone too
	$last = $out;
	($rc, $out, $err) = scratch({ PGBENCH_EXT_TEST_SCRATCH_MB => '999999999' });
	is($out, $work, 'without the room asked for: in the tree');
	ok(!-e $last, 'and the last run\'s directory in /dev/shm removed');
	ok(-d "$work/tmp_check" && !-l "$work/tmp_check", 'tmp_check a directory again');
	($rc) = scratch({}, '--remove');
	ok($rc == 0 && !-e "$work/tmp_check", '--remove removes it');
}

done_testing();

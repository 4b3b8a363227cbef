# AsServerAccount — run a TAP test that starts PostgreSQL::Test::Cluster
# nodes of its own as the server account when it was started as root.
#
# initdb and postgres refuse to run as root, and CI runs as root.  Loaded
# first ("use AsServerAccount;" before PostgreSQL::Test::Utils, which
# creates its directories when loaded), it reruns the test as the
# "postgres" account (PGBENCH_EXT_OS_USER overrides) with test directories
# that account owns, passes its TAP output and exit status through, and
# removes the directory.  Started by any other user it does nothing.
package AsServerAccount;

use strict;
use warnings;

use File::Path qw(rmtree);
use File::Temp ();

sub import
{
	return if $> != 0;

	my $user = $ENV{PGBENCH_EXT_OS_USER} || 'postgres';
	my (undef, undef, $uid, $gid) = getpwnam($user)
	  or die "AsServerAccount: no account \"$user\" to run the test's servers as";
	my $dir = File::Temp::tempdir('pgbench_ext_tap.XXXXXX', TMPDIR => 1);
	chown($uid, $gid, $dir) or die "AsServerAccount: could not give $dir to $user: $!";
	# where PostgreSQL::Test::Utils keeps data and logs: TESTDIR up to PG 16,
	# TESTDATADIR and TESTLOGDIR from PG 17
	local $ENV{TESTDIR} = $dir;
	local $ENV{TESTDATADIR} = "$dir/tmp_check";
	local $ENV{TESTLOGDIR} = "$dir/log";
	system('runuser', '-u', $user, '--', $^X, (map { "-I$_" } grep { !ref } @INC), $0, @ARGV);
	my $status = $? == -1 ? 255 : ($? & 127 ? 128 + ($? & 127) : $? >> 8);
	rmtree($dir);
	exit $status;
}

1;

# AsServerAccount — run a TAP test that starts PostgreSQL::Test::Cluster
# nodes of its own as the server account when it was started as root.
#
# initdb and postgres refuse to run as root, and CI runs as root; the other
# tests run as root there on purpose, since the client's own dropping of
# privileges is part of what they test.  Loaded first ("use
# AsServerAccount;" before PostgreSQL::Test::Utils, which creates its
# directories when loaded), it reruns the test as the "postgres" account
# (PGBENCH_EXT_OS_USER overrides, as for the client) and passes its TAP
# output and exit status through.  The test keeps its data and logs under
# tmp_check/server_account/, which is given to that account; tmp_check/
# itself stays root's, since the client refuses caches below a directory
# another user owns.  Started by any other user it does nothing.
package AsServerAccount;

use strict;
use warnings;

sub import
{
	return if $> != 0;

	my $user = $ENV{PGBENCH_EXT_OS_USER} || 'postgres';
	my (undef, undef, $uid, $gid) = getpwnam($user)
	  or die "AsServerAccount: no account \"$user\" to run the test's servers as";

	# where PostgreSQL::Test::Utils keeps data and logs: below TESTDIR up to
	# PG 15, TESTDATADIR and TESTLOGDIR from PG 16
	my $data = $ENV{TESTDATADIR} || ($ENV{TESTDIR} ? "$ENV{TESTDIR}/tmp_check" : 'tmp_check');
	my $dir = "$data/server_account";
	mkdir $data;
	mkdir $dir;
	chown($uid, $gid, $dir) or die "AsServerAccount: could not give $dir to $user: $!";
	local $ENV{TESTDIR} = $dir;
	local $ENV{TESTDATADIR} = "$dir/tmp_check";
	local $ENV{TESTLOGDIR} = "$dir/tmp_check/log";
	system('runuser', '-u', $user, '--', $^X, (map { "-I$_" } grep { !ref } @INC), $0, @ARGV);
	exit($? == -1 ? 255 : ($? & 127 ? 128 + ($? & 127) : $? >> 8));
}

1;

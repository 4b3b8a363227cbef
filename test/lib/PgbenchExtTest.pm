# PgbenchExtTest — helpers for the client's TAP tests.
#
# The tests run against the throwaway cluster that tools/run-tests starts and
# call the client built in this tree ($ENV{PGBENCH_EXT}).  PostgreSQL::Test::Utils
# clears every PG* variable when a test starts, so the cluster's address
# arrives as PGBENCH_EXT_TEST_{HOST,PORT,USER} and is put back at first use.
package PgbenchExtTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use Test::More;

our @EXPORT = qw(client psql run_client fresh_database read_runs);

sub use_test_cluster
{
	foreach my $v (qw(HOST PORT USER))
	{
		$ENV{"PG$v"} = $ENV{"PGBENCH_EXT_TEST_$v"}
		  if defined $ENV{"PGBENCH_EXT_TEST_$v"};
	}
}

sub client { return $ENV{PGBENCH_EXT} || 'pgbench_ext'; }

# psql(DB, SQL) -> stdout; dies with psql's message on failure.
sub psql
{
	my ($db, $sql) = @_;
	my ($out, $err);
	use_test_cluster();
	IPC::Run::run([ 'psql', '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', $db, '-c', $sql ],
		'>', \$out, '2>', \$err)
	  or die "psql -d $db failed: $err";
	chomp $out;
	return $out;
}

# run_client(ARGS...) -> (exit status, stdout, stderr)
sub run_client
{
	my @args = @_;
	my ($out, $err) = ('', '');
	use_test_cluster();
	IPC::Run::run([ client(), @args ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# read_runs(DIR) -> a hash per line of DIR/runs.csv, keyed by its header
sub read_runs
{
	my ($dir) = @_;
	open my $fh, '<', "$dir/runs.csv" or die "could not open $dir/runs.csv: $!";
	my @lines = map { chomp; $_ } <$fh>;
	close $fh;
	my @cols = split /,/, shift @lines;
	my @runs;
	foreach my $line (@lines)
	{
		my @f = ($line =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
		my %r;
		@r{@cols} = @f;
		push @runs, \%r;
	}
	return @runs;
}

# A database of its own for one test, optionally with the extension.
sub fresh_database
{
	my ($name, $with_extension) = @_;
	psql('postgres', "DROP DATABASE IF EXISTS $name");
	psql('postgres', "CREATE DATABASE $name");
	psql($name, 'CREATE EXTENSION pgbench_ext') if $with_extension;
	return $name;
}

1;

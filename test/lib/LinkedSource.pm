# LinkedSource — helpers for the tests of source builds that need no
# PostgreSQL source: test/fixtures/linked-source is a tree whose "build"
# compiles one file and installs links to the installation under test, so
# that every step of a build (copy, configure, make, install, the
# extension's make, PGO training) runs for real, in seconds.
package LinkedSource;

use strict;
use warnings;

use Exporter 'import';
use Test::More;

use PgbenchExtTest qw(pg_bindir shared_tempdir source_tree);
use PgSourceRepo qw(git_in);

our @EXPORT = qw(linked_source private_cache linked_ab entry_of processes_in
  build_account_uid linked_rate_repo);

sub linked_source { return source_tree() . '/test/fixtures/linked-source'; }

# A build cache of the test's own, in a directory the build account can
# enter; $ENV{PGBENCH_EXT_BUILD_CACHE} names it.
sub private_cache
{
	my $base = shared_tempdir();
	$ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	$ENV{LINKED_SOURCE_BINDIR} = pg_bindir();
	return $base;
}

# The arguments of a tiny A/B: A built from the linked source with the
# given extra variant options, B the installation under test.  The build
# is the point, not the runs: no restarts with their warm-up runs, no copy
# of the run database before each run, and pgbench throttled, which
# leaves the CPUs to the tests beside this one.
sub linked_ab
{
	my ($dir, @a_options) = @_;
	return ('ab', '-s', '1', '-r', '1', '-T', '1', '-c', '1', '-b', 'select-only',
		'--restart', 'never', '--reset', 'never', '--pgbench-args', '-R 400',
		'--variant', 'A', '--source', linked_source(), @a_options,
		'--variant', 'B', '--bindir', pg_bindir(), '-o', $dir);
}

# The cache entry a client's output says it builds in (or reuses).
sub entry_of
{
	my ($out) = @_;
	return $out =~ /^variant A: (?:building in|reusing build) (\S+)/m ? $1 : undef;
}

# The processes whose working directory or arguments lie under dir:
# "pid uid args" each.
sub processes_in
{
	my ($dir) = @_;
	my @found;
	foreach my $proc (glob '/proc/[0-9]*')
	{
		my $cwd = readlink("$proc/cwd") // '';
		open my $fh, '<', "$proc/cmdline" or next;
		my $args = join ' ', split /\0/, (<$fh> // '');
		close $fh;
		next unless index($cwd, $dir) == 0 || index($args, $dir) >= 0;
		my $uid = (stat $proc)[4];
		(my $pid = $proc) =~ s{.*/}{};
		push @found, "$pid $uid $args";
	}
	return @found;
}

# The uid builds run as: the server account as root, else ourselves.
sub build_account_uid
{
	return $> unless $> == 0;
	my $name = $ENV{PGBENCH_EXT_OS_USER} || 'postgres';
	my $uid = getpwnam($name);
	die "no account $name" unless defined $uid;
	return $uid;
}

# linked_rate_repo($repo, $branch, $rate) -> ($git, $commit, $set_rate):
# a git repository at $repo of the linked source whose pgbench runs
# (pgbench -n ...) are held to a rate, its -i as it was, so that every
# commit's tps is its rate's whatever else the machine does; the first
# commit of $branch at $rate.  $set_rate->(N) changes the rate in the
# work tree, $commit->(MESSAGE) commits the tree and returns the commit,
# leaving the repository writable by no one else, as an agent requires of
# a watched repository.
sub linked_rate_repo
{
	my ($repo, $branch, $rate) = @_;
	system('cp', '-a', linked_source(), $repo) == 0 or die "cp: $?";
	my $git = git_in($repo);
	my $commit = sub {
		$git->('add', '-A', '.');
		$git->('commit', '-q', '-m', $_[0]);
		system('chmod', '-R', 'go-w,a+rX', $repo) == 0 or die "chmod: $?";
		return $git->('rev-parse', 'HEAD');
	};
	my $set_rate = sub {
		open my $f, '>', "$repo/pgbench.in" or die "$repo/pgbench.in: $!";
		print $f <<"SH";
#!/bin/sh
case "\$1" in
-n) exec \@LINK_BINDIR\@/pgbench -R $_[0] "\$@" ;;
esac
exec \@LINK_BINDIR\@/pgbench "\$@"
SH
		close $f;
	};
	$git->('init', '-q', '-b', $branch);
	$set_rate->($rate);
	open my $in, '<', "$repo/Makefile" or die "$repo/Makefile: $!";
	my $mk = do { local $/; <$in> };
	close $in;
	$mk =~ s/^PROGRAMS = postgres initdb pg_ctl pgbench$/PROGRAMS = postgres initdb pg_ctl/m or die 'Makefile: PROGRAMS';
	$mk =~ s{(\tcp pg_config \$\(DESTDIR\)/usr/local/pgsql/bin/pg_config\n)}
		{$1\tsed "s|\@LINK_BINDIR\@|\$(LINK_BINDIR)|" pgbench.in >\$(DESTDIR)/usr/local/pgsql/bin/pgbench\n\tchmod +x \$(DESTDIR)/usr/local/pgsql/bin/pgbench\n}
	  or die 'Makefile: install';
	open my $out, '>', "$repo/Makefile" or die "$repo/Makefile: $!";
	print $out $mk;
	close $out;
	return ($git, $commit, $set_rate);
}

1;

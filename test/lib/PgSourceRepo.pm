# PgSourceRepo — a local git repository of PostgreSQL's source, for the
# tests of watched branches that build it for real (145, and 148 when
# asked), and git_in(), every watch test's git (144, LinkedSource.pm): the release's
# tree committed whole, generated files included (its .gitignore names
# them, and a tarball has them), owned by the user running the test and
# writable by no one else, as an agent requires of a watched repository.
package PgSourceRepo;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;

our @EXPORT = qw(git_in pg_source_repo);

# git_in($repo) -> a sub running "git ARGS" in $repo as a committer of its
# own, dying on failure, returning git's output without its last newline
sub git_in
{
	my ($repo) = @_;
	return sub {
		my ($out, $err) = ('', '');
		IPC::Run::run([ 'git', '-C', $repo, '-c', 'user.name=t', '-c', 'user.email=t@example.org', @_ ],
			'<', \undef, '>', \$out, '2>', \$err)
		  or die "git @_: $err";
		chomp $out;
		return $out;
	};
}

# pg_source_repo($repo, $src, $branch) -> ($git, $head): $src copied to
# $repo and committed as the first commit of $branch; git_in($repo), and
# that commit.  The test keeps the repository writable by no one else
# (chmod go-w) after each commit of its own.
sub pg_source_repo
{
	my ($repo, $src, $branch) = @_;
	system('cp', '-a', $src, $repo) == 0 or die "cp: $?";
	my $git = git_in($repo);
	$git->('init', '-q', '-b', $branch);
	$git->('add', '-A', '-f', '.');
	$git->('commit', '-q', '-m', 'PostgreSQL 15');
	system('chmod', '-R', 'go-w,a+rX', $repo) == 0 or die "chmod: $?";
	return ($git, $git->('rev-parse', 'HEAD'));
}

1;

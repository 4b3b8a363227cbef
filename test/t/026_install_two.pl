# One tree, two installations (docs/building.md): the README's install
# lines in turn — "make install" for the installed PostgreSQL, then
# "make PG_CONFIG=<another> install", then the first again — each recompile
# for the installation they install into, and both servers then load the
# module (a short experiment with a variant on each, which preloads
# pgbench_ext and calls it).  Before pg_config.stamp, the second install
# copied the first one's objects, and PostgreSQL 18 refused them
# ("undefined symbol: ShmemVariableCache").
#
# It needs a second installation: PGBENCH_EXT_TEST_RELEASES (CI names the
# PostgreSQL 18 of tools/pg-build), and write access to both.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my ($other) = grep { `$_ --bindir` ne `${\ pg_config()} --bindir` }
  split(' ', $ENV{PGBENCH_EXT_TEST_RELEASES} // '');
plan skip_all => 'needs a second installation: set PGBENCH_EXT_TEST_RELEASES to its pg_config'
  unless $other;

my $base = shared_tempdir();
my @installs = (pg_config(), $other, pg_config());
my %bindir = map { chomp(my $b = `$_ --bindir`); ($_ => $b) } @installs;
foreach my $pg_config (@installs)
{
	-w $bindir{$pg_config} or plan skip_all => "cannot write to $bindir{$pg_config}";
}

# A copy of the tree that has been built for neither, as a user's clone
chomp(my $tree = `${\ source_tree()}/tools/readable-copy $base/tree`);
ok(-f "$tree/Makefile", "a copy of the tree in $tree");

foreach my $i (0 .. $#installs)
{
	my $pg_config = $installs[$i];
	my $out = `make -C '$tree' PG_CONFIG='$pg_config' install 2>&1`;
	is($?, 0, "step $i: make PG_CONFIG=$pg_config install") or diag $out;
	my $compiled = () = $out =~ m{ -c -o extension/hooks\.o }g;
	is($compiled, 1, "step $i: the server module is compiled for $pg_config");
}

my $dir = "$base/ab";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-t', '20', '-c', '1', '-r', '1', '-b', 'select-only',
	'--variant', 'first', '--bindir', $bindir{ $installs[0] },
	'--variant', 'second', '--bindir', $bindir{$other}, '-o', $dir);
is($rc, 0, 'both servers load the module: an experiment across them completes') or diag "$out\n$err";
my @runs = grep { $_->{warmup} eq 'false' } read_runs($dir);
is(join(',', sort map { "$_->{variant}:$_->{status}" } @runs), 'first:ok,second:ok', 'a run on each');
foreach my $run (@runs)
{
	my $detail = read_json(sprintf('%s/runs/%04d.json', $dir, $run->{run_id}));
	cmp_ok($detail->{counters}{xact}{commits} // 0, '>=', 20,
		"$run->{variant}: counters() of the extension, read from its library");
}

done_testing();
